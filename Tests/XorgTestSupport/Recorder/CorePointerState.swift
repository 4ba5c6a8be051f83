import CX11

/// The core pointer as XQueryPointer reports it.
public struct CorePointerState: Sendable, Equatable {
    public var rootX: Int
    public var rootY: Int
    /// Core buttons 1...5 that are down right now.
    public var buttonsHeld: [Int]

    public init(rootX: Int, rootY: Int, buttonsHeld: [Int]) {
        self.rootX = rootX
        self.rootY = rootY
        self.buttonsHeld = buttonsHeld
    }

    /// The core pointer of `display` now, relative to its default root; nil when the pointer
    /// is on another screen's root.
    public static func query(_ display: OpaquePointer) -> CorePointerState? {
        guard let pointer = pointerQuery(display) else { return nil }
        let buttonMasks = [Button1Mask, Button2Mask, Button3Mask, Button4Mask, Button5Mask]
        let held = buttonMasks.enumerated().filter { pointer.mask & UInt32($0.element) != 0 }.map { $0.offset + 1 }
        return CorePointerState(rootX: Int(pointer.rootX), rootY: Int(pointer.rootY), buttonsHeld: held)
    }

    /// XQueryPointer on `display`'s default root: where the pointer is, the root's child it is in
    /// (0 for none) and the button and modifier mask; nil when it is on another screen's root.
    public static func pointerQuery(_ display: OpaquePointer) -> (rootX: Int32, rootY: Int32, child: UInt, mask: UInt32)? {
        var root: UInt = 0
        var child: UInt = 0
        var rootX: Int32 = 0
        var rootY: Int32 = 0
        var windowX: Int32 = 0
        var windowY: Int32 = 0
        var mask: UInt32 = 0
        let found = XQueryPointer(
            display, XDefaultRootWindow(display), &root, &child, &rootX, &rootY, &windowX, &windowY, &mask)
        return found != 0 ? (rootX, rootY, child, mask) : nil
    }
}
