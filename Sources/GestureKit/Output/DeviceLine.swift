/// A device as `devices --json` lists it, and as `run --json`'s `listening`, `device-added` and
/// `device-changed` events carry it: `{"id","name","vendor","product","kind","enabled","driver",
/// "type","pressure","pressureMoved","touches","touchMode","listened","bindings","learned"}`.
public struct DeviceLine: Codable, Sendable, Hashable {
    public var id: Int
    public var name: String
    /// Its vendor and product ids as four hex digits ("056a", "5000"), where X says them (the
    /// device property "Device Product ID"); left out where it does not.
    public var vendor: String?
    public var product: String?
    /// `pen`, `eraser`, `touch`, `mouse`, or `none` for a device no gesture reads.
    public var kind: String
    public var enabled: Bool
    /// The driver whose conventions it follows: `libinput`, `wacom`, `evdev`, `unknown`.
    public var driver: String
    /// The type its driver gives it; null when the driver says none.
    @NullWhenNil public var type: String?
    /// Its pressure range in device units; null without a pressure axis.
    @NullWhenNil public var pressure: PressureRangeLine?
    /// Whether its pressure has been seen moving; left out until the bridge can tell.
    public var pressureMoved: Bool?
    /// How many touches it tracks; null for a device without touches.
    @NullWhenNil public var touches: Int?
    /// `direct` or `dependent`, for a device with touches.
    public var touchMode: String?
    /// Whether a binding of the config listens to it, and which; both null where that is not
    /// known (`devices --json` while the config does not load and none that loaded is kept).
    @NullWhenNil public var listened: Bool?
    @NullWhenNil public var bindings: [String]?
    /// What was learned for it (`devices --json` only): absent from `run --json`'s devices,
    /// `null` for a device without pressure, an object otherwise.
    public var learned: NullWhenNil<DeviceLearnedLine>?

    public init(id: Int, name: String, kind: String, enabled: Bool, driver: String, type: String?,
                pressure: PressureRange?, pressureMoved: Bool?, touches: Int?, touchMode: String?,
                bindings: [String]?, learned: NullWhenNil<DeviceLearnedLine>? = nil, ids: DeviceProduct? = nil) {
        self.id = id
        self.name = name
        self.vendor = ids?.vendorText
        self.product = ids?.productText
        self.kind = kind
        self.enabled = enabled
        self.driver = driver
        self.type = type
        self.pressure = pressure.map(PressureRangeLine.init)
        self.pressureMoved = pressureMoved
        self.touches = touches
        self.touchMode = touchMode
        self.listened = bindings.map { !$0.isEmpty }
        self.bindings = bindings
        self.learned = learned
    }
}

/// A pressure range in device units: `{"min","max"}` (the trace header's, `devices --json`'s
/// and `analyze --json`'s shape).
public struct PressureRangeLine: Codable, Sendable, Hashable {
    public var min: Double
    public var max: Double

    public init(_ range: PressureRange) {
        min = range.min
        max = range.max
    }

    /// The range it describes; nil when it spans nothing.
    public var range: PressureRange? { PressureRange(min: min, max: max) }
}

/// A device's `learned` object in `devices --json`:
/// `{"threshold","release","ordinary","moved","calibrated","ordinary-contacts","deliberate-presses"}`,
/// the levels a learning deep press uses on it, whether they moved from the start, whether
/// `calibrate` set them, and from how many contacts (all zero and false when nothing is kept).
public struct DeviceLearnedLine: Codable, Sendable, Hashable {
    public var threshold: Double
    public var release: Double
    public var ordinary: Double
    public var moved: Bool
    public var calibrated: Bool
    public var ordinaryContacts: Int
    public var deliberatePresses: Int

    public init(_ learner: HandLearner?) {
        let learner = learner ?? HandLearner()
        let levels = learner.effectiveLevels(start: .start)
        threshold = levels.threshold
        release = levels.release
        ordinary = levels.ordinary
        moved = learner.levels != nil && !learner.calibrated
        calibrated = learner.calibrated
        ordinaryContacts = learner.ordinaryContacts
        deliberatePresses = learner.deliberatePresses
    }

    /// The counts spelt as `learned --json` and `run --json`'s learned changes spell them.
    private enum CodingKeys: String, CodingKey {
        case threshold, release, ordinary, moved, calibrated
        case ordinaryContacts = "ordinary-contacts"
        case deliberatePresses = "deliberate-presses"
    }
}

/// `learned --json`: one device's kept state,
/// `{"device","threshold","release","ordinary","learned","calibrated","ordinary-contacts","deliberate-presses"}`.
public struct LearnedStateLine: Codable, Sendable, Hashable {
    public var device: String
    public var threshold: Double
    public var release: Double
    public var ordinary: Double
    /// Whether its levels moved from the start.
    public var learned: Bool
    public var calibrated: Bool
    public var ordinaryContacts: Int
    public var deliberatePresses: Int

    public init(device: String, learner: HandLearner) {
        self.device = device
        let levels = learner.effectiveLevels(start: .start)
        threshold = levels.threshold
        release = levels.release
        ordinary = levels.ordinary
        learned = learner.levels != nil
        calibrated = learner.calibrated
        ordinaryContacts = learner.ordinaryContacts
        deliberatePresses = learner.deliberatePresses
    }

    private enum CodingKeys: String, CodingKey {
        case device, threshold, release, ordinary, learned, calibrated
        case ordinaryContacts = "ordinary-contacts"
        case deliberatePresses = "deliberate-presses"
    }
}

/// `learned --reset --json`: `{"reset": device}`, once for each device forgotten.
public struct LearnedResetLine: Codable, Sendable, Hashable {
    public var reset: String

    public init(reset: String) {
        self.reset = reset
    }
}
