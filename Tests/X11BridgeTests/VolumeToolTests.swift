import GestureKit
import Testing
@testable import X11Bridge

@Suite("What the volume tools are told and how their answers read")
struct VolumeToolTests {
    @Test("wpctl's level, muted or not; pactl's loudest channel; nothing from an answer without one")
    func readsLevels() {
        #expect(VolumeTool.wpctl.level(in: "Volume: 0.40\n") == 0.4)
        #expect(VolumeTool.wpctl.level(in: "Volume: 1.25 [MUTED]\n") == 1.25)
        let unbalanced = "Volume: front-left: 62259 /  95% / -1.34 dB,   front-right: 65536 / 100% / 0.00 dB\n        balance 0.05\n"
        #expect(VolumeTool.pactl.level(in: unbalanced) == 1)
        #expect(VolumeTool.pactl.level(in: "Volume: mono: 26214 /  40% / -23.88 dB\n") == 26214.0 / 65536)
        #expect(VolumeTool.wpctl.muted(in: "Volume: 1.25 [MUTED]\n") == true)
        #expect(VolumeTool.wpctl.muted(in: "Volume: 0.40\n") == false)
        #expect(VolumeTool.pactl.muted(in: unbalanced) == nil, "pactl's level does not say")
        for garbage in ["", "Could not connect to PipeWire", "Translate ID error: '-1' is not a valid ID (returned by default-nodes-api)", "Volume: loud", "Volume: -0.5", "balance 0.00"] {
            #expect(VolumeTool.wpctl.level(in: garbage) == nil, "\(garbage)")
            #expect(VolumeTool.pactl.level(in: garbage) == nil, "\(garbage)")
        }
    }

    @Test("steps are clamped between silence and 100%, and a level already past 100% only comes down")
    func clamps() {
        #expect(shift(VolumeCommand(.adjust(percent: 5), from: 0.5)).map { abs($0 - 0.05) < 1e-9 } == true)
        #expect(shift(VolumeCommand(.adjust(percent: 5), from: 0.97)).map { abs($0 - 0.03) < 1e-9 } == true)
        #expect(VolumeCommand(.adjust(percent: 5), from: 1) == nil, "at 100% a raise changes nothing")
        #expect(VolumeCommand(.adjust(percent: 5), from: 1.2) == nil, "past 100% a raise changes nothing")
        #expect(shift(VolumeCommand(.adjust(percent: -5), from: 1.2)).map { abs($0 + 0.05) < 1e-9 } == true)
        #expect(shift(VolumeCommand(.adjust(percent: -5), from: 0.03)).map { abs($0 + 0.03) < 1e-9 } == true)
        #expect(VolumeCommand(.adjust(percent: -5), from: 0) == nil)
        #expect(VolumeCommand.steps([5, 5, 5, 5, -5, -5], from: 0.9) == nil, "each step stops at 100% as it would alone")
        #expect(shift(VolumeCommand.steps([5, 5, 5, -5, -5, -5], from: 0.9)).map { abs($0 + 0.05) < 1e-9 } == true)
        #expect(shift(VolumeCommand.steps([-5, -5, 5], from: 0.07)).map { abs($0 + 0.02) < 1e-9 } == true, "and at silence")
        #expect(shift(VolumeCommand.steps([-5, 5, 5], from: 1.2)).map { abs($0 + 0.05) < 1e-9 } == true,
                "past 100% a step down is made, and the steps up after it raise nothing")
        #expect(VolumeCommand(.set(percent: 40), from: 0.9) == .level(0.4))
        #expect(VolumeCommand(.toggleMute, from: 0.5) == .mute("toggle"))
        #expect(VolumeChange.adjust(percent: 5).raises, "a raise unmutes, even at 100%, where it changes no level")
        #expect(!VolumeChange.adjust(percent: -5).raises)
        #expect(VolumeChange.set(percent: 40).raises, "a level set is to be heard")
        #expect(!VolumeChange.set(percent: 0).raises)
        #expect(!VolumeChange.toggleMute.raises)
    }

    @Test("pactl moves every channel by raw units after `--`, so a step down is not read as an option")
    func pactlArguments() {
        #expect(VolumeTool.pactl.arguments(for: .shift(-0.05), level: 0.5)
                == ["pactl", "--", "set-sink-volume", "@DEFAULT_SINK@", "-3277"])
        #expect(VolumeTool.pactl.arguments(for: .shift(0.03), level: 0.97)
                == ["pactl", "--", "set-sink-volume", "@DEFAULT_SINK@", "+1966"])
        #expect(VolumeTool.wpctl.arguments(for: .shift(0.05), level: 0.95) == ["wpctl", "set-volume", "@DEFAULT_AUDIO_SINK@", "1.0000"])
        #expect(VolumeTool.wpctl.arguments(for: .level(0.4), level: nil) == ["wpctl", "set-volume", "@DEFAULT_AUDIO_SINK@", "0.4000"])
    }

    private func shift(_ command: VolumeCommand?) -> Double? {
        if case .shift(let value) = command { return value }
        return nil
    }
}
