import CX11

/// An XI2 device event that reached the bridge through one of its own grabs on a master:
/// a pointer's button or motion event an application would otherwise have received
/// (`GrabbedPointerEvent`), or a touch the bridge listens to, its owner until it rejects it
/// (`GrabbedTouchEvent`).
public struct GrabbedEvent<Kind: GrabbedEventKind>: Sendable, Hashable {
    public var kind: Kind
    /// The master the grab is on; allowing, accepting or rejecting the event names it.
    public var master: Int
    /// The physical device (pen, mouse, touchscreen, the XTEST pointer) that produced it.
    public var source: Int
    /// The button number (0 for motion), or the server's touch id (the same as in the raw
    /// touch events).
    public var detail: Int
    /// The server's timestamp, in milliseconds. A button event the server made from a touch
    /// carries the touch's own, the begin's for its press.
    public var serverTime: UInt
    /// Whether the server made it from a touch (XIPointerEmulated): a touchscreen's touch
    /// down alone moves the pointer and presses its button 1 too.
    public var isPointerEmulated: Bool
    /// Sticky Keys' latched modifiers and group as the event was made: what a click made
    /// for it is owed.
    var latches = KeyboardLatches(modifiers: 0, group: 0)
}

/// The XI2 event types one grab delivers, a kind each.
public protocol GrabbedEventKind: Sendable, Hashable, CaseIterable {
    /// The XI2 event type of this kind.
    var eventType: Int32 { get }
    /// Whether the event's detail means something (a motion event has no button).
    var hasDetail: Bool { get }
}

extension GrabbedEventKind {
    /// The kind of an XI2 event type; nil for a type this grab does not deliver.
    public init?(eventType type: Int32) {
        guard let kind = Self.allCases.first(where: { $0.eventType == type }) else { return nil }
        self = kind
    }

    /// The XI2 event types of these kinds, for selecting them with the grab.
    static var eventTypes: Set<Int32> { Set(allCases.map(\.eventType)) }
}

public typealias GrabbedPointerEvent = GrabbedEvent<PointerGrabKind>
public typealias GrabbedTouchEvent = GrabbedEvent<TouchGrabKind>

public enum PointerGrabKind: GrabbedEventKind {
    case buttonPress
    case buttonRelease
    case motion

    public var eventType: Int32 {
        switch self {
        case .buttonPress: return XI_ButtonPress
        case .buttonRelease: return XI_ButtonRelease
        case .motion: return XI_Motion
        }
    }

    public var hasDetail: Bool { self != .motion }
}

public enum TouchGrabKind: GrabbedEventKind {
    case begin
    case update
    case end

    public var eventType: Int32 {
        switch self {
        case .begin: return XI_TouchBegin
        case .update: return XI_TouchUpdate
        case .end: return XI_TouchEnd
        }
    }

    public var hasDetail: Bool { true }
}

extension GrabbedEvent where Kind == PointerGrabKind {
    /// The button number; 0 for motion.
    public var button: Int { detail }
}

extension GrabbedEvent where Kind == TouchGrabKind {
    /// The server's touch id.
    public var touchID: Int { detail }
}

extension GrabbedEvent {
    /// Decodes an XI2 event of this grab's kinds; nil for any other type. Button, motion and
    /// touch events share the XI2 device event's layout.
    static func decode(_ event: borrowing XCBEvent, type: Int32) -> Self? {
        guard let kind = Kind(eventType: type) else { return nil }
        let device = event.read(as: xcb_input_button_press_event_t.self).pointee
        return Self(kind: kind, master: Int(device.deviceid), source: Int(device.sourceid),
                    detail: kind.hasDetail ? Int(device.detail) : 0, serverTime: UInt(device.time),
                    isPointerEmulated: device.flags & UInt32(XIPointerEmulated) != 0,
                    latches: KeyboardLatches(modifiers: device.mods.latched, group: Int32(Int8(bitPattern: device.group.latched))))
    }
}
