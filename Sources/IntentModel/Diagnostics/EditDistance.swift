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

    /// The distance between two already folded strings when it is at most `limit`, else nil.
    /// On bytes for ASCII text, stopping as soon as every alignment is past the limit: the
    /// matcher's typo checks call this on hot paths.
    public static func within(_ a: String, _ b: String, limit: Int) -> Int? {
        guard abs(a.utf8.count - b.utf8.count) <= limit else { return nil }
        var a = a, b = b
        let ascii = a.utf8.allSatisfy { $0 < 0x80 } && b.utf8.allSatisfy { $0 < 0x80 }
        guard ascii else {
            let distance = between(a, b)
            return distance <= limit ? distance : nil
        }
        return a.withUTF8 { x in b.withUTF8 { y in within(x, y, limit: limit) } }
    }

    /// Only the band of cells within `limit` of the diagonal is worked out (a cell further away is
    /// more than `limit` edits on any alignment): the cells just outside it are set past the limit, so
    /// a distance within the limit comes out exactly as from the whole table, and one past it as nil.
    private static func within(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, limit: Int) -> Int? {
        if a.isEmpty { return b.count <= limit ? b.count : nil }
        if b.isEmpty { return a.count <= limit ? a.count : nil }
        let width = b.count + 1
        let past = limit + 1
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: width * 3) { rows -> Int? in
            var beforeLast = 0, last = width, current = width * 2
            for j in 0...b.count { rows[last + j] = j <= limit ? j : past }
            for i in 1...a.count {
                let low = max(1, i - limit), high = min(b.count, i + limit)
                // The lengths differ by at most `limit` (checked by the caller), so the band is never empty.
                rows[current] = i
                if low > 1 { rows[current + low - 1] = past }
                var rowMinimum = low == 1 ? i : past
                for j in low...high {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    var value = min(rows[last + j] + 1, rows[current + j - 1] + 1, rows[last + j - 1] + cost)
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                        value = min(value, rows[beforeLast + j - 2] + 1)
                    }
                    rows[current + j] = value
                    rowMinimum = min(rowMinimum, value)
                }
                if high < b.count { rows[current + high + 1] = past }
                if rowMinimum > limit { return nil }
                (beforeLast, last, current) = (last, current, beforeLast)
            }
            let distance = rows[last + b.count]
            return distance <= limit ? distance : nil
        }
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
