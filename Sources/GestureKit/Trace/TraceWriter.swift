/// Writes the trace format, line by line, so a live recording can stream to a file.
public enum TraceWriter {
    public static func headerLine(_ header: TraceHeader) -> String {
        JSONLineEncoder.line(TraceHeaderLine(header))
    }

    public static func eventLine(_ event: ContactEvent) -> String {
        JSONLineEncoder.line(TraceEventLine(event))
    }

    public static func text(_ trace: Trace) -> String {
        ([headerLine(trace.header)] + trace.events.map(eventLine)).joined(separator: "\n") + "\n"
    }
}
