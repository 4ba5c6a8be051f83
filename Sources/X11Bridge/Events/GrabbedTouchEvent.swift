import CX11

/// A touch event that reached the bridge through its own passive touch grab: the bridge is a
/// listener of the touch (its owner, until it rejects it).
public struct GrabbedTouchEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case begin
        case update
        case end
    }

    public var kind: Kind
    /// The master the touch is delivered through; accepting or rejecting names it.
    public var master: Int
    /// The touchscreen that produced it.
    public var source: Int
    /// The server's touch id, the same as in the raw touch events.
    public var touchID: Int

    public init(kind: Kind, master: Int, source: Int, touchID: Int) {
        self.kind = kind
        self.master = master
        self.source = source
        self.touchID = touchID
    }

    static func kind(ofEventType type: Int32) -> Kind? {
        switch type {
        case XI_TouchBegin: return .begin
        case XI_TouchUpdate: return .update
        case XI_TouchEnd: return .end
        default: return nil
        }
    }
}
