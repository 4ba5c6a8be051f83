import CX11
import GestureKit

extension XConnection {
    /// Asks the server about a master pointer (2 is the virtual core pointer).
    public func queryPointer(master: Int) -> PointerState? {
        var rootReturn: Window = 0
        var child: Window = 0
        var rootX = 0.0
        var rootY = 0.0
        var windowX = 0.0
        var windowY = 0.0
        var buttons = XIButtonState()
        var modifiers = XIModifierState()
        var group = XIGroupState()
        let onScreen = XIQueryPointer(display, Int32(master), root, &rootReturn, &child, &rootX, &rootY,
                                      &windowX, &windowY, &buttons, &modifiers, &group)
        defer { if let mask = buttons.mask { XFree(mask) } }
        guard onScreen != 0 else { return nil }
        var held: Set<Int> = []
        if let mask = buttons.mask {
            for byte in 0..<Int(max(0, buttons.mask_len)) {
                for bit in 0..<8 where mask[byte] & (UInt8(1) << UInt8(bit)) != 0 {
                    held.insert(byte * 8 + bit)
                }
            }
        }
        return PointerState(position: Point(x: rootX, y: rootY), buttons: held)
    }

    /// The keycodes the core keyboard has down now, whatever keyboard holds them.
    public func keysDown() -> Set<UInt8> {
        var bits = [CChar](repeating: 0, count: 32)
        XQueryKeymap(display, &bits)
        var down: Set<UInt8> = []
        for (index, byte) in bits.enumerated() where byte != 0 {
            for bit in 0..<8 where UInt8(bitPattern: byte) & (1 << bit) != 0 {
                down.insert(UInt8(index * 8 + bit))
            }
        }
        return down
    }
}
