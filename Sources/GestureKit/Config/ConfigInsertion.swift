/// Puts a binding first into a config's text, keeping the rest of the file as the person wrote
/// it (comments, order, spacing): `calibrate --write` edits a file people edit too.
///
/// The binding goes first because bindings are in priority order: a per-device deep press
/// wins the device's contacts over a general one below it. A binding of the same name (an
/// earlier calibration of the same device) is taken out first. The result is validated as
/// `check` does.
public enum ConfigInsertion {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// `text` with `binding` (YAML lines of one list item, as `ThresholdSuggestion.binding`
    /// writes them, indented two spaces) first under `bindings:`, in place of any binding
    /// named `name`.
    public static func insert(_ binding: String, named name: String, into text: String,
                              file: String) throws(Failure) -> String {
        // Each line keeps its own end: a file saved with Windows line ends keeps them, and one
        // with a line pasted from Windows among Unix ones is still read line by line (found in
        // review of other locales: split at "\r\n" alone, its lines ran together and the header
        // went unseen). In Swift a "\r\n" is one Character, never split at a bare "\n".
        var lines: [String] = [], ends: [String] = []
        var current = ""
        for character in text {
            if character == "\n" || character == "\r\n" {
                lines.append(current)
                ends.append(String(character))
                current = ""
            } else {
                current.append(character)
            }
        }
        lines.append(current)
        ends.append("")
        // The added lines end as most of the file's do.
        let newline = ends.filter { $0 == "\r\n" }.count * 2 > ends.filter { !$0.isEmpty }.count ? "\r\n" : "\n"
        guard let header = lines.firstIndex(where: isBindingsHeader) else {
            throw Failure(description: "\(file) has no `bindings:` list to add to (a line `bindings:` at the start of a line, its items below it)")
        }
        // The items' own indentation, from the first one; two spaces when the list is empty.
        let firstItem = lines[(header + 1)...].firstIndex { $0.trimmingSpaces.hasPrefix("- ") }
        let indent = firstItem.map { String(lines[$0].prefix { $0 == " " }) } ?? "  "
        let named = ["\(indent)- name: \(name)", "\(indent)- name: \(ConfigRenderer.quoted(name))"]
        if let existing = lines[(header + 1)...].firstIndex(where: named.contains) {
            var end = existing + 1
            while end < lines.count, !isItem(lines[end], indent: indent), !endsList(lines[end], indent: indent) { end += 1 }
            // Blank lines and comments right after the old binding (at most at the items'
            // indentation: a deeper one is the binding's own) stay with what follows it.
            while end > existing + 1, belongsToWhatFollows(lines[end - 1], indent: indent) { end -= 1 }
            // The last line's end (none, at the end of a file without one) stays where it was.
            if end == lines.count { ends[existing - 1] = ends[end - 1] }
            lines.removeSubrange(existing..<end)
            ends.removeSubrange(existing..<end)
        }
        let item = binding.split(separator: "\n", omittingEmptySubsequences: true).map { line -> String in
            let text = String(line)
            return text.hasPrefix("  ") ? indent + text.dropFirst(2) : text
        }
        // Straight under the header: after comments that sit there, before the first item.
        var at = header + 1
        while at < lines.count, lines[at].trimmingSpaces.hasPrefix("#") { at += 1 }
        var itemEnds = Array(repeating: newline, count: item.count)
        if at == lines.count, let last = ends.last, last.isEmpty {
            // After a last line without an end: it gets one, and the file still ends without.
            ends[at - 1] = newline
            itemEnds[itemEnds.count - 1] = ""
        }
        lines.insert(contentsOf: item, at: at)
        ends.insert(contentsOf: itemEnds, at: at)
        let result = zip(lines, ends).map { $0 + $1 }.joined()
        do {
            _ = try ConfigLoader.parse(result, file: file)
        } catch {
            throw Failure(description: "adding the binding would leave \(file) broken, so nothing was written:\n\(error.description)")
        }
        return result
    }

    /// A blank line, or a comment no deeper than the list's items.
    private static func belongsToWhatFollows(_ line: String, indent: String) -> Bool {
        let trimmed = line.trimmingSpaces
        return trimmed.isEmpty || trimmed.hasPrefix("#") && line.prefix { $0 == " " }.count <= indent.count
    }

    /// `bindings:` at the start of a line, with nothing after it but a comment: a block list.
    private static func isBindingsHeader(_ line: String) -> Bool {
        // A file saved with a byte order mark (Windows editors) has it before the first line:
        // YAML reads past it, and so does this (found in review: "no `bindings:` list").
        let line = line.hasPrefix("\u{FEFF}") ? String(line.dropFirst()) : line
        guard line.hasPrefix("bindings:") else { return false }
        let rest = String(line.dropFirst("bindings:".count)).trimmingSpaces
        return rest.isEmpty || rest.hasPrefix("#")
    }

    /// An item of the list itself (not of a list nested in an item): at the items' indentation.
    private static func isItem(_ line: String, indent: String) -> Bool {
        let trimmed = line.drop { $0 == " " }
        return line.count - trimmed.count == indent.count && (trimmed.hasPrefix("- ") || trimmed == "-")
    }

    /// A line less indented than the list's items, and not blank or a comment: a new top-level key.
    private static func endsList(_ line: String, indent: String) -> Bool {
        let trimmed = line.trimmingSpaces
        guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return false }
        return line.prefix { $0 == " " }.count < indent.count || (indent.isEmpty && !line.hasPrefix(" "))
    }
}

extension String {
    var trimmingSpaces: Substring {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map { index(after: $0) } ?? start
        return self[start..<end]
    }
}
