import Testing
@testable import GestureKit

/// `calibrate --write` edits a file a person edits too: the binding goes first, the rest stays
/// as it was written.
@Suite("Putting a binding into a config's text")
struct ConfigInsertionTests {
    static let binding = ThresholdSuggestion(ordinaryPeaks: [0.2, 0.3], hardPeaks: [0.8, 0.9])?.binding(forDevice: "Test Pen") ?? ""
    static let name = ThresholdSuggestion.bindingName(forDevice: "Test Pen")

    static let config = """
        # my config
        decision-timeout: 0.4

        bindings:
          # the generic one
          - name: right-click
            gesture: deep-press
            devices: [pen, touch]
            action: {click: right}   # keep this comment

          - name: undo
            gesture: squeeze
            action: {key: ctrl+z}
        """

    @Test("first under `bindings:`, after the comment there; everything else byte for byte")
    func insertsFirst() throws {
        let text = try ConfigInsertion.insert(Self.binding, named: Self.name, into: Self.config, file: "c.yaml")
        let config = try ConfigLoader.parse(text, file: "c.yaml")
        #expect(config.bindings.map(\.name) == [Self.name, "right-click", "undo"])
        #expect(config.decisionTimeout == 0.4)
        #expect(text.replacingOccurrences(of: Self.binding, with: "") == Self.config)
    }

    /// Found in review of a config kept in dotfiles: saved by a Windows editor with a byte order
    /// mark and CRLF, the file's first line `bindings:` was not found.
    @Test("a file with a byte order mark and Windows line ends: the binding goes first, the mark and the line ends kept")
    func byteOrderMark() throws {
        let config = "\u{FEFF}bindings:\r\n  - name: rc\r\n    gesture: deep-press\r\n    action: {click: right}\r\n"
        let text = try ConfigInsertion.insert(Self.binding, named: Self.name, into: config, file: "c.yaml")
        #expect(text.hasPrefix("\u{FEFF}bindings:\r\n  - name: \(Self.name)\r\n"), "\(text)")
        #expect(!text.contains { $0 == "\n" }, "every line ends in CRLF")
        #expect(try ConfigLoader.parse(text, file: "c.yaml").bindings.map(\.name) == [Self.name, "rc"])
    }

    /// Found in review of other locales: one line pasted from Windows among Unix ones made the
    /// file read as split at CRLF alone, its lines ran together, and `calibrate --write` said
    /// it had no `bindings:` list.
    @Test("a file whose line ends are mixed: the binding goes first, each line keeps its own end, the added ones end as most do")
    func mixedLineEnds() throws {
        for (config, added) in [("bindings:\n  - name: rc\n    gesture: deep-press\n    action: {click: right}\r\n", "\n"),
                                ("bindings:\r\n  - name: rc\r\n    gesture: deep-press\n    action: {click: right}\r\n", "\r\n"),
                                ("bindings:", "\n")] {
            let text = try ConfigInsertion.insert(Self.binding, named: Self.name, into: config, file: "c.yaml")
            #expect(text.hasPrefix("bindings:" + (config.hasPrefix("bindings:\r\n") ? "\r\n" : "\n") + "  - name: \(Self.name)" + added), "\(text.debugDescription)")
            #expect(text.hasSuffix(config.dropFirst("bindings:".count + (config.hasPrefix("bindings:\r\n") ? 2 : config == "bindings:" ? 0 : 1))), "\(text.debugDescription)")
            #expect(try ConfigLoader.parse(text, file: "c.yaml").bindings.first?.name == Self.name)
        }
    }

    @Test("a second calibration of the same device replaces the first")
    func replaces() throws {
        let once = try ConfigInsertion.insert(Self.binding, named: Self.name, into: Self.config, file: "c.yaml")
        let other = try #require(ThresholdSuggestion(ordinaryPeaks: [0.1], hardPeaks: [0.5])).binding(forDevice: "Test Pen")
        let twice = try ConfigInsertion.insert(other, named: Self.name, into: once, file: "c.yaml")
        let config = try ConfigLoader.parse(twice, file: "c.yaml")
        #expect(config.bindings.map(\.name) == [Self.name, "right-click", "undo"])
        guard case .deepPress(let deep) = config.bindings[0].recognizer else {
            Issue.record("not a deep press")
            return
        }
        #expect(deep.threshold == 0.3)
        #expect(twice.replacingOccurrences(of: other, with: "") == Self.config)
    }

    /// Found in review of odd names: two devices whose names differ only in what a binding's name
    /// leaves out got one name, and calibrating the second took the first one's binding away.
    @Test("calibrating a device whose name reads as another's in a binding's name: both bindings stay, each its own device's")
    func namesThatReadAlike() throws {
        let suggestion = try #require(ThresholdSuggestion(ordinaryPeaks: [0.2, 0.3], hardPeaks: [0.8, 0.9]))
        var text = Self.config
        for device in ["ELAN Touchscreen", "ELAN-Touchscreen", "ELAN Touchscreen", "ELAN Touchscreen-2"] {
            let bindings = try ConfigLoader.parse(text, file: "c.yaml").bindings
            let name = ThresholdSuggestion.bindingName(forDevice: device, among: bindings)
            text = try ConfigInsertion.insert(suggestion.binding(forDevice: device, named: name), named: name, into: text, file: "c.yaml")
        }
        let bindings = try ConfigLoader.parse(text, file: "c.yaml").bindings
        // The first device, calibrated again, kept its own name and went first again.
        let names = ["right-click-elan-touchscreen-2-2", "right-click-elan-touchscreen", "right-click-elan-touchscreen-2"]
        #expect(bindings.map(\.name) == names + ["right-click", "undo"], "\(text)")
        #expect(bindings.prefix(3).map(\.devices) == [[.named("ELAN Touchscreen-2")], [.named("ELAN Touchscreen")],
                                                      [.named("ELAN-Touchscreen")]], "one binding each: \(text)")
    }

    /// Found in review: a comment between the calibrated binding and the next was taken away
    /// with the old binding, and a file with Windows line ends was refused as having no list.
    @Test("calibrating again keeps the comments after the old binding; a file with CRLF line ends keeps them")
    func commentsAndLineEnds() throws {
        let moved = Self.config.replacingOccurrences(of: "  # the generic one\n", with: "")
            .replacingOccurrences(of: "  - name: right-click", with: "  # the generic one, for every other pen\n  - name: right-click")
        let once = try ConfigInsertion.insert(Self.binding, named: Self.name, into: moved, file: "c.yaml")
        #expect(once.replacingOccurrences(of: Self.binding, with: "") == moved, "\(once)")
        let other = try #require(ThresholdSuggestion(ordinaryPeaks: [0.1], hardPeaks: [0.5])).binding(forDevice: "Test Pen")
        let twice = try ConfigInsertion.insert(other, named: Self.name, into: once, file: "c.yaml")
        #expect(twice.replacingOccurrences(of: other, with: "") == moved, "\(twice)")

        let crlf = Self.config.replacingOccurrences(of: "\n", with: "\r\n")
        let inserted = try ConfigInsertion.insert(Self.binding, named: Self.name, into: crlf, file: "c.yaml")
        #expect(try ConfigLoader.parse(inserted, file: "c.yaml").bindings.map(\.name) == [Self.name, "right-click", "undo"])
        #expect(!inserted.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "one kind of line end: \(inserted.debugDescription)")
    }

    @Test("items at the start of the line are matched; the binding takes their indentation")
    func unindentedList() throws {
        let text = try ConfigInsertion.insert(Self.binding, named: Self.name,
                                              into: "bindings:\n- name: a\n  gesture: squeeze\nhold-limit: 4\n", file: "c.yaml")
        let config = try ConfigLoader.parse(text, file: "c.yaml")
        #expect(config.bindings.map(\.name) == [Self.name, "a"])
        #expect(config.holdLimit == 4)
    }

    @Test("a file without a block `bindings:` list, or one the binding would break, is refused with a reason")
    func refusals() {
        #expect(throws: ConfigInsertion.Failure.self) {
            try ConfigInsertion.insert(Self.binding, named: Self.name, into: "bindings: [{name: a, gesture: squeeze}]\n", file: "c.yaml")
        }
        do {
            _ = try ConfigInsertion.insert(Self.binding, named: Self.name,
                                           into: "bindings:\n  - name: \(Self.name)x\n    gesture: squeeze\n  - {name: \(Self.name), gesture: squeeze}\n",
                                           file: "c.yaml")
            Issue.record("a duplicate name was accepted")
        } catch {
            #expect(error.description.contains("nothing was written"))
            #expect(error.description.contains("c.yaml:"))
        }
    }
}
