import Foundation
import IntentModel
import PhraseMatching

/// The learned stage in the dialog: asked when the exact matcher found nothing. Confident, it
/// starts the intent (which still confirms when it deletes or confirms, `--yes` or not); plausible,
/// it asks "Did you mean …?" and waits for yes or no; else the answer stays no match.
extension Conversation {
    /// The learned stage's answer to `text`, or nil to answer no match as before.
    func understand(_ text: String, clock: Clock) -> Answer? {
        guard let stage = session.learned,
            let guess = stage.guess(text, language: options.language, matcher: session.matcher(clock: clock))
        else { return nil }
        switch guess.decision {
        case .none:
            return nil
        case .act:
            return start(guess.candidate, clock: clock, learned: true)
        case .ask:
            guessReading = .init(text: text, language: options.language)
            return ask(guess, text)
        }
    }

    /// A weak exact match the learned stage does not back: asked about, not run; one mostly of free
    /// text that the learned stage is sure means another intent: that intent.
    func review(_ candidate: Candidate, _ text: String, clock: Clock) -> Answer? {
        guard let stage = session.learned,
            let guess = stage.review(
                candidate, text: text, language: options.language, matcher: session.matcher(clock: clock))
        else { return nil }
        if guess.decision == .act { return start(guess.candidate, clock: clock, learned: true) }
        guessReading = .init(text: text, language: options.language)
        return ask(guess, text)
    }

    /// "Did you mean “Track rust”?", waiting for yes or no: the guess said as a sentence of its
    /// intent's phrases with the values found; "Did you mean: Create Radar in Radar (topic “rust”)?"
    /// when no phrase has a slot for every value.
    private func ask(_ guess: LearnedGuess, _ text: String) -> Answer? {
        guard let intent = session.graph.intent(guess.candidate.intent) else { return nil }
        pendingGuess = guess
        // In the language asked for, else in the guessed phrase's.
        let language = options.language ?? guess.candidate.language
        let phrasebook = Phrasebook.of(language)
        // A sentence that says back the very words asked about ("delete the note about stamps",
        // read as deleting a task of that name) shows nothing: the intent and its values do.
        let sentence = session.index.spokenSentence(
            for: guess.candidate, tokens: Normalizer.tokens(text), language: language,
            closest: guess.template
        ).flatMap { Normalizer.foldedWords($0) == Normalizer.foldedWords(text) ? nil : $0 }
        let dialog =
            sentence.map(phrasebook.didYouMeanSaying)
            ?? phrasebook.didYouMean(Self.describe(guess.candidate, intent))
        return Answer(
            status: .needsConfirmation, app: intent.name.app, intent: intent.name,
            parameters: guess.candidate.slots.map { (name: $0.name, value: JSONValue.string($0.value.description)) },
            dialog: dialog)
    }

    /// "Create Radar about “quantum physics”": the title, then each value found, quoted.
    static func describe(_ candidate: Candidate, _ intent: IntentGraph.Intent) -> String {
        var text = "\(intent.title) in \(intent.name.app)"
        let values = candidate.slots.map { slot in
            "\(intent.parameter(slot.name)?.title.lowercased() ?? slot.name) “\(slot.value.description)”"
        }
        if !values.isEmpty { text += " (" + values.joined(separator: ", ") + ")" }
        return text
    }

    /// Yes starts the guessed intent; no cancels; anything else drops the question and is a new phrase.
    func replyToGuess(_ guess: LearnedGuess, _ text: String, clock: Clock) -> Answer? {
        pendingGuess = nil
        let folded = Normalizer.foldedWords(text)
        let words = ConversationWords.understood
        if words.yes.contains(folded) {
            // Said yes to this very intent: a question of its own would ask the same again.
            let answer = start(guess.candidate, clock: clock, learned: true)
            return answer
        }
        if words.no.contains(folded) || words.cancel.contains(folded) {
            return Answer(
                status: .cancelled, app: guess.candidate.intent.app, intent: guess.candidate.intent,
                dialog: Phrasebook.of(options.language).cancelled)
        }
        return nil
    }
}
