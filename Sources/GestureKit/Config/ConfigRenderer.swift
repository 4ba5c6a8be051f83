/// Writes bindings back as config YAML with every setting spelled out, defaults included:
/// what `print-config` shows. Parsing the text gives the same bindings back.
public enum ConfigRenderer {
    public static func render(_ configuration: BindingSet) -> String {
        typealias Keys = BindingSet.Keys
        typealias LookKeys = FeedbackLook.Keys
        let look = configuration.look
        let feedback = "{\(LookKeys.color.name): \"\(look.hexColor)\", \(LookKeys.size.name): \(look.size.formatted), "
            + "\(LookKeys.duration.name): \(look.duration.formatted)}"
        var lines = ["\(Keys.decisionTimeout.name): \(configuration.decisionTimeout.formatted)",
                     "\(Keys.holdLimit.name): \(configuration.holdLimit.formatted)",
                     "\(Keys.learn.name): \(configuration.learn)",
                     "\(Keys.feedback.name): \(feedback)",
                     "\(Keys.bindings.name):"]
        for binding in configuration.bindings {
            lines += item(binding)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One binding as an item of the `bindings:` list (indented two spaces), every setting
    /// spelled out.
    public static func item(_ binding: Binding) -> [String] {
        var lines: [String] = []
        lines.append("  - name: \(quoted(binding.name))")
        lines.append("    gesture: \(binding.recognizer.kind.rawValue)")
        if !binding.devices.isEmpty {
            lines.append("    devices: [\(binding.devices.map(device).joined(separator: ", "))]")
        }
        lines.append("    pressure: \(binding.pressure.rawValue)")
        switch binding.applications {
        case .everywhere: break
        case .only(let names): lines.append("    applications: {only: [\(names.map(quoted).joined(separator: ", "))]}")
        case .except(let names): lines.append("    applications: {except: [\(names.map(quoted).joined(separator: ", "))]}")
        }
        lines.append("    owns-contact: \(binding.ownsContact)")
        let feedback = FeedbackStyle.allCases.filter(binding.feedback.contains).map(\.rawValue)
        lines.append("    feedback: [\(feedback.isEmpty ? "none" : feedback.joined(separator: ", "))]")
        lines += settings(binding.recognizer).map { "    \($0.key): \($0.value)" }
        if let steps = binding.steps, let keys = binding.recognizer.kind.stepKeys {
            lines.append("    \(keys.step.name): \(steps.step.formatted)")
            if !steps.increase.isEmpty { lines.append("    \(keys.increase.name): \(actions(steps.increase))") }
            if !steps.decrease.isEmpty { lines.append("    \(keys.decrease.name): \(actions(steps.decrease))") }
        }
        typealias Crossings = PressureThresholdsRecognizer.Configuration.Keys
        if !binding.onCrossUp.isEmpty { lines.append("    \(Crossings.up.name): \(actions(binding.onCrossUp))") }
        if !binding.onCrossDown.isEmpty { lines.append("    \(Crossings.down.name): \(actions(binding.onCrossDown))") }
        if !binding.onStart.isEmpty { lines.append("    action: \(actions(binding.onStart))") }
        if !binding.onEnd.isEmpty { lines.append("    on-end: \(actions(binding.onEnd))") }
        return lines
    }

    /// The gesture's own settings, in its schema's order, each by its key's name.
    private static func settings(_ recognizer: RecognizerSettings) -> KeyValuePairs<String, String> {
        switch recognizer {
        case .force(let c):
            return [ForceRecognizer.Configuration.Keys.maximum.name: c.maximum.formatted]
        case .deepPress(let c):
            typealias Keys = DeepPressRecognizer.Configuration.Keys
            // A learning deep press's release and ordinary are where it starts.
            return [Keys.threshold.name: c.learned ? Keys.threshold.word : c.threshold.formatted,
                    Keys.release.name: c.release.formatted, Keys.slop.name: c.slop.formatted,
                    Keys.ordinary.name: c.ordinary.formatted]
        case .squeeze(let c):
            typealias Keys = SqueezeRecognizer.Configuration.Keys
            return [Keys.threshold.name: c.threshold.formatted, Keys.slop.name: c.slop.formatted,
                    Keys.ordinary.name: c.ordinary.formatted]
        case .pressureThresholds(let c):
            typealias Keys = PressureThresholdsRecognizer.Configuration.Keys
            return [Keys.thresholds.name: "[\(c.thresholds.map(\.formatted).joined(separator: ", "))]",
                    Keys.hysteresis.name: c.hysteresis.formatted]
        case .knob(let c):
            typealias Keys = KnobSettings.Keys
            let point = "[\(c.centerX), \(c.centerY)]"
            let center = c.monitor.map { "{monitor: \(quoted($0)), at: \(point)}" } ?? point
            return [Keys.center.name: center, Keys.innerRadius.name: c.innerRadius.formatted,
                    Keys.outerRadius.name: c.outerRadius.formatted, Keys.activation.name: c.activation.formatted]
        case .longPress(let c):
            typealias Keys = LongPressRecognizer.Configuration.Keys
            return [Keys.duration.name: c.duration.formatted, Keys.slop.name: c.slop.formatted]
        }
    }

    private static func device(_ selector: DeviceSelector) -> String {
        switch selector {
        case .kind(let kind): return kind.rawValue
        case .named(let name): return "{name: \(quoted(name))}"
        }
    }

    private static func actions(_ list: [Action]) -> String {
        let rendered = list.map(action)
        return rendered.count == 1 ? rendered[0] : "[" + rendered.joined(separator: ", ") + "]"
    }

    private static func action(_ action: Action) -> String {
        switch action {
        case .click(let button): return "{click: \(button)}"
        case .press(let button): return "{press: \(button)}"
        case .release(let button): return "{release: \(button)}"
        case .scroll(let direction, let steps): return "{scroll: \(direction.rawValue), steps: \(steps)}"
        case .key(let combo): return "{key: \(quoted(combo.description))}"
        case .command(let argv): return "{command: [\(argv.map(quoted).joined(separator: ", "))]}"
        case .volume(let change): return "{volume: \(quoted(change.description))}"
        }
    }

    /// A JSON string is a valid YAML double-quoted scalar.
    static func quoted(_ text: String) -> String { JSONLine.quoted(text) }
}
