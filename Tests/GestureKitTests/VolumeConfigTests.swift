import Testing
@testable import GestureKit

@Suite("Config: the volume action")
struct VolumeConfigTests {
    func knob(_ body: String) -> String {
        "bindings:\n  - name: volume\n    gesture: knob\n    center: [-150, 150]\n" + body
    }

    @Test("volume changes by a step, to a level, or mutes")
    func forms() throws {
        let config = try ConfigLoader.parse(knob("""
                clockwise: {volume: +5%}
                counterclockwise: {volume: -5%}
                action: [{volume: 40%}, {volume: mute}, {volume: unmute}, {volume: mute-toggle}, {volume: 0%}, {volume: 100%}]

            """), file: "t.yaml")
        let binding = config.bindings[0]
        #expect(binding.steps?.increase == [.volume(.adjust(percent: 5))])
        #expect(binding.steps?.decrease == [.volume(.adjust(percent: -5))])
        #expect(binding.onStart == [.volume(.set(percent: 40)), .volume(.mute), .volume(.unmute), .volume(.toggleMute),
                                    .volume(.set(percent: 0)), .volume(.set(percent: 100))])
    }

    @Test("a knob that turns the volume shows the level on its ring unless told otherwise")
    func ringByDefault() throws {
        let turning = try ConfigLoader.parse(knob("    clockwise: {volume: +5%}\n"), file: "t")
        #expect(turning.bindings[0].feedback == [.ring])
        let quiet = try ConfigLoader.parse(knob("    clockwise: {volume: +5%}\n    feedback: [none]\n"), file: "t")
        #expect(quiet.bindings[0].feedback.isEmpty)
        let keys = try ConfigLoader.parse(knob("    clockwise: {key: XF86AudioRaiseVolume}\n"), file: "t")
        #expect(keys.bindings[0].feedback.isEmpty, "a knob sending keys knows no level to show")
    }

    @Test("a wrong volume is reported where it is, with what would be right")
    func errors() {
        let word = problems(knob("    clockwise: {volume: mtue}\n"))
        #expect(word.count == 1)
        #expect(word.first?.line == 5 && word.first?.column == 25)
        #expect(word.first?.message.contains("`volume` must be a change like +5% or -5%") == true)
        #expect(word.first?.message.contains("did you mean `mute`") == true)

        let bare = problems(knob("    clockwise: {volume: +5}\n"))
        #expect(bare.first?.message.contains("did you mean `+5%`") == true)
        let unsigned = problems(knob("    clockwise: {volume: 5}\n"))
        #expect(unsigned.first?.message.contains("`+5%` to raise it by 5, or `5%` to set the level") == true)

        for wrong in ["+150%", "-0%", "101%", "+%", "5.5%", "[+5%]", "{up: 5}", "++5%"] {
            let issues = problems(knob("    clockwise: {volume: \(wrong)}\n"))
            #expect(issues.count == 1, "\(wrong) was accepted")
            #expect(issues.first?.line == 5, "\(wrong)")
        }
        let two = problems(knob("    clockwise: {volume: +5%, key: ctrl+z}\n"))
        #expect(two.first?.message.contains("found key and volume") == true)
        let steps = problems(knob("    clockwise: {volume: +5%, steps: 2}\n"))
        #expect(steps.first?.message.contains("`steps` goes with `scroll` only") == true)
    }

    @Test("each volume change is spelt back as it is read")
    func spelling() {
        for text in ["+5%", "-5%", "+100%", "-100%", "0%", "40%", "100%", "mute", "unmute", "mute-toggle"] {
            #expect(VolumeChange(parsing: text)?.description == text)
        }
        #expect(VolumeChange(parsing: " Mute ") == .mute)
        #expect(Action.volume(.adjust(percent: -5)).description == "change the volume by -5%")
        #expect(Action.volume(.set(percent: 40)).description == "set the volume to 40%")
        #expect(Action.volume(.toggleMute).name == "volume")
    }

    @Test("print-config's rendering of volume actions parses back to the same bindings")
    func renderRoundTrip() throws {
        let config = try ConfigLoader.parse(knob("""
                clockwise: {volume: +5%}
                counterclockwise: {volume: -5%}
                action: [{volume: 30%}, {volume: mute-toggle}]
                on-end: {volume: unmute}

            """), file: "t.yaml")
        let text = ConfigRenderer.render(config)
        #expect(text.contains("clockwise: {volume: \"+5%\"}"))
        #expect(try ConfigLoader.parse(text, file: "rendered.yaml") == config, "rendered:\n\(text)")
    }

    @Test("the replay output names the change")
    func output() {
        let event = ActionEvent(time: 1.5, gesture: "volume", contact: ContactKey(device: 6, contact: 0), action: .volume(.adjust(percent: 5)), position: Point(x: 10, y: 20))
        #expect(OutputFormatter.json(event) == #"{"t":1.5,"gesture":"volume","device":6,"contact":0,"action":"volume","change":"+5%","x":10,"y":20}"#)
    }
}
