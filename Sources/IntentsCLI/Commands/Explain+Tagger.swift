import Foundation
import IntentModel
import IntentProject
import PhraseMatching

extension Explain {
    /// For an exact match that took free text: the slot tagger's reading of the same intent and
    /// whether it divides the free text anew (as `say` would).
    func taggerRevision(_ recognition: Recognition, project: Project, matcher: Matcher) -> TaggerRevision? {
        guard case .match(let candidate) = recognition.outcome, let index = project.index else { return nil }
        var options = StoreOptions()
        options.storePath = storePath
        let stage = options.learnedStage(project, index: index)
        return stage.revise(candidate, text: sentence.joined(separator: " "), matcher: matcher)
    }
}

extension ExplainRenderer {
    /// The tagger's labels under the learned stage's guess, when it filled the slots.
    static func render(tagging: TaggerReading?, tokens: [Token]) -> String {
        guard let tagging else { return "" }
        var out = String(format: "   tagger (score %.2f): ", tagging.score) + tagging.labelled(tokens) + "\n"
        for rejected in tagging.rejected {
            out += "   tagger: “\(rejected.words)” is no \(rejected.slot) (not a value of its type): asked instead\n"
        }
        return out
    }

    /// Whether the tagger's reading of an exact match's free text was taken, and why.
    static func render(_ revision: TaggerRevision?, tokens: [Token]) -> String {
        guard let revision else { return "" }
        var out =
            String(format: "tagger (score %.2f): ", revision.reading.score) + revision.reading.labelled(tokens) + "\n"
        out += "   " + (revision.taken ? "takes" : "keeps the match's values") + ": " + revision.description + "\n"
        if revision.taken {
            for slot in revision.candidate.slots { out += "   \(slot.name) = \(slot.value)\n" }
        }
        return out
    }
}

extension ExplainReport {
    /// The tagger's part, in `explain --json`.
    struct Tagger: Encodable {
        var labels: [String]
        var score: Double
        /// For an exact match: whether its reading replaced the match's values, and the parts that decided.
        var taken: Bool?
        var decidedBy: String?
        var slots: [String: String]

        init(_ reading: TaggerReading, revision: TaggerRevision? = nil) {
            labels = reading.labels
            score = reading.score
            taken = revision?.taken
            decidedBy = revision?.description
            let slots = revision.map { $0.taken ? $0.candidate.slots : [] } ?? reading.slots
            self.slots = Dictionary(
                slots.map { ($0.name, $0.value.description) }, uniquingKeysWith: { first, _ in first })
        }
    }
}
