import GestureKit
import CX11

