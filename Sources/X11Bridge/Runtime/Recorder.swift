import Glibc
import GestureKit

/// Writes live input in the trace format: the header (devices, screen), then one line per
/// contact event, timed from the start of the recording.
///
/// The header is written with the first event (or at the end, when none came), so a device
/// that appears before it is recorded. While a libinput tablet awaits its pen (the driver
/// adds the pen's device when it first comes near), the events are held back, up to
/// `heldBackLimit`, and the header waits for the pen: a click to focus the drawing program
/// does not leave the pen out. Devices that appear after the header are not recorded (their
/// events would name a device the header lacks), but for one of the header's that went away
/// and came back the same (switched off and on, a tablet plugged in again): its events go on
/// under the header's id. Devices that go away end their contacts with a `cancel`, as the
/// engine sees it live.
public final class Recorder {
    public let session: InputListener
    /// Which contact sources to record; all when nil.
    public var deviceFilter: ((X11Device) -> Bool)?
    /// Stops this many seconds after the recording starts (nil: until SIGINT or SIGTERM).
    public var duration: Double?
    public let clock: MonotonicClock
    private let write: (String) -> Void
    private let report: (RecorderEvent) -> Void
    private var recorded: Set<Int> = []
    /// The header's devices that went away, by their header id: one that comes back the same
    /// is recorded again.
    private var gone: [Int: InputDevice] = [:]
    /// The header id of a device come back under another id (`gone`), by its id now.
    private var headerIDs: [Int: Int] = [:]
    private var skipped: Set<Int> = []
    private var stopRequested = false
    private var headerWritten = false
    /// The devices the header will list, kept as they were added: one gone before the header
    /// is written is still in it, its events being held back.
    private var headerDevices: [Int: InputDevice] = [:]
    /// Event lines held back while the header waits for a tablet's pen, and the screen size
    /// they were measured on.
    private var heldBack: [String] = []
    private var heldBackScreen: ScreenSize?
    /// At most this many lines wait for a pen (a minute of a fast mouse, about a megabyte);
    /// then the header is written without it.
    static let heldBackLimit = 10_000
    private var startTime = 0.0
    public private(set) var eventCount = 0

    public init(session: InputListener, clock: MonotonicClock = MonotonicClock(),
                write: @escaping (String) -> Void, report: @escaping (RecorderEvent) -> Void) {
        self.session = session
        self.clock = clock
        self.write = write
        self.report = report
    }

    /// The devices a recording started now would hold: not touchpads, a kind the trace format
    /// has no word for (its readers know pens, erasers, touchscreens and mice).
    public func devicesToRecord() -> [X11Device] {
        session.catalog.contactSources.filter { $0.inputDevice?.kind != .touchpad && deviceFilter?($0) ?? true }
    }

    public func run(signals: SignalDescriptor?) throws(BridgeSetupError) {
        try session.start()
        let devices = devicesToRecord()
        recorded = Set(devices.map(\.id))
        for device in devices { headerDevices[device.id] = device.inputDevice }
        startTime = clock.now
        report(.started(devices: devices))
        let loop = EventLoop(session: session, signals: signals, clock: clock)
        loop.run(self)
        loop.drainRemaining(self)
        // A contact still down when the recording stops ends as cancelled, so the trace is whole.
        for event in session.cancelAll(at: clock.now) where recorded.contains(event.device) {
            record(event)
        }
        writeHeader()
        report(.finished(events: eventCount))
    }

    /// The header, once, then the lines held back for it.
    private func writeHeader() {
        guard !headerWritten else { return }
        headerWritten = true
        let devices = headerDevices.keys.sorted().compactMap { headerDevices[$0] }
        write(TraceWriter.headerLine(TraceHeader(screen: heldBackScreen ?? session.screen, devices: devices)))
        for line in heldBack { write(line) }
        heldBack = []
    }

    public func stop() {
        stopRequested = true
    }

    /// The header id of the device of the header that went away and that `device` is, the
    /// same in all the header says of it but its id (switched on again keeps the id; plugged
    /// in again takes a new one); nil for any other device. Taken, it is gone no more.
    private func comeBack(_ device: X11Device) -> Int? {
        guard let input = device.inputDevice else { return nil }
        let headerID = gone.keys.sorted().first { id in
            gone[id].map { $0.name == input.name && $0.kind == input.kind && $0.pressure == input.pressure } == true
        }
        if let headerID { gone[headerID] = nil }
        return headerID
    }

    private func record(_ event: ContactEvent) {
        var timed = event
        timed.time = max(0, event.time - startTime)
        timed.device = headerIDs[event.device] ?? event.device
        let line = TraceWriter.eventLine(timed)
        eventCount += 1
        // Only a recording of every device waits for a pen (`--device` names one there already).
        if !headerWritten, deviceFilter == nil, heldBack.count < Self.heldBackLimit, !session.catalog.tabletsAwaitingPen.isEmpty {
            if heldBack.isEmpty {
                heldBackScreen = session.screen
                report(.awaitingPen(session.catalog.tabletsAwaitingPen))
            }
            heldBack.append(line)
            return
        }
        writeHeader()
        write(line)
    }
}

extension Recorder: EventLoopClient {
    func handle(_ changes: [InputChange], at time: Double) {
        for change in changes {
            switch change {
            case .contact(let event):
                if recorded.contains(event.device) { record(event) }
            case .devices(let changes):
                // Another device given its id is not the one in the header: it is recorded only
                // when it is the same (`comeBack`).
                // Gone before the header was written too: it is in the header all the same, and
                // comes back as itself (found in review: a pen switched off before the first
                // contact and on after it was "not recorded").
                for device in changes.removed where recorded.remove(device.id) != nil {
                    let headerID = headerIDs.removeValue(forKey: device.id) ?? device.id
                    gone[headerID] = headerDevices[headerID]
                    report(.deviceRemoved(device))
                }
                let recordable = changes.added.filter { $0.inputDevice?.kind != .touchpad }
                let wanted = recordable.filter { deviceFilter?($0) ?? true }
                for device in wanted where !headerWritten {
                    recorded.insert(device.id)
                    if let headerID = comeBack(device), headerID != device.id {
                        headerIDs[device.id] = headerID
                    } else {
                        headerDevices[device.id] = device.inputDevice
                    }
                    report(.deviceRecorded(device))
                }
                // The pen came: the header need wait no more.
                if !headerWritten, !heldBack.isEmpty, session.catalog.tabletsAwaitingPen.isEmpty { writeHeader() }
                // A device of the header come back under another id is recorded again whatever
                // the filter says of the new id (`record --device ID`).
                for device in recordable where headerWritten && !recorded.contains(device.id) {
                    if let headerID = comeBack(device) {
                        recorded.insert(device.id)
                        skipped.remove(device.id)
                        if headerID != device.id { headerIDs[device.id] = headerID }
                        report(.deviceBack(device, as: headerID))
                    } else if deviceFilter?(device) ?? true, !skipped.contains(device.id) {
                        skipped.insert(device.id)
                        report(.deviceNotRecorded(device))
                    }
                }
            case .screenResized(let size):
                // Lines held back were measured on the size before: the header goes out with it.
                // Before anything is, the header takes the new size.
                if !heldBack.isEmpty { writeHeader() }
                if headerWritten { report(.screenResized(size)) }
            case .monitorsChanged:
                // A trace records root coordinates; monitors do not change them.
                break
            case .grabbedPointer, .grabbedTouch, .takenOver, .anotherButton, .resourcesChanged:
                // A recorder takes no grab and no claim on the display; a trace has no side buttons.
                break
            }
        }
    }

    func fireTimers(at now: Double) -> Bool {
        if let duration, now >= startTime + duration { stopRequested = true }
        return false
    }

    var nextDeadline: Double? { duration.map { startTime + $0 } }
    /// A recording decides nothing: its end takes what came before it as the socket shows it.
    var nextDecidingDeadline: Double? { nil }
    func addLastingDescriptors(to list: inout [Int32]) {}
    func addPassingDescriptors(to list: inout [Int32]) {}
    func descriptorReady(_ descriptor: Int32) {}

    func signalReceived(_ signal: ReceivedSignal) {
        // SIGHUP has no config to reload here; a terminal closing should end the recording whole.
        stopRequested = true
    }

    func xErrors(_ errors: [XProtocolError]) {
        for error in errors { report(.xError(error)) }
    }

    var isStopping: Bool { stopRequested }
    /// Every sample is stamped as it comes, hovering or not.
    var inputLull: InputLull? { nil }
}
