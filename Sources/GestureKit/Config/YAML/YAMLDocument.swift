import CYAML

/// What keeps a YAML text from being read, with where.
enum YAMLError: Error, Sendable, Equatable {
    /// libyaml's scanner or parser refused the text, or an alias names no anchor.
    case syntax(problem: String, at: YAMLMark)
    /// The same keys twice in one mapping, sorted, at the first of them.
    case duplicateKeys([String], at: YAMLMark)
    /// A tag that is none of YAML's own types (`!include`, `!!binary`), as written.
    case unsupportedTag(String, at: YAMLMark)
    /// libyaml could not decode the text itself.
    case unreadable(String)
    case outOfMemory
}

/// Reads a YAML text into its one document's tree, through libyaml's event API.
enum YAMLDocument {
    /// Deeper nesting is refused rather than read: nothing a config holds comes near it, and a
    /// tree that deep would take more stack to take apart than a thread has.
    static let maximumDepth = 1000
    /// More values than this, counted with every alias as the values it stands for, is
    /// refused: a config has hundreds, and checking one visits each alias's values again (a 4 KB
    /// file of aliases within aliases took 7 s and a gigabyte, a running bridge's reload as
    /// long; found in review).
    static let maximumValues = 100_000

    /// The root node, or nil for a text with no document (empty, or comments only).
    static func read(_ text: String) throws(YAMLError) -> YAMLNode? {
        var text = text
        // A byte order mark (an editor's "UTF-8 with BOM", a file from Windows) may begin a YAML
        // stream; told the encoding, libyaml would read it as a character of the first line.
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        let result = text.withUTF8 { bytes -> Result<YAMLNode?, YAMLError> in
            do throws(YAMLError) {
                var composer = Composer()
                return .success(try composer.document(from: EventReader(bytes)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// libyaml's parser over a buffer that outlives it.
private final class EventReader {
    private let parser: UnsafeMutablePointer<yaml_parser_t>

    init(_ bytes: UnsafeBufferPointer<UInt8>) throws(YAMLError) {
        parser = .allocate(capacity: 1)
        guard yaml_parser_initialize(parser) != 0 else {
            parser.deallocate()
            throw .outOfMemory
        }
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(parser, bytes.baseAddress, bytes.count)
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
    }

    /// The next event, handed to `body` while libyaml owns it.
    func next<Result>(_ body: (yaml_event_t) throws(YAMLError) -> Result) throws(YAMLError) -> Result {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) != 0 else { throw error() }
        defer { yaml_event_delete(&event) }
        return try body(event)
    }

    private func error() -> YAMLError {
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? "unknown problem"
        let mark = YAMLMark(line: Int(state.problem_mark.line) + 1, column: Int(state.problem_mark.column) + 1)
        switch state.error {
        case YAML_MEMORY_ERROR: return .outOfMemory
        case YAML_READER_ERROR: return .unreadable(problem)
        default: return .syntax(problem: problem, at: mark)
        }
    }
}

/// Builds the tree from libyaml's events without recursion: the collections still open are a
/// stack, each closed one handed to the one below it.
private struct Composer {
    /// A collection still open, added to in place: a node added must not copy what the
    /// collection holds so far (a list of 40,000 items took 8 s so, found in review).
    private struct Open {
        enum Kind { case sequence, mapping }
        let kind: Kind
        let anchor: String?
        let mark: YAMLMark
        var items: [YAMLNode] = []
        var pairs: [(key: YAMLNode, value: YAMLNode)] = []
        /// A mapping's key read, waiting for its value.
        var key: YAMLNode?
        /// The values in it so far, itself included, every alias counted as what it stands for.
        var values = 1
    }

    private var open: [Open] = []
    private var anchors: [String: (node: YAMLNode, values: Int)] = [:]
    private var root: YAMLNode?

    /// The stream's single document: nil if it has none, an error if it has two.
    mutating func document(from reader: EventReader) throws(YAMLError) -> YAMLNode? {
        _ = try reader.next { _ in }  // stream start
        let first = try reader.next { event in event.type }
        guard first == YAML_DOCUMENT_START_EVENT else { return nil }
        while root == nil {
            try reader.next { (event) throws(YAMLError) in try take(event) }
        }
        _ = try reader.next { _ in }  // document end
        let (after, mark) = try reader.next { event in (event.type, Self.mark(event.start_mark)) }
        if after != YAML_STREAM_END_EVENT {
            throw .syntax(problem: "but found another document", at: mark)
        }
        return root
    }

    private mutating func take(_ event: yaml_event_t) throws(YAMLError) {
        let mark = Self.mark(event.start_mark)
        switch event.type {
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            let style: YAMLNode.Scalar.Style = switch data.style {
            case YAML_PLAIN_SCALAR_STYLE, YAML_ANY_SCALAR_STYLE: .plain
            case YAML_SINGLE_QUOTED_SCALAR_STYLE, YAML_DOUBLE_QUOTED_SCALAR_STYLE: .quoted
            default: .block
            }
            let string = data.value.map { String(decoding: UnsafeBufferPointer(start: $0, count: data.length), as: UTF8.self) } ?? ""
            // A quoted scalar without a tag is a string, as if tagged so.
            let tag = data.quoted_implicit != 0 ? "tag:yaml.org,2002:str" : Self.text(data.tag)
            try Self.check(tag: tag, at: mark)
            let node = YAMLNode.scalar(.init(string: string, style: style, explicitTag: tag, mark: mark))
            try close(node, values: 1, anchor: Self.text(data.anchor), at: mark)
        case YAML_ALIAS_EVENT:
            guard let name = Self.text(event.data.alias.anchor), let anchored = anchors[name] else {
                throw .syntax(problem: "found undefined alias", at: mark)
            }
            try close(anchored.node, values: anchored.values, anchor: nil, at: mark)
        case YAML_SEQUENCE_START_EVENT:
            let data = event.data.sequence_start
            try Self.check(tag: Self.text(data.tag), at: mark)
            try push(Open(kind: .sequence, anchor: Self.text(data.anchor), mark: mark))
        case YAML_MAPPING_START_EVENT:
            let data = event.data.mapping_start
            try Self.check(tag: Self.text(data.tag), at: mark)
            try push(Open(kind: .mapping, anchor: Self.text(data.anchor), mark: mark))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let collection = open.popLast() else {
                throw .syntax(problem: "a collection ends that never began", at: mark)
            }
            switch collection.kind {
            case .sequence:
                try close(.sequence(.init(items: collection.items, mark: collection.mark)), values: collection.values,
                          anchor: collection.anchor, at: mark)
            case .mapping:
                try Self.checkDuplicates(collection.pairs.map(\.key))
                try close(.mapping(.init(pairs: collection.pairs, mark: collection.mark)), values: collection.values,
                          anchor: collection.anchor, at: mark)
            }
        default:
            // libyaml sends nothing else inside a document.
            throw .syntax(problem: "did not expect this here", at: mark)
        }
    }

    private mutating func push(_ collection: Open) throws(YAMLError) {
        guard open.count < YAMLDocument.maximumDepth else {
            throw .syntax(problem: "nested more than \(YAMLDocument.maximumDepth) levels deep", at: collection.mark)
        }
        open.append(collection)
    }

    /// Refuses a tag that is none of YAML's own types: a config is one file of plain values, and
    /// a tag another program reads (Home Assistant's `!include`, `!secret`) would otherwise be
    /// read as the text after it.
    private static func check(tag: String?, at mark: YAMLMark) throws(YAMLError) {
        guard let tag, tag != "!" else { return }
        let core = "tag:yaml.org,2002:"
        if tag.hasPrefix(core), ["str", "bool", "int", "float", "null", "merge", "timestamp", "value", "seq", "map"]
            .contains(String(tag.dropFirst(core.count))) { return }
        throw .unsupportedTag(tag.hasPrefix(core) ? "!!" + tag.dropFirst(core.count) : tag, at: mark)
    }

    /// A finished node of `values` values: remembered under its anchor, then added to the
    /// collection it is in; `mark`: where it ends, for a collection grown past `maximumValues`.
    private mutating func close(_ node: YAMLNode, values: Int, anchor: String?, at mark: YAMLMark) throws(YAMLError) {
        if let anchor { anchors[anchor] = (node, values) }
        let parent = open.count - 1
        guard parent >= 0 else {
            root = node
            return
        }
        open[parent].values += values
        guard open[parent].values <= YAMLDocument.maximumValues else {
            throw .syntax(problem: "more than \(YAMLDocument.maximumValues) values, each alias counted as the values it stands for: aliases of aliases multiply what is read", at: mark)
        }
        switch open[parent].kind {
        case .sequence:
            open[parent].items.append(node)
        case .mapping:
            if let key = open[parent].key {
                open[parent].pairs.append((key: key, value: node))
                open[parent].key = nil
            } else {
                open[parent].key = node
            }
        }
    }

    /// Scalar keys given twice, reported sorted, at the first place the first of them appears.
    /// A list or a mapping as a key is refused by the config's own rules ("keys must be plain
    /// words"); comparing one (an alias can make it huge) would gain nothing.
    private static func checkDuplicates(_ keys: [YAMLNode]) throws(YAMLError) {
        var seen: [KeyIdentity: YAMLMark] = [:]
        var repeated: [KeyIdentity: YAMLMark] = [:]
        for key in keys {
            guard let scalar = key.scalar else { continue }
            let identity = KeyIdentity(text: scalar.string, tag: scalar.resolvedTag)
            if let first = seen[identity] { repeated[identity] = first } else { seen[identity] = key.mark }
        }
        guard !repeated.isEmpty else { return }
        let sorted = repeated.sorted { $0.key < $1.key }
        throw .duplicateKeys(sorted.map(\.key.text), at: sorted[0].value)
    }

    private static func mark(_ mark: yaml_mark_t) -> YAMLMark {
        YAMLMark(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    private static func text(_ pointer: UnsafeMutablePointer<UInt8>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}

/// What makes two scalar keys the same key: their text and their type (`1` and `'1'` differ).
private struct KeyIdentity: Hashable, Comparable {
    var text: String
    var tag: YAMLTag

    static func < (lhs: KeyIdentity, rhs: KeyIdentity) -> Bool { lhs.text < rhs.text }
}
