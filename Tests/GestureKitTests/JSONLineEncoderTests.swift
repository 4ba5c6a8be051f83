import Foundation
import Testing
import GestureKit

/// The one encoder of `--json` and trace lines: key order as the value encodes it, numbers as
/// the contract writes them, strings escaped only where JSON needs it; and every line reads
/// back through Foundation's decoder into the type that wrote it.
@Suite("JSON line encoder")
struct JSONLineEncoderTests {
    struct Sample: Codable, Equatable {
        var zebra: String
        var alpha: Double
        var missing: Int?
        @NullWhenNil var nothing: String?
        var nested: [Inner]
        var flag: Bool

        struct Inner: Codable, Equatable {
            var b: Int
            var a: [Double]
        }
    }

    /// A tag, then a payload's keys in the same object.
    struct Tagged: Encodable {
        var tag: String
        var payload: Sample.Inner

        enum CodingKeys: String, CodingKey { case tag }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(tag, forKey: .tag)
            try payload.encode(to: encoder)
        }
    }

    /// Found in review: `replay --json` of a trace with `"x":1e308` wrote `"x":inf`.
    @Test("the largest numbers are written as JSON numbers, not inf", arguments: [1e308, -1e308, 1.7976931348623157e308, 2e302])
    func hugeNumbers(value: Double) throws {
        let text = JSONLine.number(value)
        let read = try JSONDecoder().decode([Double].self, from: Data("[\(text)]".utf8))
        #expect(read == [value], "\(text)")
    }

    @Test("keys in the order encoded, a nil optional left out, a NullWhenNil written null, no spaces")
    func order() throws {
        let sample = Sample(zebra: "z", alpha: 0.5, missing: nil, nothing: nil,
                            nested: [Sample.Inner(b: 2, a: [1, 0.25])], flag: true)
        let line = JSONLineEncoder.line(sample)
        #expect(line == #"{"zebra":"z","alpha":0.5,"nothing":null,"nested":[{"b":2,"a":[1,0.25]}],"flag":true}"#)
        #expect(try JSONDecoder().decode(Sample.self, from: Data(line.utf8)) == sample)
    }

    @Test("a key a NullWhenNil property requires fails to decode when left out")
    func nullWhenNilRequiresItsKey() {
        let line = #"{"zebra":"z","alpha":0.5,"nested":[],"flag":false}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Sample.self, from: Data(line.utf8)) }
    }

    @Test("an optional NullWhenNil (a device's learned) reads back left out, null or a value as it was written")
    func optionalNullWhenNil() throws {
        let learned = DeviceLearnedLine(nil)
        for value in [nil, NullWhenNil(wrappedValue: nil), NullWhenNil(wrappedValue: learned)] {
            let device = DeviceLine(id: 9, name: "pen", kind: "pen", enabled: true, driver: "wacom", type: nil,
                                    pressure: nil, pressureMoved: nil, touches: nil, touchMode: nil, bindings: [],
                                    learned: value)
            let line = JSONLineEncoder.line(device)
            #expect(line.contains(#""learned""#) == (value != nil))
            #expect(try JSONDecoder().decode(DeviceLine.self, from: Data(line.utf8)) == device)
        }
    }

    /// Found reading the outputs side by side: `devices --json` spelt a device's counts
    /// `ordinaryContacts`, where `learned --json` and `run --json` spell them `ordinary-contacts`;
    /// a script reading one read nothing from the other.
    @Test("what was learned spells its counts alike in devices --json, learned --json and run --json")
    func learnedCountsSpeltAlike() throws {
        var learner = HandLearner()
        for _ in 0..<3 { learner.record(.deliberate(peak: 0.8)) }
        learner.record(.ordinary(peak: 0.2))
        let levels = PressLevels.start
        let change = LearnedChange(time: 1, device: "pen", key: "pen", previous: levels, levels: levels, learner: learner)
        let lines = [JSONLineEncoder.line(DeviceLearnedLine(learner)), JSONLineEncoder.line(LearnedStateLine(device: "pen", learner: learner)),
                     JSONLineEncoder.line(LearnedLine(change))]
        /// The two counts, by the spelling all three share.
        struct Counts: Decodable, Equatable {
            var ordinary: Int
            var deliberate: Int
            enum CodingKeys: String, CodingKey {
                case ordinary = "ordinary-contacts", deliberate = "deliberate-presses"
            }
        }
        for line in lines {
            #expect(try JSONDecoder().decode(Counts.self, from: Data(line.utf8)) == Counts(ordinary: 1, deliberate: 3), "\(line)")
        }
        let docs = #"{"threshold":0.368,"release":0.263,"ordinary":0.21,"moved":true,"calibrated":false,"ordinary-contacts":40,"deliberate-presses":3}"#
        #expect(try JSONDecoder().decode(DeviceLearnedLine.self, from: Data(docs.utf8)).ordinaryContacts == 40, "docs/config.md's example reads")
    }

    @Test("numbers rounded to millionths, integral ones without a fraction, no negative zero, non-finite as null",
          arguments: [
              (0.1 + 0.2, "0.3"), (1.0, "1"), (-2.5, "-2.5"), (1.234_567_89, "1.234568"), (-0.000_000_1, "0"),
              (1280, "1280"), (0.000_001, "1e-06"), (Double.nan, "null"), (Double.infinity, "null"),
          ])
    func numbers(value: Double, json: String) {
        #expect(JSONLineEncoder.line([value]) == "[\(json)]")
    }

    @Test("strings escaped only where JSON requires it")
    func escapes() throws {
        let text = "a \"quoted\" \\ path/with\nnewline\ttab\u{1}é→"
        let line = JSONLineEncoder.line([text])
        #expect(line == #"["a \"quoted\" \\ path/with\nnewline\ttab\u0001é→"]"#)
        #expect(try JSONDecoder().decode([String].self, from: Data(line.utf8)) == [text])
    }

    @Test("a tag and a payload encoded into one object keep their order")
    func merged() {
        let line = JSONLineEncoder.line(Tagged(tag: "t", payload: Sample.Inner(b: 1, a: [])))
        #expect(line == #"{"tag":"t","b":1,"a":[]}"#)
    }

    @Test("a value that encodes nothing is an empty object")
    func empty() {
        struct Nothing: Encodable {
            func encode(to encoder: any Encoder) throws {}
        }
        #expect(JSONLineEncoder.line(Nothing()) == "{}")
    }
}
