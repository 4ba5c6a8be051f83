/// One finding of `doctor --json`: `{"check","status","device","binding","key","message"}`,
/// the subject keys there only where the finding is about one. `check` says what was looked at,
/// so a script (or a test) reads a finding by what it is, not by its words.
public struct DoctorFindingLine: Codable, Sendable, Hashable {
    /// Fine, worth knowing, or in the way (`problem`: doctor exits 1).
    public enum Status: String, Codable, Sendable {
        case ok, note, problem
    }

    /// What the finding is about.
    public enum Check: String, Codable, Sendable, CaseIterable {
        /// The config loads (ok), or does not (problem).
        case config
        /// An X11 session to reach on DISPLAY.
        case session
        case xinput
        case xtest
        /// A server with several screens, of which the bridge covers one.
        case screens
        /// Whether a gesture-bridge runs on the display now.
        case bridgeRunning = "bridge-running"
        case compositor
        /// A pen tablet whose pen has yet to come near it (`device`).
        case penAwaited = "pen-awaited"
        /// No pen, touchscreen or mouse at all.
        case noDevices = "no-devices"
        /// A device reporting pressure, with what was learned for it (`device`).
        case pressure
        /// A device declaring a pressure axis its driver never moves (`device`).
        case deadPressure = "dead-pressure"
        /// No device reports pressure.
        case noPressure = "no-pressure"
        /// A binding names a device that is not connected (`binding`, `device`).
        case missingDevice = "missing-device"
        /// A binding names a device that is connected but switched off (`binding`, `device`).
        case switchedOff = "switched-off"
        /// No binding listens to a device (`device`).
        case unlistened
        /// No binding listens to any device here.
        case nothingListened = "nothing-listened"
        /// A touchscreen spread over several monitors (`device`).
        case mapping
        /// A deep press with a fixed threshold, which learning leaves alone (`binding`).
        case fixedThreshold = "fixed-threshold"
        /// Volume actions and the tool that changes the volume (`binding` when a problem).
        case volume
        /// A key a binding sends (`binding`: the first that sends it; `key`).
        case key
        /// A program a binding's command runs that cannot be found or run here (`binding`).
        case command
        /// A learned-state file not read: damaged, unreadable, or another version's.
        case learnedState = "learned-state"
    }

    public var check: Check
    public var status: Status
    public var device: String?
    public var binding: String?
    public var key: String?
    public var message: String

    public init(check: Check, status: Status, device: String? = nil, binding: String? = nil, key: String? = nil, message: String) {
        self.check = check
        self.status = status
        self.device = device
        self.binding = binding
        self.key = key
        self.message = message
    }
}
