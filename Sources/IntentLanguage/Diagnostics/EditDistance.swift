/// Levenshtein distance, for "did you mean …?" suggestions.
public enum EditDistance {
    /// The number of single-character edits between two strings (case-insensitive).
    public static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased()), b = Array(b.lowercased())
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
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

    /// The closest candidate within a third of the name's length (at least 1, at most 3 edits).
    public static func closest(to name: String, in candidates: some Sequence<String>) -> String? {
        let limit = min(3, max(1, name.count / 3))
        var best: (String, Int)?
        for candidate in candidates where candidate != name {
            let distance = between(name, candidate)
            if distance <= limit, distance < (best?.1 ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.0
    }
}
