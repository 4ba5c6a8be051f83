/// A command's argv as a shell would have read it, for a config that seems to want one: the
/// bridge runs commands without a shell (`Action.command`), so `~`, `$HOME` and `|` mean nothing
/// there.
public enum ShellLine {
    /// A shell's operators: an argument that is only one of these was likely meant for a shell.
    static let operators: Set<String> = ["|", "||", "&", "&&", ";", ">", ">>", "<", "2>", "2>&1", "&>"]

    /// What to tell of `argv`, nil when nothing in it looks meant for a shell.
    static func warning(for argv: [String]) -> String? {
        guard let program = argv.first else { return nil }
        let quoted = "[sh, -c, \(yamlQuoted(line(argv)))]"
        if let first = program.first, first == "~" || first == "$" {
            return "`\(program)` is looked for as written: the command runs without a shell, which would expand "
                + "\(first == "~" ? "`~`" : "`$`"); name the program with its full path, or run it through a shell: \(quoted)"
        }
        if let found = argv.dropFirst().first(where: operators.contains) {
            return "`\(found)` is given to \(program) as an argument, as written: the command runs without a shell; "
                + "if a shell's `\(found)` is meant, run it through one: \(quoted)"
        }
        return nil
    }

    /// The shell line that runs `argv` as a person would have typed it: operators, and a word's
    /// leading `~` or `$NAME`, left for the shell (the program, a file a `>` writes, a program
    /// after `&&`), every other word quoted where it needs it.
    static func line(_ argv: [String]) -> String {
        argv.enumerated().map { index, word in
            if index > 0, operators.contains(word) { return word }
            if word == "~" { return word }
            if word.hasPrefix("~/") { return "~/" + quoted(String(word.dropFirst(2))) }
            if word.hasPrefix("$") { return doubleQuoted(word) }
            return quoted(word)
        }.joined(separator: " ")
    }

    /// `word` as one shell word: as it is when every character is plain, else in single quotes.
    public static func quoted(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_./=:,+@%".unicodeScalars.contains(scalar)
        }
        if plain, !word.isEmpty { return word }
        return "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// `word` in double quotes, so a shell still expands its `$NAME`.
    private static func doubleQuoted(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy { !" \t'\"\\`|&;<>(){}*?[]!#".unicodeScalars.contains($0) }
        if plain { return word }
        var escaped = ""
        for character in word {
            if "\"\\`".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return "\"" + escaped + "\""
    }

    /// `text` as a YAML double-quoted scalar.
    private static func yamlQuoted(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "\"" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return "\"" + escaped + "\""
    }
}
