import Foundation
import IntentProject
import IntentRuntime
import PhraseMatching

extension Explain {
    /// The learned stage's guess when the exact matcher found nothing (its model from the cache beside
    /// the store, as `say` would use it), on the sentence as typed: tokens joined again would read a
    /// contraction's expansion as words of their own.
    func learnedGuess(
        _ sentence: String, _ recognition: Recognition, project: Project, matcher: Matcher
    ) -> LearnedGuess? {
        guard case .noMatch = recognition.outcome, let index = project.index else { return nil }
        var options = StoreOptions()
        options.storePath = storePath
        let stage = options.learnedStage(project, index: index)
        return stage.guess(sentence, language: lang, matcher: matcher)
    }
}

extension ExplainRenderer {
    /// Which stage answered, and for the learned one why: confidence against the thresholds, the
    /// closest phrase, the words that carried it, the values found.
    static func render(_ guess: LearnedGuess?, _ recognition: Recognition) -> String {
        guard let guess else {
            if case .noMatch = recognition.outcome { return "\nstage: none (no word of the sentence is known)\n" }
            return "\nstage: exact\n"
        }
        let verdict: String
        switch guess.decision {
        case .act: verdict = "acts"
        case .ask: verdict = "asks \"Did you mean …?\""
        case .none: verdict = "no match"
        }
        var out = "\nstage: learned (the exact matcher found nothing)\n"
        out += String(
            format: "   %@ %@: confidence %.2f (acts from %.2f, asks from %.2f)\n", guess.candidate.intent.description,
            verdict, guess.confidence, guess.thresholds.act, guess.thresholds.ask)
        out += "   why: \(guess.reason)\n"
        out +=
            "   carried by: "
            + guess.carriedBy.map { String(format: "\"%@\" %.0f%%", $0.feature, $0.weight * 100) }
            .joined(separator: ", ") + "\n"
        for slot in guess.candidate.slots {
            out += "   \(slot.name) = \(slot.value)\n"
        }
        return out
    }
}

extension ExplainReport {
    struct Learned: Encodable {
        var intent: String
        var decision: String
        var confidence: Double
        var act: Double
        var ask: Double
        var template: String
        var similarity: Double
        var carriedBy: [String]
        var slots: [String: String]

        init(_ guess: LearnedGuess) {
            intent = guess.candidate.intent.description
            decision = guess.decision.rawValue
            confidence = guess.confidence
            act = guess.thresholds.act
            ask = guess.thresholds.ask
            template = guess.template
            similarity = guess.similarity
            carriedBy = guess.carriedBy.map(\.feature)
            slots = Dictionary(
                guess.candidate.slots.map { ($0.name, $0.value.description) }, uniquingKeysWith: { first, _ in first })
        }
    }
}
