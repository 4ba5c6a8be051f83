/// One XI2 event as the recorder window received it, with everything a test may assert on.
public struct RecordedEvent: Sendable, Equatable, CustomStringConvertible {
    /// The label the server gives a pen's pressure axis.
    public static let penPressureLabel = "Abs Pressure"
    /// The label the server gives a touchscreen's pressure axis.
    public static let touchPressureLabel = "Abs MT Pressure"

    public var kind: RecordedEventKind
    /// The X server time in milliseconds.
    public var time: UInt
    /// The device the event was delivered through (a master device: 2 is the core pointer).
    public var deviceID: Int32
    /// The physical (slave) device it came from: the pen, the touchscreen, XTEST...
    public var sourceID: Int32
    /// The button number, the key code or the touch id, depending on `kind`.
    public var detail: Int32
    public var rootX: Double
    public var rootY: Double
    /// Relative to the window's origin.
    public var windowX: Double
    public var windowY: Double
    /// XI2 event flags, e.g. `XIPointerEmulated` on a button event emulated from a touch.
    public var flags: Int32
    /// The buttons held when the event happened (not counting a press it reports).
    public var buttonsHeld: [Int]
    /// The effective modifier mask (ShiftMask, ControlMask, ...).
    public var modifiers: Int32
    /// Valuator values by axis number, in device units; only the axes the event carries.
    public var valuators: [Int: Double]
    /// The source device's label of each axis in `valuators` ("Abs Pressure", "Abs X", ...).
    public var valuatorLabels: [Int: String]
    /// Whether a client sent this event with XSendEvent instead of it coming from a device.
    public var isSendEvent: Bool
    /// For key events: the keysym name of `detail` on the server's keymap ("Return", "z").
    public var keysymName: String?

    public init(
        kind: RecordedEventKind, time: UInt = 0, deviceID: Int32 = 0, sourceID: Int32 = 0, detail: Int32 = 0,
        rootX: Double = 0, rootY: Double = 0, windowX: Double = 0, windowY: Double = 0, flags: Int32 = 0,
        buttonsHeld: [Int] = [], modifiers: Int32 = 0, valuators: [Int: Double] = [:],
        valuatorLabels: [Int: String] = [:], isSendEvent: Bool = false, keysymName: String? = nil
    ) {
        self.kind = kind
        self.time = time
        self.deviceID = deviceID
        self.sourceID = sourceID
        self.detail = detail
        self.rootX = rootX
        self.rootY = rootY
        self.windowX = windowX
        self.windowY = windowY
        self.flags = flags
        self.buttonsHeld = buttonsHeld
        self.modifiers = modifiers
        self.valuators = valuators
        self.valuatorLabels = valuatorLabels
        self.isSendEvent = isSendEvent
        self.keysymName = keysymName
    }

    /// The button of a button event.
    public var button: Int? {
        kind == .buttonPress || kind == .buttonRelease ? Int(detail) : nil
    }

    /// The touch id of a touch event.
    public var touchID: UInt32? {
        kind.isTouch ? UInt32(bitPattern: detail) : nil
    }

    /// True for pointer events the server made up from a touch for a client not selecting touch.
    public var isPointerEmulated: Bool {
        flags & (1 << 16) != 0
    }

    /// The value of the axis the source device labels `label`, if the event carries it.
    public func value(labeled label: String) -> Double? {
        valuatorLabels.first { $0.value == label }.flatMap { valuators[$0.key] }
    }

    /// The pressure in device units: the pen's "Abs Pressure" or the touchscreen's "Abs MT Pressure".
    public var pressure: Double? {
        value(labeled: Self.penPressureLabel) ?? value(labeled: Self.touchPressureLabel)
    }

    public var description: String {
        var text = "\(kind) detail=\(detail) root=(\(rootX.formatted1), \(rootY.formatted1))"
            + " window=(\(windowX.formatted1), \(windowY.formatted1)) device=\(deviceID) source=\(sourceID)"
        if let pressure {
            text += " pressure=\(pressure.formatted1)"
        }
        if let keysymName {
            text += " keysym=\(keysymName)"
        }
        if isPointerEmulated {
            text += " emulated"
        }
        if isSendEvent {
            text += " sendEvent"
        }
        if !buttonsHeld.isEmpty {
            text += " held=\(buttonsHeld)"
        }
        return text + " time=\(time)"
    }
}

extension Double {
    fileprivate var formatted1: String {
        self == rounded() ? String(Int(self)) : String((self * 10).rounded() / 10)
    }
}
