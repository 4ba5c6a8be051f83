/// Turns engine outputs into the lines `replay` and `run` print: the trace-format contract's
/// JSON objects with `--json`, readable columns otherwise. Live and replay share it, so a
/// recorded trace replays to the same lines the live bridge logged.
public struct OutputFormatter: Sendable {
    public enum Style: Sendable {
        case json
        case human
    }

    public var style: Style
    /// Device kinds by id, for the human-readable lines.
    public var deviceNames: [Int: String]
    /// Whether readable lines include every `changed` report of a continuous gesture (a
    /// knob's angle, a force: up to one line a sample, a flood at 1000 Hz) and every gesture
    /// that failed to begin (two an ordinary tap), or only changes that cross a threshold and
    /// no failures. JSON lines always include every report: that is the contract.
    public var showsEveryChange = true

    public init(style: Style, devices: [InputDevice] = []) {
        self.style = style
        self.deviceNames = Dictionary(devices.map { ($0.id, "\($0.kind.rawValue) \($0.id)") }, uniquingKeysWith: { a, _ in a })
    }

    /// The line for a gesture, an action or a held contact's decision; nil for outputs the
    /// contract does not print (feedback and bugs are logged separately). Readable lines show
    /// decisions only with every change (`run --verbose`, `replay`).
    public func line(for output: EngineOutput) -> String? {
        switch output {
        case .gesture(let event):
            if style == .json { return Self.json(event) }
            if !showsEveryChange, event.report.state == .changed, event.report.crossing == nil { return nil }
            // A gesture that never began is every ordinary tap's lot (the knob away from its ring,
            // the deep press never pressed): said with every change only, or it reads as broken.
            if !showsEveryChange, event.report.state == .failed { return nil }
            return human(event)
        case .action(let event):
            return style == .json ? Self.json(event) : Self.human(event)
        case .decision(let decision):
            return style == .json || showsEveryChange ? line(for: decision) : nil
        case .learned(let change):
            return style == .json ? Self.json(change) : Self.human(change)
        case .feedback, .bug:
            return nil
        }
    }

    /// The line for a held contact's decision: kept for a gesture, or handed to the
    /// application and why, with how long it was held. Nil for a contact no owning gesture
    /// listened to: it was never held.
    public func line(for decision: ContactDecision) -> String? {
        if case .release(_, .unbound, _, _) = decision { return nil }
        let held = decision.held
        if style == .json { return Self.json(decision) }
        var text = "\(Self.time(decision.time))  "
        text += "\(deviceNames[decision.key.device] ?? "device \(decision.key.device)") #\(decision.key.contact) "
        switch decision {
        case .claim(_, let gesture, _, _):
            text += "kept for \(gesture) after \(Self.fixed(held, 3)) s"
        case .release(_, let reason, _, _):
            text += "handed to the application after \(Self.fixed(held, 3)) s: \(Self.explanation(reason))"
        }
        return text
    }

    /// A change of a device's learned deep-press levels (docs/trace-format.md, `learned`).
    public static func json(_ change: LearnedChange) -> String {
        JSONLineEncoder.line(LearnedLine(change))
    }

    private static func human(_ change: LearnedChange) -> String {
        let levels = change.levels
        return "\(time(change.time))  \(change.device): learned threshold \(fixed(levels.threshold, 3)) (was "
            + "\(fixed(change.previous.threshold, 3))), release \(fixed(levels.release, 3)), ordinary "
            + "\(fixed(levels.ordinary, 3)), from \(change.ordinaryContacts) ordinary contacts and "
            + "\(change.deliberatePresses) deliberate presses"
    }

    public static func json(_ decision: ContactDecision) -> String {
        JSONLineEncoder.line(DecisionLine(decision))
    }

    private static func explanation(_ reason: ReleaseReason) -> String {
        switch reason {
        case .unbound: return "no owning gesture listens to this device"
        case .failed: return "no gesture can begin any more (it moved past the slop, or began outside a knob's ring)"
        case .timeout: return "the decision timeout passed and its force had said nothing"
        case .levelledOff: return "its force levelled off at an ordinary level"
        case .limit: return "the hold limit passed"
        case .ended: return "it lifted first"
        case .anotherButton: return "another button of its device, or another program's grab, had it (a side button, a menu, a game, a screen locker)"
        case .anotherFinger: return "another finger touched the screen beside it"
        case .penDown: return "it touched while the pen was down (a palm)"
        case .penNear: return "it touched while a pen hovered (a palm)"
        }
    }

    public static func json(_ event: GestureEvent) -> String {
        JSONLineEncoder.line(GestureLine(event))
    }

    public static func json(_ event: ActionEvent) -> String {
        JSONLineEncoder.line(ActionLine(event))
    }

    private func human(_ event: GestureEvent) -> String {
        let report = event.report
        var text = "\(Self.time(report.time))  \(Self.pad(event.gesture, 18)) \(Self.pad(event.recognizer.rawValue, 19)) "
        text += "\(Self.pad(report.state.rawValue, 10)) "
        text += "\(deviceNames[event.device] ?? "device \(event.device)") #\(event.contact) at \(Self.point(report.position))"
        if let force = report.force { text += "  force \(Self.fixed(force, 3))" }
        if let crossing = report.crossing { text += "  threshold \(crossing.index) \(crossing.direction.rawValue)" }
        if let knob = report.knob {
            text += "  angle \(Self.fixed(knob.angle * 180 / .pi, 1))°  rotation \(Self.fixed(knob.rotation * 180 / .pi, 1))°"
            text += "  distance \(Self.fixed(knob.distance, 1))"
        }
        return text
    }

    private static func human(_ event: ActionEvent) -> String {
        "\(time(event.time))  \(pad(event.gesture, 18)) → \(event.action) at \(point(event.position))"
    }

    static func time(_ seconds: Double) -> String {
        let text = fixed(seconds, 3)
        return String(repeating: " ", count: max(0, 9 - text.count)) + text
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    static func point(_ point: Point) -> String {
        "(\(fixed(point.x, 1).trimmedZeros), \(fixed(point.y, 1).trimmedZeros))"
    }

    /// `value` with exactly `digits` decimals, without Foundation's locale-dependent formatting.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        // Past what an Int holds (a trace may say any finite number): as Swift writes it.
        guard value.isFinite, scaled < 9e18 else { return String(value) }
        let whole = Int(scaled / scale)
        let fraction = Int(scaled - Double(whole) * scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard digits > 0 else { return sign + String(whole) }
        let fractionText = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
    }
}

extension String {
    var trimmedZeros: String {
        // The bytes, not `contains(".")`: that resolves to Foundation's locale-aware substring
        // search, a large share of the bridge's time while a knob turns (BENCHMARKS.md).
        guard utf8.contains(UInt8(ascii: ".")) else { return self }
        var text = self
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
