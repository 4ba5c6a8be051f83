/// What a recognizer sees of one contact event: time, place and normalized force.
public struct ContactSample: Sendable, Hashable {
    public var time: Double
    public var position: Point
    /// Normalized force 0...1, or nil when the device has no pressure.
    public var force: Double?

    /// Public, unlike most of GestureKit's value types: a program using the library drives a
    /// recognizer with samples of its own.
    public init(time: Double, position: Point, force: Double?) {
        self.time = time
        self.position = position
        self.force = force
    }
}

/// The input a recognizer handles: one per contact event, plus timer expiries.
public enum RecognizerInput: Sendable, Hashable {
    case down(ContactSample)
    case move(ContactSample)
    case up(ContactSample)
    case cancel(ContactSample)
    /// A deadline the recognizer asked for has passed.
    case timeout(at: Double)
}
