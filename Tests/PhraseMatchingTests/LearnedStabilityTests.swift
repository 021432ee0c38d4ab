import Foundation
import IntentLanguage
import IntentModel
import TestSupport
import Testing

@testable import PhraseMatching

/// An author adds an app, and nothing the other apps understood moves: what the classifier draws by
/// chance for a phrase or a sentence is seeded by what it is, each pass's order and the held-out
/// tenth are the sentences' own hashes, and the fit is calibrated, then refitted on every sentence.
/// Before, one generator served all of training: an app more moved every draw after it, and single
/// guesses of the other apps by up to 0.6 (BENCHMARKS.md, para9).
@Suite("The learned stage stays put when an unrelated app is added", .tags(.slow), .skippedWhenFast)
struct LearnedStabilityTests {
    /// An app nothing else is about, with phrases and `training:` sentences of its own.
    static let aquarium = """
        app: Aquarium
        languages: [en]
        intents:
          FeedFish:
            parameters: { grams: { type: integer, default: 2 } }
            phrases: ["feed the fish [{grams} grams]", "give the fish {grams} grams of food"]
            training: ["the fish look hungry", "time for the fish to eat"]
            result: { dialog: "Fed." }
          WaterTemperature:
            phrases: ["(how warm|what temperature) is the (tank|aquarium|water)"]
            training: ["is the tank too cold", "check the water temperature of the aquarium"]
            result: { dialog: "25 degrees." }
        """

    /// Requests to the frozen apps in words no phrase has: most go to the learned stage.
    static let sentences = [
        "could you start following the steel industry", "i'd love a radar about mountain bikes",
        "any news on the steel industry", "pull up what i track on mountain bikes",
        "what topics do i follow at the moment", "please forget the steel industry radar",
        "how are my stars looking today", "is my career going to go well this week",
        "do a virgo and a pisces work together", "give me some other fortune",
        "jot this down: the keys are under the mat", "what notes did i make lately",
        "let's discuss the garden party", "put renew the lease on my list",
        "i got the laundry done", "anything left i should do",
        "give me 30 minutes for the essay", "stop my focus session please",
    ]

    static func stage(adding extra: String?) throws -> LearnedStage {
        let root = FrozenApps.directory
        let enumerator = FileManager.default.enumerator(atPath: root)
        var files: [(path: String, bytes: [UInt8])] = []
        while let relative = enumerator?.nextObject() as? String {
            guard relative.hasSuffix(".yaml") else { continue }
            let data = try Data(contentsOf: URL(fileURLWithPath: root + "/" + relative))
            files.append(("Intents/" + relative, Array(data)))
        }
        files.sort { $0.path < $1.path }
        if let extra { files.insert(("Intents/aquarium/app.yaml", Array(extra.utf8)), at: 0) }
        let graph = try #require(IntentCompiler.compile(files: files, root: "Intents").graph)
        return LearnedStage(index: PhraseIndex(graph: graph), training: LearnedStage.trainingSentences(of: graph))
    }

    @Test("Adding an unrelated app keeps the other apps' guesses and moves their confidences by little")
    func unrelatedApp() throws {
        let before = try Self.stage(adding: nil), after = try Self.stage(adding: Self.aquarium)
        var changes: [Double] = []
        for sentence in Self.sentences {
            let a = before.classification(sentence), b = after.classification(sentence)
            let first = try #require(a.ranking.first), second = try #require(b.ranking.first)
            // The same guess, wherever it is one at all (a sentence both find nothing in may rank
            // two intents at 0.001 either way).
            if max(first.probability, second.probability) >= 0.1 {
                #expect(first.intent == second.intent, "\(sentence)")
            }
            changes.append(abs(first.probability - second.probability))
            #expect(changes.last! <= 0.1, "\(sentence): \(first.probability) → \(second.probability)")
        }
        let mean = changes.reduce(0, +) / Double(changes.count)
        #expect(mean <= 0.03, "mean change \(mean)")
    }
}
