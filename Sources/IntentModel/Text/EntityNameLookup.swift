/// Entity names the matcher may look up (the store provides one; tests an in-memory one).
public protocol EntityNameLookup: Sendable {
    /// Names of `entity` that the tokens `text` could mean, best first, with their edit distance.
    func lookup(_ text: String, entity: QualifiedName) -> [(name: String, distance: Int)]
    /// The look-up one phrase uses (read once per phrase: a store's names in memory, or its spans
    /// remembered); by default this one.
    func forPhrase() -> any EntityNameLookup
    /// What any text `lookup` finds a name of `entity` for has, to rule out a span without looking it
    /// up; nil (the default) when there is no such test and every span is looked up.
    func bounds(of entity: QualifiedName) -> EntityNameBounds?
}

extension EntityNameLookup {
    public func forPhrase() -> any EntityNameLookup { self }
    public func bounds(of entity: QualifiedName) -> EntityNameBounds? { nil }
}

/// A necessary condition for a look-up to find a name (`EntityNameLookup.bounds(of:)`): the text is
/// within three characters of a name's length (three edits at most are a typo), and, when it is
/// several words, one of them is a word of some name (a typo is searched among the names that share
/// a word); a single word that is no name's word is at least four characters (a typo of a name).
/// A test that says yes may still find nothing; one that says no is never wrong.
public struct EntityNameBounds: Sendable {
    /// The fewest and most characters of a name (folded), or nil when there are no names.
    public let lengths: ClosedRange<Int>?
    /// Whether some name has this (folded) word.
    public let hasWord: @Sendable (String) -> Bool

    public init(lengths: ClosedRange<Int>?, hasWord: @escaping @Sendable (String) -> Bool) {
        self.lengths = lengths
        self.hasWord = hasWord
    }

    /// The most edits a typo of a name may have (`EntityNameIndex`: one per five letters, at most three).
    public static let maximumEdits = 3

    /// Whether a text of `characters` characters (a range when only bounds are known) and `words`
    /// words may name something, one of its words a name's or none.
    public func mayName(characters: ClosedRange<Int>, words: Int, someWordKnown: Bool) -> Bool {
        guard let lengths, characters.upperBound + Self.maximumEdits >= lengths.lowerBound,
            characters.lowerBound - Self.maximumEdits <= lengths.upperBound
        else { return false }
        return someWordKnown || (words == 1 && characters.upperBound >= 4)
    }
}
