import CX11

/// A master pointer's button or motion event that reached the bridge through its own grab:
/// the input an application would otherwise have received.
public struct GrabbedPointerEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case buttonPress
        case buttonRelease
        case motion
    }

    public var kind: Kind
    /// The master the grab is on.
    public var master: Int
    /// The physical device (pen, mouse, the XTEST pointer) that produced it.
    public var source: Int
    /// The button number; 0 for motion.
    public var button: Int

    public init(kind: Kind, master: Int, source: Int, button: Int) {
        self.kind = kind
        self.master = master
        self.source = source
        self.button = button
    }

    static func kind(ofEventType type: Int32) -> Kind? {
        switch type {
        case XI_ButtonPress: return .buttonPress
        case XI_ButtonRelease: return .buttonRelease
        case XI_Motion: return .motion
        default: return nil
        }
    }
}
