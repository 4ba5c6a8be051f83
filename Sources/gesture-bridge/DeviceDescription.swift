import ArgumentParser
import Glibc
import GestureKit
import Logging
import X11Bridge

/// One line about a device: what it is, its pressure range and touches, and who listens.
enum DeviceDescription {
    static func line(for device: X11Device, bindings: BindingSet) -> String {
        var parts = ["\(device.id) \"\(device.name)\": \(device.kind?.rawValue ?? "not a contact source")"]
        if let range = device.pressureAxis?.pressureRange {
            parts.append("pressure \(range.min.formatted)..\(range.max.formatted)")
        } else {
            parts.append("no pressure")
        }
        if let touch = device.touch {
            parts.append("\(touch.maxTouches) touches (\(touch.mode.rawValue))")
        }
        if !device.isEnabled { parts.append("disabled") }
        let names = listeners(of: device, in: bindings)
        parts.append(names.isEmpty ? "no binding listens" : "bindings: \(names.joined(separator: ", "))")
        return parts.joined(separator: ", ")
    }

    static func listeners(of device: X11Device, in bindings: BindingSet) -> [String] {
        guard let input = device.inputDevice else { return [] }
        return bindings.bindings.filter { $0.listens(to: input) }.map(\.name)
    }
}
