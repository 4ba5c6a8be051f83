import Foundation
import GestureKit
import Testing

/// `analyze` on recordings a person makes: its output stays the same size however many
/// contacts, and it suggests a threshold when the contacts fall into two groups.
@Suite("Command line: analyze helps choose a threshold")
struct AnalyzeTests {
    /// A pen recording: `light` contacts peaking between 0.2 and 0.35, then `hard` ones between
    /// 0.8 and 0.95, each a short press up to its peak and back.
    static func recording(light: Int, hard: Int) throws -> String {
        var lines = [#"{"trace":1,"devices":[{"id":6,"name":"Test Pen stylus","kind":"pen","pressure":{"min":0,"max":1000}}]}"#]
        var time = 0.0
        let lightPeaks: [Double] = (0..<light).map { index in 0.2 + 0.15 * Double(index % 7) / 6 }
        let hardPeaks: [Double] = (0..<hard).map { index in 0.8 + 0.15 * Double(index % 5) / 4 }
        let peaks = lightPeaks + hardPeaks
        for peak in peaks {
            for (index, force) in [0.05, peak / 2, peak, peak / 2].enumerated() {
                let phase = index == 0 ? "begin" : "move"
                lines.append(#"{"t":\#(time),"device":6,"contact":0,"phase":"\#(phase)","x":100,"y":100,"pressure":\#(Int(force * 1000))}"#)
                time += 0.01
            }
            lines.append(#"{"t":\#(time),"device":6,"contact":0,"phase":"end","x":100,"y":100,"pressure":0}"#)
            time += 0.2
        }
        return try GestureBridgeExecutable.temporaryFile(lines.joined(separator: "\n") + "\n", suffix: ".jsonl")
    }

    /// `analyze --json` on a recording of `light` and `hard` contacts (`recording`): the object
    /// it prints and its peaks, once it exits 0.
    static func analyzeJSON(light: Int, hard: Int, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (analysis: AnalysisLine, output: String) {
        let path = try recording(light: light, hard: hard)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try GestureBridgeExecutable.run(["analyze", "--json", path])
        #expect(run.status == 0, "\(run.stderr)", sourceLocation: sourceLocation)
        let analysis = try #require(try decodedLines(AnalysisLine.self, run.stdout).first, sourceLocation: sourceLocation)
        // The line is the type's own encoding: its keys in their order, nothing more.
        #expect(JSONLineEncoder.line(analysis) + "\n" == run.stdout, sourceLocation: sourceLocation)
        return (analysis, run.stdout)
    }

    /// Found in review: a recording stopped while it wrote a line (killed, a power cut) ends in
    /// half a line; `analyze` then printed nothing but that line's error, though `replay`
    /// showed all before it.
    @Test("a recording whose last line stops short: analyze shows all before it, as without it, then the line's error, status 1")
    func lastLineCutShort() throws {
        let whole = try String(contentsOfFile: try Self.recording(light: 20, hard: 10), encoding: .utf8)
        let cut = try GestureBridgeExecutable.temporaryFile(whole + #"{"t":99,"device":6,"contact":0,"ph"#, suffix: ".jsonl")
        let complete = try GestureBridgeExecutable.temporaryFile(whole, suffix: ".jsonl")
        defer { for path in [cut, complete] { try? FileManager.default.removeItem(atPath: path) } }
        let lastLine = whole.split(separator: "\n").count + 1
        for json in [true, false] {
            let run = try GestureBridgeExecutable.run(["analyze"] + (json ? ["--json"] : []) + [cut])
            let before = try GestureBridgeExecutable.run(["analyze"] + (json ? ["--json"] : []) + [complete])
            #expect(run.status == 1 && !run.crashed, "\(run.stderr)")
            #expect(!run.stdout.isEmpty && run.stdout == before.stdout, "all before the cut line, as without it: \(run.stdout)")
            #expect(run.stderr.hasPrefix("\(cut):\(lastLine): error: not valid JSON"), "\(run.stderr)")
        }
    }

    /// Found in review: one light tap and one hard press gave a threshold and a binding to paste.
    @Test("too few contacts on a side of the gap (1 and 2, 4 and 3, 5 and 2): no suggestion, no binding; 5 and 3: one",
          arguments: [(1, 2, false), (4, 3, false), (5, 2, false), (5, 3, true)])
    func tooFewContacts(light: Int, hard: Int, suggested: Bool) throws {
        let (analysis, output) = try Self.analyzeJSON(light: light, hard: hard)
        #expect((analysis.suggestion != nil) == suggested, "\(output)")
        let path = try Self.recording(light: light, hard: hard)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let readable = try GestureBridgeExecutable.run(["analyze", path])
        #expect(readable.status == 0)
        #expect(readable.stdout.contains("gesture: deep-press") == suggested, "\(readable.stdout)")
    }

    @Test("15 contacts or 1,500: the same number of lines")
    func boundedOutput() throws {
        let few = try Self.recording(light: 10, hard: 5)
        let many = try Self.recording(light: 1000, hard: 500)
        defer { for path in [few, many] { try? FileManager.default.removeItem(atPath: path) } }
        let small = try GestureBridgeExecutable.run(["analyze", few])
        let large = try GestureBridgeExecutable.run(["analyze", many])
        #expect(small.status == 0 && large.status == 0, "\(small.stderr)\(large.stderr)")
        let smallLines = small.stdout.split(separator: "\n")
        let largeLines = large.stdout.split(separator: "\n")
        #expect(smallLines.count == largeLines.count)
        #expect(largeLines.allSatisfy { $0.count < 200 }, "no line grows with the recording")
    }

    /// Found in review of the docs against behaviour: the readable binding came indented two
    /// spaces more than a config's items, and pasted under the default config's `bindings:`, as
    /// the output and README say, it was a YAML error.
    @Test("the readable suggestion's binding, pasted as printed first under the default config's bindings:, loads as the config's first binding")
    func readableBindingPastes() throws {
        let path = try Self.recording(light: 20, hard: 10)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try GestureBridgeExecutable.run(["analyze", path])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.contains("to put first under `bindings:`") }, "\(run.stdout)") + 1
        let pasted = lines[start...].prefix { !$0.isEmpty }.joined(separator: "\n") + "\n"
        let text = DefaultConfig.text.replacingOccurrences(of: "bindings:\n", with: "bindings:\n" + pasted)
        #expect(text != DefaultConfig.text)
        let loaded = try ConfigLoader.parse(text, file: "pasted.yaml")
        #expect(loaded.bindings.first?.name == "right-click-test-pen-stylus", "\(pasted)")
        #expect(loaded.bindings.count == (try ConfigLoader.parse(DefaultConfig.text, file: "default.yaml")).bindings.count + 1)
    }

    /// Found in review of the CLI's errors: a config that did not load was passed over in
    /// silence, and the binding suggested then had no `applications`: pasted in, it
    /// right-clicked in the drawing programs the default leaves alone.
    @Test("a --config that does not load stops analyze, exit 1 naming it; the user's own broken config is said, and the binding builds on the built-in default's")
    func brokenConfig() throws {
        let path = try Self.recording(light: 20, hard: 10)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let named = try GestureBridgeExecutable.run(["analyze", path, "--config", "/nonexistent/mine.yaml"])
        #expect(named.status == 1 && named.stderr.contains("/nonexistent/mine.yaml"), "\(named.stderr)")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("gesture-bridge-analyze-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home + "/.config/gesture-bridge", withIntermediateDirectories: true)
        let own = home + "/.config/gesture-bridge/config.yaml"
        try "bindings: [oops\n".write(toFile: own, atomically: true, encoding: .utf8)
        #expect(chmod(own, 0o600) == 0)
        let run = try GestureBridgeExecutable.run(["analyze", path], environment: ["HOME": home, "PATH": "/usr/bin:/bin"])
        #expect(run.status == 0 && run.stderr.contains(own), "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.contains("to put first under `bindings:`") }, "\(run.stdout)") + 1
        let pasted = lines[start...].prefix { !$0.isEmpty }.joined(separator: "\n") + "\n"
        let loaded = try ConfigLoader.parse(DefaultConfig.text.replacingOccurrences(of: "bindings:\n", with: "bindings:\n" + pasted), file: "pasted.yaml")
        #expect(loaded.bindings.first?.applications == ConfigLoader.builtInDefault.bindings.first { $0.name == "right-click" }?.applications,
                "\(pasted)")
    }

    @Test("--json: two groups give a threshold between them, and a binding for the device that check accepts")
    func suggestionJSON() throws {
        let (analysis, output) = try Self.analyzeJSON(light: 20, hard: 10)
        #expect(analysis.peaks.count == 30)
        let suggestion = try #require(analysis.suggestion, "\(output)")
        #expect(suggestion.threshold > 0.35 && suggestion.threshold < 0.8)
        #expect(suggestion.ordinaryContacts == 20 && suggestion.hardContacts == 10)
        let binding = suggestion.binding
        let config = try GestureBridgeExecutable.temporaryFile("bindings:\n" + binding, suffix: ".yaml")
        defer { try? FileManager.default.removeItem(atPath: config) }
        let check = try GestureBridgeExecutable.run(["check", config])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("right-click-test-pen-stylus: deep-press on \"Test Pen stylus\""), "\(check.stdout)")
    }

    @Test("--json without contacts: the same keys, the percentiles null, no suggestion")
    func noContactsJSON() throws {
        let (analysis, output) = try Self.analyzeJSON(light: 0, hard: 0)
        #expect(analysis.peaks.count == 0)
        // Every percentile's key is there, null (decoding requires each one).
        #expect(analysis.peaks.percentiles == Array(repeating: nil, count: 7))
        #expect(output.contains(#""min":null,"p10":null,"p25":null,"median":null,"p75":null,"p90":null,"max":null"#))
        #expect(analysis.peaks.histogram == Array(repeating: 0, count: 10))
        #expect(analysis.suggestion == nil && output.contains(#""suggestion":null"#))
    }

    @Test("the iPhone recording: every peak at the maximum, so no suggestion, in JSON too")
    func noGapJSON() throws {
        let run = try GestureBridgeExecutable.run(["analyze", "--json", CommandLineTests.fixture])
        let analysis = try #require(try decodedLines(AnalysisLine.self, run.stdout).first)
        #expect(analysis.suggestion == nil)
        #expect(analysis.peaks.percentile("median") == 1)
    }

    @Test("the suggested binding keeps what the config's deep press says besides its levels, as calibrate writes it")
    func suggestionKeepsTheConfigsRules() throws {
        let path = try Self.recording(light: 20, hard: 10)
        let config = try GestureBridgeExecutable.temporaryFile("""
            bindings:
              - {name: undo, gesture: deep-press, devices: [pen], slop: 30, applications: {except: [krita]}, action: {key: ctrl+z}}
            """, suffix: ".yaml")
        defer { for file in [path, config] { try? FileManager.default.removeItem(atPath: file) } }
        let run = try GestureBridgeExecutable.run(["analyze", "--json", path, "--config", config])
        #expect(run.status == 0, "\(run.stderr)")
        let suggestion = try #require(try decodedLines(AnalysisLine.self, run.stdout).first?.suggestion, "\(run.stdout)")
        let binding = try #require(try ConfigLoader.parse("bindings:\n" + suggestion.binding, file: "s.yaml").bindings.first)
        #expect(binding.onStart == [.key(KeyCombo(keys: ["ctrl", "z"]))] && binding.applications == .except(["krita"]), "\(suggestion.binding)")
        guard case .deepPress(let levels) = binding.recognizer else { Issue.record("not a deep press"); return }
        #expect(levels.slop == 30 && levels.threshold == suggestion.threshold)
    }
}
