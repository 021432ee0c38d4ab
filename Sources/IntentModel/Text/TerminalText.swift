/// Text as a terminal draws it: how many columns it takes, and cut to fit with "…".
public enum TerminalText {
    /// Columns `scalar` takes: 0 for combining marks and joiners, 2 for wide East Asian characters and
    /// emoji, 1 otherwise.
    public static func width(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value == 0x200D || (0xFE00...0xFE0F).contains(value) { return 0 }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD,
        ]
        return wide.contains { $0.contains(value) } ? 2 : 1
    }

    public static func width(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + width($1) }
    }

    /// `text` in at most `columns` columns: whole characters, "…" where it was cut.
    public static func fit(_ text: String, _ columns: Int) -> String {
        guard columns > 0 else { return "" }
        if width(text) <= columns { return text }
        var result = ""
        var used = 0
        for character in text {
            let w = width(String(character))
            if used + w > columns - 1 { break }
            result.append(character)
            used += w
        }
        return result + "…"
    }

    /// `text` fitted and padded with spaces to exactly `columns` columns.
    public static func pad(_ text: String, _ columns: Int) -> String {
        let fitted = fit(text, columns)
        return fitted + String(repeating: " ", count: max(0, columns - width(fitted)))
    }

    /// `text` fitted and centred in `columns` columns.
    public static func center(_ text: String, _ columns: Int) -> String {
        let fitted = fit(text, columns)
        let room = max(0, columns - width(fitted))
        return String(repeating: " ", count: room / 2) + fitted + String(repeating: " ", count: room - room / 2)
    }

    /// `left` and `right` on one line of `columns`, `right` kept whole when it fits with a little of `left`.
    public static func spread(_ left: String, _ right: String, _ columns: Int) -> String {
        let rightWidth = min(width(right), max(0, columns - 6))
        let right = fit(right, rightWidth)
        guard !right.isEmpty else { return pad(left, columns) }
        return pad(left, columns - width(right) - 1) + " " + right
    }

    /// `text` on one line: line breaks and tabs become spaces, runs of them one.
    public static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isNewline || $0 == "\t" }).joined(separator: " ")
    }
}
