import Foundation
import IntentLanguage
import IntentModel
import TestSupport
import Testing

@testable import PhraseMatching

@Suite("The learned stage: sentences the exact matcher misses, confidence, the compiled cache")
struct LearnedStageTests {
    static let stage = LearnedStage(index: Bundled.matcher.index)

    func learned(_ sentence: String) -> LearnedGuess? {
        Self.stage.guess(sentence, matcher: Bundled.matcher)
    }

    @Test("A phrase with a word no phrase has is understood, and says why")
    func unseenWord() throws {
        // The exact matcher's last-resort pass takes one unknown word too; the stage is asked directly.
        let guess = try #require(learned("what should I do next honestly"))
        #expect(guess.candidate.intent.description == "FocusBlox.GetNextUp")
        #expect(guess.decision == .act)
        #expect(guess.confidence >= guess.thresholds.act)
        #expect(guess.alignedLeavingOut == "honestly")
        #expect(guess.reason.contains("but for \"honestly\""))
        #expect(!guess.carriedBy.isEmpty)
    }

    @Test("Slot values come from the sentence less its unknown word")
    func slotsOfAnUnseenWord() throws {
        let guess = try #require(learned("remove banana the task pay rent"))
        #expect(guess.candidate.intent.description == "FocusBlox.DeleteTask")
        #expect(guess.candidate.values["task"] == .string("pay rent"))
    }

    @Test("A phrase with its article or preposition left out is understood, values and all")
    func droppedWord() throws {
        let guess = try #require(learned("add buy milk my tasks"))
        #expect(guess.candidate.intent.description == "FocusBlox.CreateTask")
        #expect(guess.decision == .act)
        #expect(guess.alignedAdding == "to")
        #expect(guess.candidate.values["title"] == .string("buy milk"))
    }

    @Test(
        "Out-of-domain sentences and sentences said backwards are not acted on",
        arguments: [
            "what's the weather like today", "tell me a joke", "play some jazz", "how do I get to the train station",
            "what's the capital of australia", "list radar my show", "fortune my is what",
        ])
    func outOfDomain(_ sentence: String) {
        if case .match(let candidate) = Bundled.matcher.recognize(sentence).outcome {
            Issue.record("the exact matcher takes “\(sentence)” as \(candidate.intent)")
            return
        }
        let decision = learned(sentence)?.decision ?? .none
        #expect(decision == .none, "“\(sentence)”")
    }

    @Test(
        "A word or phrase no phrase has is read as the word WordNet says it stands for; values stay as said",
        .enabled(if: WordNet() != nil, "WordNet (Debian wordnet-base) is not installed"))
    func wordNetLinks() throws {
        #expect(Self.stage.model.usesWordNet)
        let erase = try #require(learned("erase my interest rates radar"))
        #expect(erase.candidate.intent.description == "Radar.DeleteRadar")
        #expect(erase.candidate.values["radar"] == .string("interest rates"))
        #expect(erase.reason.contains(#"read "erase" as "delete" (WordNet)"#))
        #expect(erase.carriedBy.contains { $0.feature == #""erase" as "delete""# })
        let phrase = try #require(learned("get rid of the rust radar"))
        #expect(phrase.candidate.intent.description == "Radar.DeleteRadar")
        #expect(phrase.candidate.values["radar"] == .string("rust"))
        let display = try #require(learned("display the radar about rust"))
        #expect(display.candidate.intent.description == "Radar.OpenRadar")
        #expect(display.decision == .act)
        #expect(display.candidate.values["radar"] == .string("rust"))
    }

    @Test("Training twice gives the same bytes")
    func deterministic() {
        let index = PhraseIndex(graph: Bundled.graph)
        let first = LearnedTrainer.train(index: index).encoded(definitionsHash: 1)
        let second = LearnedTrainer.train(index: index).encoded(definitionsHash: 1)
        #expect(first == second)
        #expect(first.count > 1_000)
    }

    /// An app with more intents than every training step updates (`denseClassLimit`): each intent
    /// is "switch the <name> lamp on", names made of two syllables ("bako", "bake", …).
    static let manyIntents: IntentGraph = {
        let syllables = ["ba", "ke", "lo", "mi", "nu", "po", "ra", "si", "tu", "ve", "wo", "xa", "yo", "zu", "de"]
        var yaml = "app: Lamps\nintents:\n"
        for at in 0...LearnedClassifier.denseClassLimit + 4 {
            let name = syllables[at / syllables.count] + syllables[at % syllables.count]
            yaml += "  Lamp\(at):\n    phrases: [\"switch the \(name) lamp on\", \"turn \(name) on\"]\n"
            yaml += "    result: { dialog: \"\(name)\" }\n"
        }
        return IntentCompiler.compile(files: [("Intents/lamps/app.yaml", Array(yaml.utf8))], root: "Intents").graph!
    }()

    @Test("Beyond the classes every step updates, training twice still gives the same bytes, and a model that works")
    func deterministicWithManyIntents() {
        let index = PhraseIndex(graph: Self.manyIntents)
        #expect(index.graph.apps[0].intents.count > LearnedClassifier.denseClassLimit)
        let model = LearnedTrainer.train(index: index)
        let first = model.encoded(definitionsHash: 1)
        #expect(LearnedTrainer.train(index: index).encoded(definitionsHash: 1) == first)
        // A phrase with a word no phrase has still finds its lamp.
        let stage = LearnedStage(index: index)
        let guess = stage.guess("please switch the bake lamp on", matcher: Matcher(index: index, clock: Bundled.clock))
        #expect(guess?.candidate.intent.name == "Lamp1")
    }

    @Test("The cache is read back as the same model; truncated or altered bytes are refused")
    func cacheBytes() throws {
        let model = Self.stage.model
        let bytes = model.encoded(definitionsHash: 42)
        let read = try #require(LearnedModel(decoding: bytes, definitionsHash: 42))
        #expect(read.encoded(definitionsHash: 42) == bytes)
        #expect(LearnedModel(decoding: bytes, definitionsHash: 43) == nil)
        for length in [0, 7, 20, bytes.count / 2, bytes.count - 1] {
            #expect(LearnedModel(decoding: Array(bytes.prefix(length)), definitionsHash: 42) == nil)
        }
        var altered = bytes
        altered[bytes.count / 3] ^= 0x5A
        #expect(LearnedModel(decoding: altered, definitionsHash: 42) == nil)
    }

    @Test("A corrupt cache file is rebuilt, not trusted")
    func corruptCacheRebuilt() throws {
        let directory = NSTemporaryDirectory() + "intents-learned-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let stage = LearnedStage(index: Bundled.matcher.index, cacheDirectory: directory, definitionsHash: 7)
        let file = try #require(stage.cacheFile)
        #expect(FileManager.default.createFile(atPath: file, contents: Data("INTLEARN garbage".utf8)))
        _ = stage.model
        guard case .rebuilt = stage.origin else {
            Issue.record("expected a rebuild, got \(String(describing: stage.origin))")
            return
        }
        let written = try #require(FileManager.default.contents(atPath: file))
        #expect(LearnedModel(decoding: Array(written), definitionsHash: 7) != nil)
        // The next process reads it.
        let next = LearnedStage(index: Bundled.matcher.index, cacheDirectory: directory, definitionsHash: 7)
        _ = next.model
        #expect(next.origin == .cached)
    }

    @Test("Changing a definition file changes the cache's key; the old cache is removed")
    func cacheInvalidation() throws {
        let directory = NSTemporaryDirectory() + "intents-learned-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/defs", withIntermediateDirectories: true)
        let definition = directory + "/defs/app.yaml"
        let yaml = """
            app: Notes
            intents:
              AddNote:
                parameters: { text: string }
                phrases: ["add a note {text}", "note down {text}"]
                result: { dialog: "ok" }
            """
        try yaml.write(toFile: definition, atomically: true, encoding: .utf8)
        func stage() throws -> LearnedStage {
            let graph = try #require(IntentCompiler.compile(directory: directory + "/defs").graph)
            return LearnedStage(
                index: PhraseIndex(graph: graph), cacheDirectory: directory,
                definitionsHash: LearnedStage.definitionsHash(files: [definition]))
        }
        let first = try stage()
        _ = first.model
        let firstFile = try #require(first.cacheFile)
        #expect(FileManager.default.fileExists(atPath: firstFile))
        #expect(try stage().cacheFile == firstFile)

        try yaml.replacingOccurrences(
            of: "phrases: [\"add a note {text}\", \"note down {text}\"]",
            with: "phrases: [\"add a note {text}\", \"jot down {text}\"]"
        ).write(toFile: definition, atomically: true, encoding: .utf8)
        let second = try stage()
        let secondFile = try #require(second.cacheFile)
        #expect(secondFile != firstFile)
        _ = second.model
        guard case .trained = second.origin else {
            Issue.record("expected training for the changed definitions, got \(String(describing: second.origin))")
            return
        }
        #expect(FileManager.default.fileExists(atPath: secondFile))
        #expect(!FileManager.default.fileExists(atPath: firstFile))
    }
}
