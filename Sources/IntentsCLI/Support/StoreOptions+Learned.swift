import Foundation
import IntentModel
import IntentProject
import IntentRuntime
import PhraseMatching

extension StoreOptions {
    /// The learned stage for `project`, cached beside the store (`.intents/learned-<hash>.bin`), keyed
    /// by the definition files' contents.
    func learnedStage(_ project: Project, index: PhraseIndex) -> LearnedStage {
        let stage = LearnedStage(
            index: index, cacheDirectory: cacheDirectory,
            definitionsHash: LearnedStage.definitionsHash(digest: project.definitionsDigest),
            thresholds: project.graph.map(LearnedStage.thresholds(of:)) ?? [:],
            training: project.graph.map(LearnedStage.trainingSentences(of:)) ?? [:])
        stage.compiled = project.compiled
        return stage
    }
}

extension LearnedStage.Origin {
    /// What `say` prints when the model was trained in this process (nil when it came from the cache).
    func note(cacheFile: String?) -> String? {
        let where_ = cacheFile.map { "; cached in \($0)" } ?? ""
        switch self {
        case .cached: return nil
        case .trained(let seconds):
            return String(format: "note: trained the learned stage in %.0f ms", seconds * 1000) + where_ + "\n"
                + (LearnedStage.lexicon == "none" && ProcessInfo.processInfo.environment["INTENTS_USE_WORDNET"] == "1"
                    ? "note: WordNet is not installed (Debian package wordnet-base): words the definitions do not have "
                        + "are not related to theirs\n" : "")
        case .rebuilt(let seconds):
            return String(
                format: "note: the learned stage's cache was unreadable; retrained in %.0f ms", seconds * 1000)
                + where_ + "\n"
        }
    }
}
