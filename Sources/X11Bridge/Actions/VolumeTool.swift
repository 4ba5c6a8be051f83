import GestureKit

/// The command-line tools that change the default sound output's volume, what each is told
/// and how its answer reads.
///
/// Tried in the order of the cases: pactl moves every channel by the same amount, keeping the
/// balance a person set; wpctl sets every channel alike. So pactl comes first where it answers
/// (PulseAudio, and PipeWire's PulseAudio layer), wpctl where it does not (PipeWire alone).
public enum VolumeTool: String, Sendable, Hashable, CaseIterable {
    /// PulseAudio's tool; PipeWire's PulseAudio layer answers it too.
    case pactl
    /// WirePlumber's tool, for PipeWire.
    case wpctl

    /// Reads the default output's level.
    var readArguments: [String] {
        switch self {
        case .wpctl: return ["wpctl", "get-volume", "@DEFAULT_AUDIO_SINK@"]
        case .pactl: return ["pactl", "get-sink-volume", "@DEFAULT_SINK@"]
        }
    }

    /// Makes `command` on the default output, whose level was last read as `level`.
    func arguments(for command: VolumeCommand, level: Double?) -> [String] {
        switch (self, command) {
        case (.wpctl, .shift(let shift)):
            return ["wpctl", "set-volume", "@DEFAULT_AUDIO_SINK@", Self.decimal(max(0, (level ?? 0) + shift))]
        case (.wpctl, .level(let value)):
            return ["wpctl", "set-volume", "@DEFAULT_AUDIO_SINK@", Self.decimal(value)]
        case (.wpctl, .mute(let word)):
            return ["wpctl", "set-mute", "@DEFAULT_AUDIO_SINK@", word]
        case (.pactl, .shift(let shift)):
            // Raw units, relative: every channel moves by the same amount, so the balance stays.
            // The level read is a whole raw number and the ceiling too, so rounding cannot pass it.
            let raw = Int((shift * VolumeCommand.pulseNormal).rounded())
            return ["pactl", "--", "set-sink-volume", "@DEFAULT_SINK@", raw < 0 ? "\(raw)" : "+\(raw)"]
        case (.pactl, .level(let value)):
            return ["pactl", "--", "set-sink-volume", "@DEFAULT_SINK@", "\(Int((value * VolumeCommand.pulseNormal).rounded()))"]
        case (.pactl, .mute(let word)):
            return ["pactl", "set-sink-mute", "@DEFAULT_SINK@", word]
        }
    }

    /// The level in the tool's answer to `readArguments`: wpctl's `Volume: 0.40 [MUTED]`, or
    /// pactl's loudest channel in `Volume: front-left: 26214 /  40% / -23.88 dB,   front-right: ...`.
    /// nil for anything else: wpctl exits 0 even when it found no default output to read.
    func level(in text: String) -> Double? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "," }).map(String.init)
        switch self {
        case .wpctl:
            guard let index = words.firstIndex(of: "Volume:"), index + 1 < words.count,
                  let value = Double(words[index + 1]), value.isFinite, value >= 0 else { return nil }
            return value
        case .pactl:
            var loudest: Double?
            for index in words.indices.dropFirst() where words[index] == "/" {
                guard let raw = Int(words[index - 1]), raw >= 0, index + 1 < words.count,
                      words[index + 1].hasSuffix("%") else { continue }
                loudest = max(loudest ?? 0, Double(raw) / VolumeCommand.pulseNormal)
            }
            return loudest
        }
    }

    /// Whether the tool's answer to `readArguments` says the output is muted: wpctl's
    /// `[MUTED]`; nil when the answer does not tell (pactl's, which gives the level alone).
    func muted(in text: String) -> Bool? {
        switch self {
        case .wpctl: return text.contains("[MUTED]")
        case .pactl: return nil
        }
    }

    /// A level as wpctl takes it: a plain decimal, 4 places, rounded down.
    private static func decimal(_ value: Double) -> String {
        let tenThousandths = Int((max(0, value) * 10000 + 1e-6).rounded(.down))
        let fractional = String(tenThousandths % 10000)
        return "\(tenThousandths / 10000).\(String(repeating: "0", count: 4 - fractional.count))\(fractional)"
    }
}

/// A volume change as one run of a tool makes it, worked out from the level read just before.
enum VolumeCommand: Equatable {
    /// By this fraction of full volume, up or down, every channel alike.
    case shift(Double)
    /// To this level, every channel.
    case level(Double)
    /// `1`, `0` or `toggle`.
    case mute(String)

    /// The level no change goes above: 100%, no overdrive.
    static let ceiling = 1.0

    /// PulseAudio's raw volume for 100%.
    static let pulseNormal = 65536.0

    /// `change` made from `level`: an adjustment clamped so it ends within 0...100% (a level
    /// already above 100% is not raised further); nil when it would change nothing.
    init?(_ change: VolumeChange, from level: Double) {
        switch change {
        case .adjust(let percent):
            guard let command = Self.steps([percent], from: level) else { return nil }
            self = command
        case .set(let percent):
            self = .level(Double(percent) / 100)
        case .mute:
            self = .mute("1")
        case .unmute:
            self = .mute("0")
        case .toggleMute:
            self = .mute("toggle")
        }
    }

    /// Adjustments by `percents` made one after another from `level` as one shift, each
    /// clamped as it would be alone: at 90%, four +5% and two -5% end at 90%, where their sum
    /// clamped once would end at 100%. nil when they change nothing.
    static func steps(_ percents: [Int], from level: Double) -> VolumeCommand? {
        let target = percents.reduce(level) { level, percent in
            let wanted = level + Double(percent) / 100
            return percent > 0 ? max(level, min(ceiling, wanted)) : max(0, wanted)
        }
        let shift = target - level
        guard abs(shift) >= 1 / pulseNormal else { return nil }
        return .shift(shift)
    }
}

extension VolumeChange {
    /// Whether it turns the output up, or sets a level to be heard: a muted output is unmuted
    /// first, as a desktop's volume-up key does, even at 100%, where the level goes no higher.
    var raises: Bool {
        switch self {
        case .adjust(let percent), .set(let percent): return percent > 0
        case .mute, .unmute, .toggleMute: return false
        }
    }
}
