import Testing
@testable import GestureKit

/// One recognizer watching one contact, without the engine: for the state machines
/// themselves, including inputs the engine never sends. Forces are already normalized here,
/// as recognizers see them. Advancing the clock past the recognizer's deadline delivers its
/// timeout, at the deadline, as the engine's timers would.
final class RecognizerScript {
    let clock = VirtualClock()
    private(set) var recognizer: any GestureRecognizer
    private(set) var steps: [RecognizerStep] = []
    private var position = Point(x: 0, y: 0)
    private var force: Double?

    init(_ recognizer: any GestureRecognizer) {
        self.recognizer = recognizer
        clock.onAdvance = { [weak self] time in self?.expireDeadline(until: time) }
    }

    /// The recognizer a binding with these settings gives each contact.
    convenience init(_ settings: RecognizerSettings, screen: ScreenSize = .fallback) {
        self.init(settings.makeRecognizer(screen: screen))
    }

    func down(at spot: Spot, force: Double? = nil) {
        position = Point(spot)
        self.force = force
        handle(.down(sample))
    }

    func move(to spot: Spot) {
        position = Point(spot)
        handle(.move(sample))
    }

    func move(to spot: Spot, force: Double?) {
        self.force = force
        move(to: spot)
    }

    func press(to force: Double?) {
        self.force = force
        handle(.move(sample))
    }

    /// Lets a frame (`VirtualClock.frame`) pass on the script's clock: what the device does
    /// next, it does a frame after its last sample (`pen.aFrameLater().lift()`).
    @discardableResult
    func aFrameLater() -> Self {
        clock.advance(by: VirtualClock.frame)
        return self
    }

    /// Presses to each force in turn, a frame (`VirtualClock.frame`) after the sample before.
    func press(frameByFrame forces: Double...) {
        for force in forces {
            clock.advance(by: VirtualClock.frame)
            press(to: force)
        }
    }

    func lift() {
        handle(.up(sample))
    }

    func cancel() {
        handle(.cancel(sample))
    }

    /// A timeout now, whether or not the recognizer asked for one.
    func timeout() {
        handle(.timeout(at: clock.now))
    }

    private var sample: ContactSample { ContactSample(time: clock.now, position: position, force: force) }

    private func handle(_ input: RecognizerInput) {
        steps.append(recognizer.handle(input))
    }

    private func expireDeadline(until time: Double) {
        // A deadline that survives its own timeout would be a recognizer bug; fire it once.
        var fired: Double?
        while let deadline = recognizer.deadline, deadline <= time, deadline != fired {
            fired = deadline
            handle(.timeout(at: deadline))
        }
    }

    // MARK: What happened

    var reports: [GestureReport] { steps.flatMap(\.reports) }
    var states: [GestureState] { reports.map(\.state) }
    var bugs: [String] { steps.compactMap(\.bug) }
    var crossings: [ThresholdCrossing] { reports.compactMap(\.crossing) }
    var knobReadings: [KnobReading] { reports.compactMap(\.knob) }
    var forces: [Double?] { reports.map(\.force) }
    /// The reports of the last input alone.
    var lastReports: [GestureReport] { steps.last?.reports ?? [] }
}
