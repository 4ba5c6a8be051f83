/// Which virtual device a step uses.
public enum ChaosDevice: String, Codable, Sendable, CaseIterable {
    case pen
    case touch

    /// The device's name on the headless Xorg, for `xinput`.
    public var serverName: String {
        switch self {
        case .pen: "test-pen"
        case .touch: "test-touch"
        }
    }
}

/// How a deep press ends.
public enum ChaosLift: String, Codable, Sendable {
    /// The force eases back through 0.6, 0.4 and 0.2 before the lift.
    case soft
    /// The contact lifts straight from its peak.
    case abrupt
}

/// Something done to the bridge while a deep press is down.
public enum ChaosDisturbance: String, Codable, Sendable {
    /// A SIGHUP while the force climbs toward the threshold.
    case reloadBeforeThreshold
    /// A SIGHUP once the force is past the threshold.
    case reloadAfterThreshold
}

/// A point on the screen, in pixels.
public struct ChaosPoint: Codable, Sendable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public var description: String { "(\(Int(x)), \(Int(y)))" }
}

/// One thing a person (or the desktop) does during an episode, with every number it needs, so
/// that a plan written to a file plays again exactly.
public enum ChaosStep: Codable, Sendable, Hashable, CustomStringConvertible {
    /// Down at a light force and up: a plain click.
    case tap(ChaosDevice, at: ChaosPoint)
    /// The force climbs to `peak` in `samples` steps `interval` seconds apart, stays `hold`
    /// seconds, then lifts as `lift` says; `disturbance` happens on the way.
    case deepPress(ChaosDevice, at: ChaosPoint, samples: Int, interval: Double, peak: Double, hold: Double,
                   lift: ChaosLift, disturbance: ChaosDisturbance?)
    /// Down lightly and moved `by` in `steps` steps: a drag the application gets.
    case drag(ChaosDevice, from: ChaosPoint, by: ChaosPoint, steps: Int)
    /// A light press held still at `force` for `duration` seconds: handed to the application.
    case hold(ChaosDevice, at: ChaosPoint, force: Double, duration: Double)
    /// Down on the volume knob's ring and turned clockwise by `degrees`.
    case knob(ChaosDevice, degrees: Double)
    /// Two fingers down lightly, moved a little, lifted.
    case twoFingers(at: ChaosPoint)
    /// A pen deep press with a light touch tap in the middle of it.
    case penAndTouch(at: ChaosPoint)
    /// The pen hovers at the point between strokes; a palm of `contacts` touches lands beside
    /// it (leaning past the threshold when `lean`) as the pen hovers on; the pen then presses
    /// deep and lifts, and the palm lifts. Not drawn (`ChaosEpisode`) while the stuck button it
    /// found about once in forty such steps stands (README, known limits): a plan plays it
    /// (`--plan`, as seed 139 episode 3's in `PenAndTouchTests.palmLiftedWithThePen`).
    case palmWhilePenHovers(at: ChaosPoint, contacts: Int, lean: Bool)
    /// The device disabled and enabled again while nothing is down.
    case replug(ChaosDevice)
    /// The device disabled while it presses (past the threshold when `deep`), then enabled.
    case replugMidPress(ChaosDevice, at: ChaosPoint, deep: Bool)
    /// `count` taps with no pause between them.
    case burst(ChaosDevice, at: ChaosPoint, count: Int)
    /// `count` clicks of the plain mouse (on a server with one), at a person's pace.
    case mouseClicks(count: Int)
    /// The mouse's button held while it moves `by` in `steps` steps.
    case mouseDrag(by: ChaosPoint, steps: Int)
    /// The mouse clicked while the pen presses lightly, held back by the bridge; the pen then
    /// presses on past the threshold (`deep`) or lifts.
    case mouseDuringPenPress(at: ChaosPoint, deep: Bool)
    /// The mouse's right button or wheel (`button` 3 or 4) clicked while the pen presses lightly,
    /// held back by the bridge; the pen then presses on past the threshold (`deep`) or lifts.
    /// Without the bridge the application gets both clicks: it must with it too.
    case mouseButtonDuringPenPress(at: ChaosPoint, button: Int32, deep: Bool)

    public var description: String {
        switch self {
        case .tap(let device, let point): "\(device) tap at \(point)"
        case .deepPress(let device, let point, let samples, let interval, let peak, let hold, let lift, let disturbance):
            "\(device) deep press at \(point): \(samples) samples \(Int(interval * 1000)) ms apart to \(peak), held \(Int(hold * 1000)) ms, \(lift) lift"
                + (disturbance.map { ", \($0)" } ?? "")
        case .drag(let device, let from, let by, let steps): "\(device) drag from \(from) by \(by) in \(steps) steps"
        case .hold(let device, let point, let force, let duration): "\(device) held still at \(point), force \(force), \(Int(duration * 1000)) ms"
        case .knob(let device, let degrees): "\(device) knob turned \(Int(degrees))°"
        case .twoFingers(let point): "two fingers at \(point)"
        case .penAndTouch(let point): "pen deep press at \(point) with a touch tap during it"
        case .palmWhilePenHovers(let point, let contacts, let lean):
            "pen hovering at \(point), a palm of \(contacts) touch\(contacts == 1 ? "" : "es") beside it\(lean ? " leaning hard" : ""), then the pen's deep press"
        case .replug(let device): "\(device) disabled and enabled, idle"
        case .replugMidPress(let device, let point, let deep): "\(device) disabled and enabled mid-press at \(point)\(deep ? ", past the threshold" : "")"
        case .burst(let device, let point, let count): "\(count) \(device) taps near \(point) with no pause"
        case .mouseClicks(let count): "\(count) mouse click\(count == 1 ? "" : "s")"
        case .mouseDrag(let by, let steps): "mouse drag by \(by) in \(steps) steps"
        case .mouseDuringPenPress(let point, let deep): "mouse click while the pen presses at \(point)\(deep ? ", then deep" : ", then lifts")"
        case .mouseButtonDuringPenPress(let point, let button, let deep):
            "mouse button \(button) clicked while the pen presses at \(point)\(deep ? ", then deep" : ", then lifts")"
        }
    }

    /// The device the step disables and enables, if any: the inputtest driver takes no new
    /// connection from the same client afterwards, so the rest of the episode leaves it alone.
    var replugged: ChaosDevice? {
        switch self {
        case .replug(let device), .replugMidPress(let device, _, _): device
        default: nil
        }
    }

    /// The devices the step uses.
    var devices: Set<ChaosDevice> {
        switch self {
        case .tap(let device, _), .deepPress(let device, _, _, _, _, _, _, _), .drag(let device, _, _, _),
             .hold(let device, _, _, _), .knob(let device, _), .replug(let device), .replugMidPress(let device, _, _),
             .burst(let device, _, _):
            [device]
        case .twoFingers: [.touch]
        case .penAndTouch, .palmWhilePenHovers: [.pen, .touch]
        case .mouseDuringPenPress, .mouseButtonDuringPenPress: [.pen]
        case .mouseClicks, .mouseDrag: []
        }
    }

    /// Whether a finger makes this step's gesture while the pen may still hover, the last step
    /// before it with the pen or a finger (`earlier`, in order) having used the pen: the pen is
    /// laid aside first. A mouse's step between leaves the pen where it was: after a pen's tap
    /// and a mouse drag, a finger's deep press came 0.2 s after the pen's last hovering sample,
    /// and was taken for a palm (seed 144 with a mouse, episode 20). (In `penAndTouch` the
    /// finger taps while the pen is down, and `palmWhilePenHovers` is a palm beside the pen, as
    /// one hand writes.)
    func handsOverFromThePen(after earlier: ArraySlice<ChaosStep>) -> Bool {
        let previous = earlier.last { !$0.devices.isDisjoint(with: [.pen, .touch]) }
        guard let previous, previous.devices.contains(.pen), devices.contains(.touch) else { return false }
        switch self {
        case .penAndTouch, .palmWhilePenHovers: return false
        default: return true
        }
    }

    /// Whether the step needs the plain mouse (`HeadlessXorg(mouse:)`).
    public var usesMouse: Bool {
        switch self {
        case .mouseClicks, .mouseDrag, .mouseDuringPenPress, .mouseButtonDuringPenPress: true
        // Every case named: a new mouse step left out here played on a server without a mouse.
        case .tap, .deepPress, .drag, .hold, .knob, .twoFingers, .penAndTouch, .palmWhilePenHovers, .replug, .replugMidPress,
             .burst: false
        }
    }
}
