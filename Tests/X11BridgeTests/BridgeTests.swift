import Testing
import X11Bridge
