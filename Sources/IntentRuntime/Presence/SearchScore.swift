/// How well a search hit matches, compared part by part in this order: fewer words matched only
/// through a typo, fewer matched only as a prefix or stem, more words found in the title, an action
/// with an app shortcut (what Spotlight puts first), then FTS5's bm25 (lower is better; actions,
/// which are not in the index, have 0).
public struct SearchScore: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Query words that matched only with a typo corrected ("mlk" → "milk").
    public var typos = 0
    /// Query words that matched only as the start of a word or by their stem ("eink" → "einkaufen").
    public var partial = 0
    /// Query words found in the title.
    public var inTitle = 0
    /// 1 for an action that has an app shortcut.
    public var shortcut = 0
    /// bm25 over title (weight 10), keywords (5) and description (2): lower is better.
    public var bm25 = 0.0

    public init() {}

    /// The parts in comparison order, larger is better.
    public var parts: [(name: String, value: Double)] {
        [
            ("typos", Double(-typos)), ("partial", Double(-partial)), ("title", Double(inTitle)),
            ("shortcut", Double(shortcut)), ("bm25", -bm25),
        ]
    }

    /// Better hits are smaller: they sort first.
    public static func < (lhs: SearchScore, rhs: SearchScore) -> Bool {
        (lhs.typos, lhs.partial, -lhs.inTitle, -lhs.shortcut, lhs.bm25)
            < (rhs.typos, rhs.partial, -rhs.inTitle, -rhs.shortcut, rhs.bm25)
    }

    /// The first part where `self` and `other` differ, to say why one ranks above the other.
    public func decidingPart(against other: SearchScore) -> String? {
        zip(parts, other.parts).first { $0.value != $1.value }?.0.name
    }

    public var description: String {
        "typos \(typos), partial \(partial), in title \(inTitle), shortcut \(shortcut), bm25 \(bm25 == 0 ? "0" : String(format: "%.3f", bm25))"
    }
}
