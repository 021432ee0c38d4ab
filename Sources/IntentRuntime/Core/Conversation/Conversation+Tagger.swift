import IntentModel
import PhraseMatching

extension Conversation {
    /// An exact match whose values took free text, with the free text divided anew by the slot tagger
    /// when its reading keeps the template's words and every value parses (`LearnedStage.revise`).
    func revised(_ candidate: Candidate, _ text: String, clock: Clock) -> Candidate {
        guard let stage = session.learned,
            let revision = stage.revise(candidate, text: text, matcher: session.matcher(clock: clock))
        else { return candidate }
        return revision.candidate
    }
}
