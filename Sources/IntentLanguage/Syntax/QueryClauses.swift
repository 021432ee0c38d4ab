import Foundation

/// Splits a one-line query, `Task where !isCompleted sort urgency, -createdAt limit 3`, into its
/// entity and clauses. Keywords count only as whole words outside quotes and brackets, so a `where`
/// expression may compare with the text 'sort by date'.
struct QueryClauses {
    /// A piece of the query text and its offset in Unicode scalars.
    struct Piece {
        var text: String
        var offset: Int
        var message = ""
    }

    var entity: Piece?
    var filter: Piece?
    var sort: [Piece] = []
    var limit: Piece?
    var problems: [Piece] = []

    static let keywords = ["where", "sort", "limit"]

    static func split(_ text: String) -> QueryClauses {
        let scalars = Array(text.unicodeScalars)
        var words: [(start: Int, end: Int)] = []
        var depth = 0
        var quote: Unicode.Scalar?
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if let open = quote {
                if scalar == open { quote = nil }
                index += 1
                continue
            }
            switch scalar {
            case "'", "\"": quote = scalar
            case "(", "[": depth += 1
            case ")", "]": depth = max(0, depth - 1)
            default:
                if depth == 0, scalar.properties.isAlphabetic, index == 0 || !isWordScalar(scalars[index - 1]) {
                    var end = index
                    while end < scalars.count, isWordScalar(scalars[end]) { end += 1 }
                    words.append((index, end))
                    index = end
                    continue
                }
            }
            index += 1
        }
        func string(_ start: Int, _ end: Int) -> String { String(String.UnicodeScalarView(scalars[start..<end])) }
        func piece(_ start: Int, _ end: Int) -> Piece {
            var (start, end) = (start, end)
            while start < end, scalars[start].properties.isWhitespace { start += 1 }
            while end > start, scalars[end - 1].properties.isWhitespace { end -= 1 }
            return Piece(text: string(start, end), offset: start)
        }
        let clauses = words.filter { keywords.contains(string($0.start, $0.end)) }
        var result = QueryClauses()
        let head = piece(0, clauses.first?.start ?? scalars.count)
        if !head.text.isEmpty { result.entity = head }
        var seen: Set<String> = []
        for (number, clause) in clauses.enumerated() {
            let keyword = string(clause.start, clause.end)
            let body = piece(clause.end, number + 1 < clauses.count ? clauses[number + 1].start : scalars.count)
            if seen.contains(keyword) {
                result.problems.append(Piece(text: keyword, offset: clause.start, message: "a second '\(keyword)'"))
                continue
            }
            seen.insert(keyword)
            if body.text.isEmpty {
                result.problems.append(
                    Piece(text: keyword, offset: clause.start, message: "'\(keyword)' needs something after it"))
                continue
            }
            switch keyword {
            case "where": result.filter = body
            case "limit": result.limit = body
            default:
                var offset = body.offset
                for key in body.text.split(separator: ",", omittingEmptySubsequences: false) {
                    let trimmed = key.trimmingCharacters(in: .whitespaces)
                    let lead = key.unicodeScalars.prefix { $0.properties.isWhitespace }.count
                    if !trimmed.isEmpty { result.sort.append(Piece(text: trimmed, offset: offset + lead)) }
                    offset += key.unicodeScalars.count + 1
                }
            }
        }
        return result
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == "_" || scalar == "."
    }
}
