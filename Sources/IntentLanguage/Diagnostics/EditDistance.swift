/// Levenshtein distance, for "did you mean …?" suggestions.
public enum EditDistance {
    /// The number of single-character edits between two strings, a swap of neighbours counting
    /// as one (optimal string alignment), ignoring case.
    public static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased().unicodeScalars), b = Array(b.lowercased().unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Three rows, reused: the one before last (for swaps), the last, and the current.
        let width = b.count + 1
        var beforeLast = [Int](repeating: 0, count: width)
        var last = Array(0...b.count)
        var current = [Int](repeating: 0, count: width)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(last[j] + 1, current[j - 1] + 1, last[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, beforeLast[j - 2] + 1)
                }
                current[j] = value
            }
            (beforeLast, last, current) = (last, current, beforeLast)
        }
        return last[b.count]
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
