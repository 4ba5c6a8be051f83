import Glibc
import GestureKit

/// What a calibration run tells the command as it goes.
public enum CalibrationRunEvent: Sendable {
    /// Listening to the device; the session is at its first step.
    case started(X11Device)
    case session(CalibrationSession.Event)
    /// The device went away: the calibration cannot go on.
    case deviceRemoved
    case xError(XProtocolError)
}

/// How a calibration run ended.
public enum CalibrationOutcome: Sendable {
    /// Both steps done: the peaks are in the session.
    case finished(CalibrationSession)
    /// Stopped by a signal (Ctrl-C is SIGINT) before the end.
    case interrupted(signal: Int32)
    /// The device went away before the end.
    case deviceLost
    /// The X server went away before the end (a logout, a crash): `message` says which.
    case serverLost(message: String)
}

/// Listens to one pressure device while a person makes ordinary contacts, then hard presses
/// (`CalibrationSession`), showing the live force ring where the contact is. It only listens:
/// no grab, so the application under the pen still gets every stroke. A line on `input` (the
/// terminal: Enter) finishes the current step early.
public final class CalibrationRun {
    public let session: InputListener
    private let device: X11Device
    private var calibration: CalibrationSession
    private let overlay: FeedbackOverlay?
    /// The terminal, read for Enter; nil once it is closed.
    private var input: Int32?
    private let report: (CalibrationRunEvent) -> Void
    private var outcome: CalibrationOutcome?
    /// Shown each of the device's contact events before the session takes it (`calibrate
    /// --plot` draws them).
    public var observe: ((ContactEvent) -> Void)?

    /// Nil when `device` has no pressure axis.
    public init?(session: InputListener, device: X11Device, ordinary: Int, hard: Int, overlay: FeedbackOverlay?,
                 input: Int32?, report: @escaping (CalibrationRunEvent) -> Void) {
        guard let inputDevice = device.inputDevice,
              let calibration = CalibrationSession(device: inputDevice, ordinary: ordinary, hard: hard) else { return nil }
        self.session = session
        self.device = device
        self.calibration = calibration
        self.overlay = overlay
        self.input = input
        self.report = report
    }

    public func run(signals: SignalDescriptor?) throws(BridgeSetupError) -> CalibrationOutcome {
        session.hearsResourceChanges = overlay != nil
        try session.start()
        report(.started(device))
        let loop = EventLoop(session: session, signals: signals, clock: MonotonicClock())
        loop.run(self)
        // Whatever ended it, no ring stays on the screen.
        for key in session.source.activeContacts where key.device == device.id {
            overlay?.show(.progressEnded(key), now: 0)
        }
        // The loop ends on its own only when the connection is lost: both steps done, a
        // signal and the device's removal each set the outcome.
        return outcome ?? .serverLost(message: session.connection.loss.message)
    }

    private func handle(_ event: ContactEvent) {
        guard event.device == device.id else { return }
        observe?(event)
        let key = ContactKey(device: event.device, contact: event.contact)
        switch event.phase {
        case .begin, .move:
            if let force = calibration.force(of: event) {
                overlay?.show(.progress(key, at: event.position, fraction: force), now: event.time)
            }
        case .end, .cancel:
            overlay?.show(.progressEnded(key), now: event.time)
        case .hover:
            break
        }
        for step in calibration.handle(event) { report(.session(step)) }
        if calibration.step == .done { outcome = .finished(calibration) }
    }

    /// Reads what the terminal sent: each line ends the current step.
    private func readInput(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else {
            // End of input (or an error): nothing more will come from it; stop asking.
            if count == 0 || (errno != EAGAIN && errno != EINTR) { input = nil }
            return
        }
        for byte in buffer.prefix(count) where byte == UInt8(ascii: "\n") {
            for step in calibration.finishStep() { report(.session(step)) }
        }
        if calibration.step == .done { outcome = .finished(calibration) }
    }
}

extension CalibrationRun: EventLoopClient {
    func handle(_ changes: [InputChange], at time: Double) {
        for change in changes {
            switch change {
            case .contact(let event):
                handle(event)
            case .devices(let changes):
                if changes.removed.contains(where: { $0.id == device.id }) {
                    report(.deviceRemoved)
                    outcome = .deviceLost
                }
            case .screenResized, .monitorsChanged:
                overlay?.screenChanged(session.screen, monitors: session.monitors)
            case .resourcesChanged:
                overlay?.resourcesChanged()
            case .grabbedPointer, .grabbedTouch, .takenOver, .anotherButton:
                // Calibration holds no claim on the display: it runs beside a bridge.
                break
            }
        }
    }

    func fireTimers(at now: Double) -> Bool {
        if let overlay, let deadline = overlay.nextDeadline, deadline <= now { overlay.tick(now: now) }
        return false
    }

    var nextDeadline: Double? { overlay?.nextDeadline }
    /// Only the overlay's frames: nothing decided by a timer.
    var nextDecidingDeadline: Double? { nil }

    func addLastingDescriptors(to list: inout [Int32]) {
        if let input { list.append(input) }
    }

    func addPassingDescriptors(to list: inout [Int32]) {}

    func descriptorReady(_ descriptor: Int32) {
        if descriptor == input { readInput(descriptor) }
    }

    func signalReceived(_ signal: ReceivedSignal) {
        outcome = .interrupted(signal: signal.number)
    }

    func xErrors(_ errors: [XProtocolError]) {
        for error in errors { report(.xError(error)) }
    }

    var isStopping: Bool { outcome != nil }
    var inputLull: InputLull? { nil }
}
