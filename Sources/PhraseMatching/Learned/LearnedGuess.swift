import IntentModel

/// When the learned stage acts, asks, or leaves the sentence unanswered: confidence from 0 to 1.
/// Defaults for every app; an app may set its own (`understanding: {act: 0.9, ask: 0.6}`).
public struct LearnedThresholds: Sendable, Hashable {
    /// At or above: the guessed intent runs (confirming first when it deletes or confirms anyway).
    public var act: Double
    /// At or above (and below `act`): "Did you mean …?"; below: no match, with suggestions.
    public var ask: Double

    public init(act: Double = 0.8, ask: Double = 0.5) {
        self.act = act
        self.ask = ask
    }

    public static let standard = LearnedThresholds()
}

/// What the learned stage made of a sentence the exact matcher could not answer.
public struct LearnedGuess: Sendable {
    public enum Decision: String, Sendable {
        /// Confident: run it (confirmation still asked for intents that delete or confirm).
        case act
        /// Plausible: ask "Did you mean …?" before anything runs.
        case ask
        /// Not understood: no match.
        case none
    }

    /// The best intent, with the slot values found by aligning the sentence with its phrases.
    public var candidate: Candidate
    /// Calibrated: about the share of such guesses that are right.
    public var confidence: Double
    public var decision: Decision
    public var thresholds: LearnedThresholds
    /// The phrase template most like the sentence.
    public var template: String
    /// The classifier's most likely intents, most likely first, with their probabilities.
    public var ranking: [(intent: QualifiedName, probability: Double)] = []
    /// The classifier's probability that the sentence is none of the intents.
    public var noneProbability: Double = 0
    /// The runner-up intent (the classifier's second) and its probability.
    public var runnerUp: (intent: QualifiedName, similarity: Double)?
    public var similarity: Double
    /// Share of the sentence's word pairs the phrase has (order), of its words the definitions know.
    public var pairCoverage: Double
    public var known: Double
    /// The unknown word without which the sentence is a phrase of the intent, when there is one.
    public var alignedLeavingOut: String?
    /// The article or preposition with which the sentence is a phrase of the intent, when there is one.
    public var alignedAdding: String?
    /// The `training:` sentence whose words the sentence says, its values other ones, when it does.
    public var alignedTraining: String?
    /// The words and word pairs that carried the decision, with their share of the similarity.
    public var carriedBy: [(feature: String, weight: Double)]
    /// How long the stage took to train (0 when the model came from the cache or was trained before).
    public var trainingSeconds: Double = 0
    /// The sentence's words WordNet linked to words of the definitions ("erase" → ["delete"]).
    public var readAs: [(said: String, as: [String])] = []
    /// The slot tagger's labels and values, when it filled the slots.
    public var tagging: TaggerReading? = nil
    /// Why the guess was worth a step less than its confidence says (asks rather than acts, or says
    /// nothing rather than ask): the last of the guards that said so.
    public var demotedBecause: String? = nil
    /// Whether values of the intent's own enums, each in one of its slots, made a plausible guess
    /// act rather than ask.
    public var promotedByValues = false

    /// One line for `explain`: why.
    public var reason: String {
        var text = String(
            format: "closest phrase \"%@\" (similarity %.2f), word order %.0f%%, words known %.0f%%", template,
            similarity,
            pairCoverage * 100, known * 100)
        if let alignedLeavingOut { text += "; a phrase of it but for \"\(alignedLeavingOut)\"" }
        if let alignedAdding { text += "; a phrase of it with \"\(alignedAdding)\"" }
        if let alignedTraining { text += "; the words of its training sentence \"\(alignedTraining)\"" }
        if !readAs.isEmpty {
            text +=
                "; read "
                + readAs.map { "\"\($0.said)\" as \($0.as.map { "\"\($0)\"" }.joined(separator: " or "))" }
                .joined(separator: ", ") + " (WordNet)"
        }
        if let runnerUp {
            text += String(format: "; runner-up %@ at %.2f", runnerUp.intent.description, runnerUp.similarity)
        }
        text += String(format: "; none of them %.2f", noneProbability)
        if let demotedBecause { text += "; a step down: \(demotedBecause)" }
        if promotedByValues { text += "; a step up: the values it names are its own" }
        return text
    }
}
