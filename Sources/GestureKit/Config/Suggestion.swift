/// "Did you mean …?" for a misspelt word among the ones that would have been valid.
public enum Suggestion {
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let lowered = word.lowercased()
        let scored = candidates.map { ($0, distance(lowered, $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        // A suggestion further away than a third of the word is noise, not help.
        return best.1 <= max(2, word.count / 3) ? best.0 : nil
    }

    /// Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    static func didYouMean(_ word: String, among candidates: [String]) -> String {
        guard let match = closest(to: word, among: candidates) else { return "" }
        return " (did you mean `\(match)`?)"
    }
}
