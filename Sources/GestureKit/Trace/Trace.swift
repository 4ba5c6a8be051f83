/// The first line of a trace: what was recorded and on which devices.
public struct TraceHeader: Sendable, Hashable {
    public static let version = 1

    public var screen: ScreenSize?
    public var devices: [InputDevice]

    public init(screen: ScreenSize?, devices: [InputDevice]) {
        self.screen = screen
        self.devices = devices
    }
}

/// A recording: the header and its events in time order.
public struct Trace: Sendable, Hashable {
    public var header: TraceHeader
    public var events: [ContactEvent]

    public init(header: TraceHeader, events: [ContactEvent]) {
        self.header = header
        self.events = events
    }
}

/// A trace that cannot be read, with the line that is wrong.
public struct TraceError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    /// 1-based; 0 when the problem is the file as a whole.
    public var line: Int
    public var message: String

    public var description: String {
        line > 0 ? "\(file):\(line): error: \(message)" : "\(file): error: \(message)"
    }
}
