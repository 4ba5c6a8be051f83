import GestureKit

/// Where a recorder window sits on the screen: a rectangle of whole pixels on the root window,
/// from its top-left corner.
public typealias WindowFrame = ScreenRect
