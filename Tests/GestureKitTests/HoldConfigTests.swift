import Testing
@testable import GestureKit

/// The keys of the force-following hold: `hold-limit` at the top, `ordinary` on pressure gestures.
@Suite("Config: hold-limit and ordinary")
struct HoldConfigTests {
    @Test("defaults: an 8 s limit, and ordinary at half the threshold")
    func defaults() throws {
        let config = try ConfigLoader.parse("""
            bindings:
              - {name: a, gesture: deep-press, threshold: 0.8}
              - {name: b, gesture: squeeze}
            """, file: "t")
        #expect(config.holdLimit == 8)
        guard case .deepPress(let deep) = config.bindings[0].recognizer,
              case .squeeze(let squeeze) = config.bindings[1].recognizer else {
            Issue.record("wrong recognizers: \(config.bindings)")
            return
        }
        #expect(deep.ordinary == 0.4)
        #expect(squeeze.ordinary == 0.25)
    }

    /// Found in review: at a threshold of 0.01 the default ordinary rounded up to 0.01, the
    /// threshold itself, which print-config then wrote and the config refused.
    @Test("the default ordinary stays below the threshold at every threshold, and print-config's output of it reads back", arguments: [0.01, 0.02, 0.03, 0.75, 1])
    func defaultBelowThreshold(threshold: Double) throws {
        let config = try ConfigLoader.parse("bindings:\n  - {name: a, gesture: deep-press, threshold: \(threshold)}\n", file: "t")
        guard case .deepPress(let deep) = config.bindings[0].recognizer else {
            Issue.record("not a deep press")
            return
        }
        #expect(deep.ordinary < threshold && deep.ordinary >= 0, "\(deep.ordinary)")
        #expect(try ConfigLoader.parse(ConfigRenderer.render(config), file: "printed") == config)
    }

    @Test("set, and rendered by print-config so that it parses back the same")
    func setAndRendered() throws {
        let config = try ConfigLoader.parse("""
            decision-timeout: 0.3
            hold-limit: 4
            bindings:
              - {name: a, gesture: deep-press, threshold: 0.8, ordinary: 0.3}
              - {name: b, gesture: squeeze, threshold: 0.6, ordinary: 0.2}
            """, file: "t")
        #expect(config.holdLimit == 4)
        let text = ConfigRenderer.render(config)
        #expect(try ConfigLoader.parse(text, file: "rendered.yaml") == config, "rendered:\n\(text)")
    }

    @Test("mistakes say where and what")
    func mistakes() {
        let short = problems("decision-timeout: 2\nhold-limit: 1\nbindings: []\n")
        #expect(short.map(\.line) == [2])
        #expect(short.first?.message.contains("must be at least `decision-timeout`") == true)
        #expect(problems("hold-limit: 100\nbindings: []\n").first?.message.contains("between 0 and 60") == true)
        let ordinary = problems("bindings:\n  - {name: a, gesture: deep-press, threshold: 0.5, ordinary: 0.6}\n")
        #expect(ordinary.first?.message.contains("`ordinary` (0.6) must be below `threshold` (0.5)") == true)
        #expect(ordinary.first?.line == 2)
        let knob = problems("bindings:\n  - {name: k, gesture: knob, center: [1, 1], ordinary: 0.2}\n")
        #expect(knob.first?.message.contains("does not apply to a knob binding") == true)
        #expect(problems("hold-limt: 3\nbindings: []\n").first?.message.contains("did you mean `hold-limit`") == true)
    }
}
