/// Writes the trace format, line by line, so a live recording can stream to a file.
public enum TraceWriter {
    public static func headerLine(_ header: TraceHeader) -> String {
        var line = JSONLine()
        line.add("trace", TraceHeader.version)
        if let screen = header.screen {
            var size = JSONLine()
            size.add("width", screen.width)
            size.add("height", screen.height)
            line.addRaw("screen", size.string)
        }
        let devices = header.devices.map { device -> String in
            var entry = JSONLine()
            entry.add("id", device.id)
            entry.add("name", device.name)
            entry.add("kind", device.kind.rawValue)
            entry.add("pressure", device.pressure)
            return entry.string
        }
        line.addRaw("devices", "[" + devices.joined(separator: ",") + "]")
        return line.string
    }

    public static func eventLine(_ event: ContactEvent) -> String {
        var line = JSONLine()
        line.add("t", event.time)
        line.add("device", event.device)
        line.add("contact", event.contact)
        line.add("phase", event.phase.rawValue)
        line.add("x", event.position.x)
        line.add("y", event.position.y)
        if let pressure = event.pressure { line.add("pressure", pressure) }
        return line.string
    }

    public static func text(_ trace: Trace) -> String {
        ([headerLine(trace.header)] + trace.events.map(eventLine)).joined(separator: "\n") + "\n"
    }
}
