/// One word of input or of a template, normalized for matching and kept as written for values.
public struct Token: Sendable, Hashable, CustomStringConvertible {
    /// Folded: NFKC, lower case, no diacritics, `ß` as `ss`.
    public var text: String
    /// As written (case kept), without the punctuation around it; URLs keep theirs.
    public var raw: String
    /// Punctuation written right after the word (a comma separates list items).
    public var trailing: String

    public init(text: String, raw: String, trailing: String = "") {
        self.text = text
        self.raw = raw
        self.trailing = trailing
    }

    public var description: String { text }
}
