import GestureKit

/// Sends nothing and runs nothing: says what it would have done. For trying a config on the
/// live session without clicks landing anywhere.
public final class DryRunPerformer: ActionPerformer {
    private let log: (String) -> Void

    public init(log: @escaping (String) -> Void) {
        self.log = log
    }

    public func perform(_ event: ActionEvent, now: Double) throws(ActionFailure) {
        log("dry run: would \(event.action) for \(event.gesture) at (\(event.position.x.formatted), \(event.position.y.formatted))")
    }

    public var isHolding: Bool { false }
    public func releaseAll() {}
    public var nextDeadline: Double? { nil }
    public func tick(now: Double) {}
    public var descriptors: [Int32] { [] }
    public func descriptorReady(_ descriptor: Int32) {}
    public func shutdown() {}
}
