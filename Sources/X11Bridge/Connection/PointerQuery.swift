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

    /// The buttons a device holds down now, as X numbers them on it (before its button map);
    /// nil when it has no buttons or is gone. The XTEST pointer's are every XTest client's and
    /// MouseKeys': a button held there may be another program's.
    public func buttonsDown(device: Int) -> Set<Int>? {
        var count: Int32 = 0
        guard let info = XIQueryDevice(display, Int32(device), &count) else { return nil }
        defer { XIFreeDeviceInfo(info) }
        guard count > 0, let classes = info.pointee.classes else { return nil }
        for index in 0..<Int(max(0, info.pointee.num_classes)) {
            guard let any = classes[index], any.pointee.type == XIButtonClass else { continue }
            let state = UnsafeMutableRawPointer(any).assumingMemoryBound(to: XIButtonClassInfo.self).pointee.state
            var held: Set<Int> = []
            if let mask = state.mask {
                for byte in 0..<Int(max(0, state.mask_len)) {
                    for bit in 0..<8 where mask[byte] & (UInt8(1) << UInt8(bit)) != 0 {
                        held.insert(byte * 8 + bit)
                    }
                }
            }
            return held
        }
        return nil
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
