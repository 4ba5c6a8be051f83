@testable import GestureKit
import Testing

/// The YAML reader under the config: libyaml's events made into nodes, and plain scalars read
/// by YAML 1.1's rules, as a config's author writes them.
@Suite("YAML reader")
struct YAMLDocumentTests {
    /// The items of a node that must be a list.
    func items(_ node: YAMLNode?) throws -> YAMLNode.Sequence {
        guard case .sequence(let items) = try #require(node) else { throw NotAList() }
        return items
    }

    struct NotAList: Error {}

    func value(_ text: String) throws -> YAMLNode {
        let root = try #require(try YAMLDocument.read("key: \(text)\n"))
        return try #require(root["key"])
    }

    /// Found in review of a week of config edits: a config saved "UTF-8 with BOM" (an editor's
    /// setting, a file from Windows) was refused, `2:1: did not find expected <document start>`,
    /// with nothing to show why: told the encoding, libyaml read the mark as a character.
    @Test("a text that begins with a byte order mark reads as the same text without it; a config too")
    func byteOrderMark() throws {
        let text = "decision-timeout: 0.4\nbindings:\n  - name: menu\n    gesture: deep-press\n    action: {click: right}\n"
        #expect(try YAMLDocument.read("\u{FEFF}key: 1\n")?["key"]?.int == 1)
        let config = try ConfigLoader.parse("\u{FEFF}" + text, file: "bom.yaml")
        #expect(config.bindings.map(\.name) == ["menu"] && config.decisionTimeout == 0.4)
    }

    @Test("plain numbers in every YAML 1.1 form; quoted or block text is no number",
          arguments: [("0.7", 0.7), ("7e-1", 0.7), (".5", 0.5), ("1_000", 1000), ("0x10", 16), ("1:30", 90),
                      ("-1:30", -90), (".inf", .infinity), ("-.Inf", -.infinity), ("+0.25", 0.25)])
    func numbers(_ text: String, _ expected: Double) throws {
        #expect(try value(text).float == expected)
    }

    @Test("whole numbers: decimal, hex, binary, octal, base 60; nothing that overflows")
    func wholeNumbers() throws {
        #expect(try value("42").int == 42)
        #expect(try value("0x1f").int == 31)
        #expect(try value("0b101").int == 5)
        #expect(try value("017").int == 15)
        #expect(try value("0o17").int == 15)
        #expect(try value("-1:00:00").int == -3600)
        #expect(try value("0.5").int == nil)
        #expect(try value("'42'").int == nil)
        #expect(try value("1:2:3:4:5:6:7:8:9:10:11:12:13:14").int == nil)
        #expect(try value("-0:-9223372036854775808").int == nil)
        #expect(try value("'0.7'").float == nil)
        #expect(try value("|\n  0.7").float == nil)
        #expect(try value(".nan").float?.isNaN == true)
    }

    @Test("booleans as YAML 1.1 writes them, not quoted, not in mixed case unless tagged")
    func booleans() throws {
        for word in ["true", "True", "TRUE", "yes", "Yes", "on", "ON"] { #expect(try value(word).bool == true, "\(word)") }
        for word in ["false", "no", "No", "off", "OFF"] { #expect(try value(word).bool == false, "\(word)") }
        for word in ["tRue", "'true'", "\"yes\"", "1", "y", "!!str true"] { #expect(try value(word).bool == nil, "\(word)") }
        #expect(try value("!!bool tRue").bool == true)
    }

    @Test("an alias is the node its anchor names; an unknown alias is an error at its place")
    func aliases() throws {
        let root = try #require(try YAMLDocument.read("a: &n [1, 2]\nb: *n\n"))
        #expect(try items(root["b"]).compactMap(\.int) == [1, 2])
        #expect(throws: YAMLError.syntax(problem: "found undefined alias", at: YAMLMark(line: 2, column: 4))) {
            try YAMLDocument.read("a: 1\nb: *nowhere\n")
        }
    }

    @Test("keys are found however they are quoted; the same key twice is an error at the first")
    func keys() throws {
        let root = try #require(try YAMLDocument.read("'name': a\n\"gesture\": b\n"))
        #expect(root["name"]?.scalar?.string == "a")
        #expect(root["gesture"]?.scalar?.string == "b")
        #expect(throws: YAMLError.duplicateKeys(["a", "b"], at: YAMLMark(line: 1, column: 1))) {
            try YAMLDocument.read("a: 1\nb: 2\na: 3\nb: 4\n")
        }
        // `1` is a number, `'1'` a string: two keys.
        #expect(try YAMLDocument.read("1: a\n'1': b\n") != nil)
    }

    @Test("places count lines and characters from 1")
    func marks() throws {
        let root = try #require(try YAMLDocument.read("# comment\nfirst:\n  - \u{2603}: x\n"))
        let first = try items(root["first"])[0]
        #expect(first.mark == YAMLMark(line: 3, column: 5))
        #expect(first["\u{2603}"]?.mark == YAMLMark(line: 3, column: 8))
    }

    @Test("no document, one document, two documents")
    func documents() throws {
        #expect(try YAMLDocument.read("") == nil)
        #expect(try YAMLDocument.read("# only a comment\n") == nil)
        #expect(try YAMLDocument.read("a: 1\n") != nil)
        #expect(throws: YAMLError.syntax(problem: "but found another document", at: YAMLMark(line: 2, column: 1))) {
            try YAMLDocument.read("a: 1\n---\nb: 2\n")
        }
    }

    @Test("nesting is read to 1000 levels and refused past them, where it goes too deep")
    func nesting() throws {
        let deepest = String(repeating: "[", count: 999) + String(repeating: "]", count: 999)
        #expect(try YAMLDocument.read("a: \(deepest)\n") != nil)
        let tooDeep = String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)
        #expect(throws: YAMLError.syntax(problem: "nested more than 1000 levels deep", at: YAMLMark(line: 1, column: 1003))) {
            try YAMLDocument.read("a: \(tooDeep)\n")
        }
    }

    @Test("syntax errors carry libyaml's problem and place")
    func syntax() {
        #expect(throws: YAMLError.syntax(problem: "did not find expected ',' or ']'", at: YAMLMark(line: 2, column: 1))) {
            try YAMLDocument.read("a: [1, 2\n")
        }
    }

    /// Found in review of a YAML power user's config: each item added to a list or a mapping
    /// copied the collection so far, so reading took the square of its length (a list of 40,000
    /// items 8 s, of 80,000 33 s, in a release build), `check` and a running bridge's reload
    /// with it. The time limit is a hang's guard: read in place, it takes well under a second.
    @Test("a list of 90,000 items and a mapping of 45,000 keys are read whole", .timeLimit(.minutes(1)))
    func longCollections() throws {
        let list = "junk:\n" + (0..<90_000).map { "  - a\($0)\n" }.joined()
        guard case .mapping(let outer)? = try YAMLDocument.read(list), case .sequence(let items)? = outer["junk"] else {
            Issue.record("not read as a mapping holding a list")
            return
        }
        #expect(items.count == 90_000)
        let keys = (0..<45_000).map { "k\($0): \($0)\n" }.joined()
        guard case .mapping(let mapping)? = try YAMLDocument.read(keys) else {
            Issue.record("not read as a mapping")
            return
        }
        #expect(mapping.count == 45_000)
    }

    /// Found in review of a YAML power user's config: a 4 KB file of aliases within aliases
    /// (a binding aliased 200 times, its devices a mapping aliased 200 times, of 200 keys) is read
    /// sharing each node, but checking it visits every alias's values again: 8 million, 7 s and a
    /// gigabyte in `check`, a running bridge's reload as long.
    @Test("aliases within aliases that stand for more than 100,000 values are refused where they pass it; a config's own aliases are read")
    func aliasesMultiplied() throws {
        let keys = (0..<200).map { "k\($0): 1" }.joined(separator: ", ")
        let text = "bindings:\n  - &b {name: a, gesture: deep-press, action: {click: right}, devices: [&m {\(keys)}"
            + String(repeating: ", *m", count: 199) + "]}\n" + String(repeating: "  - *b\n", count: 199)
        #expect(text.utf8.count < 5000)
        #expect {
            try YAMLDocument.read(text)
        } throws: { error in
            guard case YAMLError.syntax(let problem, let mark) = error else { return false }
            return problem.hasPrefix("more than 100000 values") && mark.line > 2
        }
        let shared = "common: &common {gesture: deep-press, action: {click: right}}\nbindings:\n  - *common\n  - *common\n"
        #expect(try YAMLDocument.read(shared) != nil)
    }
}
