/// How well a candidate matches, compared part by part in this order (hassil's ranking, made explicit):
/// fewer typo corrections in template words, more literal words, more typed slots that parsed, fewer
/// words of free text, fewer letters corrected in slot values, the app named, fewer filler words skipped.
/// A misspelt value ("bulish", "tommorow") thus still beats reading its words as free text.
public struct Score: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Letters corrected on literal words (edit distance, summed).
    public var edits: Int = 0
    /// Template words matched, app names included.
    public var literalWords: Int = 0
    /// Slots whose value parsed as their type (numbers, dates, enums, known entities, …).
    public var typedSlots: Int = 0
    /// Words taken as free text by string slots and unresolved entity names.
    public var freeWords: Int = 0
    /// Letters corrected in slot values: a misspelt enum case or date word.
    public var corrections: Int = 0
    /// 1 when the sentence names the candidate's app.
    public var appNamed: Int = 0
    /// Filler words skipped ("hey", "please", "can you").
    public var skipped: Int = 0

    public init() {}

    /// The parts in comparison order, larger is better.
    public var parts: [(name: String, value: Int)] {
        [
            ("edits", -edits), ("literal", literalWords), ("typed", typedSlots), ("free", -freeWords),
            ("corrections", -corrections), ("app", appNamed), ("skipped", -skipped),
        ]
    }

    /// Compared field by field in the order of `parts`, without building arrays: this runs while ranking.
    public static func < (lhs: Score, rhs: Score) -> Bool {
        (-lhs.edits, lhs.literalWords, lhs.typedSlots, -lhs.freeWords, -lhs.corrections, lhs.appNamed)
            < (-rhs.edits, rhs.literalWords, rhs.typedSlots, -rhs.freeWords, -rhs.corrections, rhs.appNamed)
            || ((-lhs.edits, lhs.literalWords, lhs.typedSlots, -lhs.freeWords, -lhs.corrections, lhs.appNamed)
                == (-rhs.edits, rhs.literalWords, rhs.typedSlots, -rhs.freeWords, -rhs.corrections, rhs.appNamed)
                && lhs.skipped > rhs.skipped)
    }

    /// The first part where `self` and `other` differ, to say why one lost.
    public func decidingPart(against other: Score) -> String? {
        zip(parts, other.parts).first { $0.value != $1.value }?.0.name
    }

    public var description: String {
        "edits \(edits), literal \(literalWords), typed \(typedSlots), free \(freeWords), corrections \(corrections), "
            + "app \(appNamed), skipped \(skipped)"
    }
}
