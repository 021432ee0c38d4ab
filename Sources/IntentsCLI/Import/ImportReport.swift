/// What an import could not carry over, line by line with why, and what it made.
struct ImportReport {
    struct Entry {
        var file: String
        var line: Int
        var column: Int
        var what: String
        var why: String
    }

    private(set) var entries: [Entry] = []

    mutating func lost(_ what: String, why: String, file: String, line: Int, column: Int = 1) {
        entries.append(Entry(file: file, line: line, column: column, what: what, why: why))
    }

    /// The report: a summary line, then one line per thing left behind, in file order.
    func render(summary: String) -> String {
        var lines = [summary]
        if entries.isEmpty {
            lines.append("Everything was carried over.")
        } else {
            lines.append("Not carried over (\(entries.count)):")
            let sorted = entries.enumerated().sorted {
                ($0.element.file, $0.element.line, $0.element.column, $0.offset)
                    < ($1.element.file, $1.element.line, $1.element.column, $1.offset)
            }
            for (_, entry) in sorted {
                lines.append("  \(entry.file):\(entry.line):\(entry.column): \(entry.what): \(entry.why)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
