import IntentModel

/// One way the sentence matches an intent: the phrase, the slot values and the score.
public struct Candidate: Sendable {
    /// A slot's value with the tokens it came from.
    public struct Slot: Sendable {
        public var name: String
        public var value: Value
        /// Token positions `[start, end)`.
        public var span: Range<Int>
        /// Parsed as its type (false: free text or an entity name not looked up).
        public var typed: Bool
        /// The words are of the slot's type but name no usable value: the answer is this error.
        public var problem: String? = nil
        /// The slot takes an entity (by name).
        public var entity = false
        /// An entity slot whose words are no name the matcher knows (free text for the store to look up).
        public var unknownName: Bool { entity && !typed }
    }

    /// The first slot whose words name no usable value, with why.
    public var problem: (slot: String, message: String)? {
        slots.first { $0.problem != nil }.map { ($0.name, $0.problem!) }
    }

    public var intent: QualifiedName
    public var template: String
    public var language: String
    public var slots: [Slot]
    public var score: Score
    /// The app the sentence named, if it named one.
    public var namedApp: String?
    public var isNegative: Bool
    /// Values the matched phrase fixes (`set:`), whatever the sentence's words.
    public var phraseValues: [String: Value] = [:]
    /// Slots the sentence began but did not say: it ends with the template's word that introduces
    /// one ("mark chess as" for "mark {task} as {urgency}"). Asked for, even when the parameter has
    /// a default.
    public var begun: [String] = []

    /// The slots' values, and the values the phrase fixes.
    public var values: [String: Value] {
        Dictionary(slots.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            .merging(phraseValues) { slot, _ in slot }
    }
}

/// What matching a sentence gave: the tokens, every candidate ranked best first, and the outcome.
public struct Recognition: Sendable {
    public enum Outcome: Sendable {
        case match(Candidate)
        /// Candidates of different intents too close to call: ask which one.
        case ambiguous([Candidate])
        /// Nothing matched well enough; the closest phrases, spoken.
        case noMatch(suggestions: [String])
    }

    public var tokens: [Token]
    public var candidates: [Candidate]
    public var outcome: Outcome
    /// The language the sentence is taken to be in, when nothing matched: the one asked for, else
    /// the one its words say (nil: neither).
    public var language: String? = nil
}
