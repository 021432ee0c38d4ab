/// How well a candidate matches, compared part by part in this order:
/// fewer entity slots whose words name no entity (when names are known), fewer unknown words passed
/// over, fewer template words the sentence left out, fewer slots not said, more literal words, fewer
/// typo corrections in template words, more typed values that parsed, fewer words of free text, fewer
/// values said outside a slot, fewer letters corrected in slot values, the app named, fewer filler
/// words skipped.
/// A reading whose values resolve thus beats one that matched more template words but left an entity
/// slot naming nothing ("turn off Overhead Light" is the device, not an area "overhead"); a template
/// word read through a typo still beats reading it as free text ("turn on the ligths in the kitchen");
/// a misspelt value ("bulish", "tommorow") beats reading its words as free text.
public struct Score: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Entity slots whose words are no name the matcher knows, while it knows names: the reading
    /// can only ask "which one?". Zero when the matcher has no names to look up.
    public var unresolved: Int = 0
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
    /// Words of the sentence no template word, slot or filler accounts for, passed over at a cost
    /// ("what's my fortune today in fortune" still finds "what's my fortune in fortune").
    public var unknown: Int = 0
    /// Template words the sentence left out, read as if said (the last-resort pass: "refresh radars"
    /// is "refresh my radars").
    public var missing: Int = 0
    /// Slots the sentence does not say at all, asked for afterwards ("add a task" asks "What's the
    /// task?"); only when no reading says every slot.
    public var unsaid: Int = 0
    /// Values said where no template has a slot, given to a parameter of their type ("add a task
    /// buy milk tomorrow"): counted in `typedSlots` too, and here so that a template's own slot
    /// for the same words wins.
    public var anywhere: Int = 0

    public init() {}

    /// The parts in comparison order, larger is better.
    public var parts: [(name: String, value: Int)] {
        [
            ("unresolved", -unresolved), ("unknown", -unknown), ("missing", -missing), ("unsaid", -unsaid),
            ("literal", literalWords),
            ("edits", -edits), ("typed", typedSlots), ("free", -freeWords), ("anywhere", -anywhere),
            ("corrections", -corrections),
            ("app", appNamed), ("skipped", -skipped),
        ]
    }

    /// Compared field by field in the order of `parts`, without building arrays: this runs while ranking.
    public static func < (lhs: Score, rhs: Score) -> Bool {
        let l = (-lhs.unresolved, -lhs.unknown, -lhs.missing, -lhs.unsaid, lhs.literalWords, -lhs.edits)
        let r = (-rhs.unresolved, -rhs.unknown, -rhs.missing, -rhs.unsaid, rhs.literalWords, -rhs.edits)
        if l != r { return l < r }
        if lhs.typedSlots != rhs.typedSlots { return lhs.typedSlots < rhs.typedSlots }
        return (-lhs.freeWords, -lhs.anywhere, -lhs.corrections, lhs.appNamed, -lhs.skipped)
            < (-rhs.freeWords, -rhs.anywhere, -rhs.corrections, rhs.appNamed, -rhs.skipped)
    }

    /// The first part where `self` and `other` differ, to say why one lost.
    public func decidingPart(against other: Score) -> String? {
        zip(parts, other.parts).first { $0.value != $1.value }?.0.name
    }

    /// The parts in order; `missing` only when some template word was left out (most readings leave none).
    public var description: String {
        "unresolved \(unresolved), unknown \(unknown), " + (missing > 0 ? "missing \(missing), " : "")
            + (unsaid > 0 ? "unsaid \(unsaid), " : "")
            + "literal \(literalWords), edits \(edits), typed \(typedSlots), "
            + "free \(freeWords), " + (anywhere > 0 ? "anywhere \(anywhere), " : "")
            + "corrections \(corrections), app \(appNamed), skipped \(skipped)"
    }
}
