/// One word of input or of a template, normalized for matching and kept as written for values.
public struct Token: Sendable, Hashable, CustomStringConvertible {
    /// Folded: NFKC, lower case, no diacritics, `ß` as `ss`.
    public var text: String
    /// As written (case kept), without the punctuation around it; URLs keep theirs.
    public var raw: String
    /// Punctuation written right after the word (a comma separates list items).
    public var trailing: String
    /// The characters of the original input this token was read from, punctuation around the word
    /// left out (both halves of a contraction share one). Free text is cut from here, so a value
    /// keeps exactly what was typed. Not part of equality.
    public var source: Substring?

    public init(text: String, raw: String, trailing: String = "", source: Substring? = nil) {
        self.text = text
        self.raw = raw
        self.trailing = trailing
        self.source = source
    }

    public var description: String { text }

    public static func == (lhs: Token, rhs: Token) -> Bool {
        lhs.text == rhs.text && lhs.raw == rhs.raw && lhs.trailing == rhs.trailing
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(raw)
        hasher.combine(trailing)
    }
}

extension Array where Element == Token {
    /// The original characters from the start of token `first` to the end of token `last`, as typed
    /// (inner spaces and punctuation kept); the tokens' raw words joined by spaces when the tokens
    /// do not come from one text.
    public func originalText(from first: Int, through last: Int) -> String {
        if let start = self[first].source, let end = self[last].source, start.base == end.base,
            start.startIndex <= end.endIndex
        {
            return String(start.base[start.startIndex..<end.endIndex])
        }
        return self[first...last].map(\.raw).joined(separator: " ")
    }
}
