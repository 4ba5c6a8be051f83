import Testing
@testable import GestureKit

/// The top-level `feedback:` section: the pulse's and the force ring's colour, a size, the
/// pulse's length.
@Suite("Config: the feedback's look")
struct FeedbackLookConfigTests {
    @Test("without a feedback section: a mid-bright blue, size 1, a quarter-second pulse")
    func defaults() throws {
        let config = try ConfigLoader.parse("bindings: []\n", file: "t")
        #expect(config.look == .standard)
        #expect(config.look.hexColor == "#3399ff" && config.look.size == 1 && config.look.duration == 0.25)
    }

    @Test("set, partly or wholly, and rendered by print-config so that it parses back the same")
    func setAndRendered() throws {
        let config = try ConfigLoader.parse("""
            feedback: {color: "#FF3366", size: 2, duration: 0.4}
            bindings:
              - {name: a, gesture: deep-press}
            """, file: "t")
        #expect(config.look.color == (0xff, 0x33, 0x66) && config.look.size == 2 && config.look.duration == 0.4)
        let text = ConfigRenderer.render(config)
        #expect(try ConfigLoader.parse(text, file: "rendered.yaml") == config, "rendered:\n\(text)")
        let partly = try ConfigLoader.parse("feedback:\n  size: 1.5\nbindings: []\n", file: "t")
        #expect(partly.look == FeedbackLook(color: FeedbackLook.standard.color, size: 1.5, duration: 0.25))
    }

    @Test("mistakes say where and what")
    func mistakes() {
        let unquoted = problems("feedback:\n  color: #ff0000\nbindings: []\n")
        #expect(unquoted.map(\.line) == [2] && unquoted.first?.message.contains("quoted") == true, "\(unquoted)")
        let word = problems("feedback: {color: red}\nbindings: []\n")
        #expect(word.map(\.line) == [1] && word.first?.message.contains("#rrggbb") == true, "\(word)")
        let huge = problems("feedback:\n  size: 10\nbindings: []\n")
        #expect(huge.map(\.line) == [2] && huge.first?.message.contains("between 0.5 and 4") == true, "\(huge)")
        let typo = problems("feedback:\n  colour: \"#ff0000\"\nbindings: []\n")
        #expect(typo.map(\.line) == [2] && typo.first?.message.contains("did you mean `color`") == true, "\(typo)")
        let list = problems("feedback: [pulse]\nbindings: []\n")
        #expect(list.map(\.line) == [1], "\(list)")
    }
}
