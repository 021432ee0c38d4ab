import YAML

/// One file's text as Unicode scalars with the offsets its lines start at: compiler marks (1-based
/// line and column in scalars), scalar offsets and LSP positions (0-based line, UTF-16 character)
/// converted into each other.
struct SourceText {
    let scalars: [Unicode.Scalar]
    /// The scalar offset each line starts at.
    let lineStarts: [Int]

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        var starts = [0]
        for (offset, scalar) in scalars.enumerated() where scalar == "\n" { starts.append(offset + 1) }
        lineStarts = starts
    }

    /// The scalar offset of a mark; past the end of its line or the text, the nearest offset inside.
    func offset(of mark: Mark) -> Int {
        let line = min(max(mark.line - 1, 0), lineStarts.count - 1)
        let end = line + 1 < lineStarts.count ? lineStarts[line + 1] : scalars.count
        return min(lineStarts[line] + max(mark.column - 1, 0), end)
    }

    func position(of offset: Int) -> LSPPosition {
        let offset = min(max(offset, 0), scalars.count)
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let character = scalars[lineStarts[low]..<offset].reduce(0) { $0 + $1.utf16.count }
        return LSPPosition(line: low, character: character)
    }

    func offset(of position: LSPPosition) -> Int {
        guard position.line < lineStarts.count else { return scalars.count }
        var offset = lineStarts[max(position.line, 0)]
        var remaining = position.character
        while remaining > 0, offset < scalars.count, scalars[offset] != "\n" {
            remaining -= scalars[offset].utf16.count
            offset += 1
        }
        return offset
    }

    func range(_ start: Int, _ end: Int) -> LSPRange {
        LSPRange(start: position(of: start), end: position(of: end))
    }

    func text(_ start: Int, _ end: Int) -> String {
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[max(start, 0)..<min(end, scalars.count)])
        return String(result)
    }

    /// Where a scalar node's text is in the file, without its quotes.
    func span(of node: Node) -> (start: Int, end: Int) {
        var start = offset(of: node.range.start), end = max(offset(of: node.range.end), start)
        if let style = node.scalar?.style, style == .singleQuoted || style == .doubleQuoted, end - start >= 2 {
            start += 1
            end -= 1
        }
        // A plain scalar's end mark may lie after trailing spaces or a comment on the next line.
        while end > start, scalars[end - 1] == " " || scalars[end - 1] == "\n" || scalars[end - 1] == "\r" { end -= 1 }
        return (start, end)
    }
}

extension Unicode.Scalar {
    var startsIdentifier: Bool { properties.isAlphabetic || self == "_" }
    var continuesIdentifier: Bool { properties.isAlphabetic || ("0"..."9").contains(self) || self == "_" }
}
