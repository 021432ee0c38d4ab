import Foundation
import IntentLanguage
import IntentModel
import TestSupport
import Testing

@testable import PhraseMatching

@Suite("The compiled cache of the phrase index: same answers, rebuilt when corrupt or stale")
struct PhraseIndexCacheTests {
    /// Every example sentence of the bundled apps, and sentences that take the typo, filler and
    /// last-resort passes, the learned stage's suggestions and no_match.
    static var sentences: [String] {
        let examples = Bundled.graph.apps.flatMap { app in app.examples + app.intents.flatMap(\.examples) }.map(\.say)
        return examples + [
            "add buy milk to my tasks", "ad buy milk to my tasks", "please um add buy milk to my tasks now",
            "what's my fortune today in fortune", "start a focus block called deep work for 25 minutes",
            "show my love fortune", "refresh my radars", "update my radras", "what is the weather in paris",
            "open the camera", "complete pay rent", "remove banana the task pay rent", "tell me a joke",
            "mark pay rent as done", "what should I do next honestly",
        ]
    }

    /// What a person sees of a recognition: the outcome and every candidate, in order.
    static func describe(_ recognition: Recognition) -> String {
        func candidate(_ c: Candidate) -> String {
            let slots = c.slots.map { "\($0.name)=\($0.value) \($0.span) \($0.typed) \($0.problem ?? "")" }
            let values = c.phraseValues.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return
                "\(c.intent) «\(c.template)» \(c.language) \(slots) \(values) \(c.score) \(c.namedApp ?? "-") \(c.isNegative)"
        }
        let outcome: String
        switch recognition.outcome {
        case .match(let c): outcome = "match " + candidate(c)
        case .ambiguous(let cs): outcome = "ambiguous " + cs.map(candidate).joined(separator: " | ")
        case .noMatch(let suggestions): outcome = "no_match \(suggestions)"
        }
        return outcome + "\n" + recognition.candidates.map(candidate).joined(separator: "\n")
    }

    @Test("The index read back from its bytes answers every sentence as the index built from the definitions")
    func sameAnswers() throws {
        let built = PhraseIndex(graph: Bundled.graph)
        let bytes = try #require(built.encoded(key: 42))
        let read = try #require(PhraseIndex(decoding: bytes, key: 42, graph: Bundled.graph))
        #expect(read.nodeCount == built.nodeCount)
        #expect(read.entries.count == built.entries.count)
        let fromDefinitions = Matcher(index: built, clock: Bundled.clock)
        let fromCache = Matcher(index: read, clock: Bundled.clock)
        for sentence in Self.sentences {
            #expect(
                Self.describe(fromCache.recognize(sentence)) == Self.describe(fromDefinitions.recognize(sentence)),
                "\(sentence)")
        }
        // The learned stage trains on the index: the same model, byte for byte.
        #expect(
            LearnedTrainer.train(index: read).encoded(definitionsHash: 1)
                == LearnedTrainer.train(index: built).encoded(definitionsHash: 1))
    }

    @Test("Phrases that fix values (set:) keep them through the cache")
    func phraseValues() throws {
        let yaml = """
            app: Home
            enums:
              Domain: { cases: { light: Light, fan: Fan } }
            intents:
              TurnOn:
                parameters: { domain: Domain }
                phrases:
                  - { text: "turn on the lights", set: { domain: light } }
                  - "turn on [the] {domain}"
                result: { dialog: "On: ${domain}." }
            """
        let compiled = IntentCompiler.compile(files: [("Intents/home/app.yaml", Array(yaml.utf8))], root: "Intents")
        let graph = try #require(compiled.graph, "\(compiled.diagnostics)")
        let built = PhraseIndex(graph: graph)
        let bytes = try #require(built.encoded(key: 1))
        let read = try #require(PhraseIndex(decoding: bytes, key: 1, graph: graph))
        let recognition = Matcher(index: read, clock: Bundled.clock).recognize("turn on the lights")
        guard case .match(let candidate) = recognition.outcome else {
            Issue.record("expected a match, got \(recognition.outcome)")
            return
        }
        #expect(candidate.values["domain"] == .enumCase("light"))
        let uncached = Matcher(index: built, clock: Bundled.clock).recognize("turn on the lights")
        #expect(Self.describe(recognition) == Self.describe(uncached))
    }

    @Test("Truncated, altered or other definitions' bytes are refused, never trusted")
    func refused() throws {
        let bytes = try #require(PhraseIndex(graph: Bundled.graph).encoded(key: 42))
        #expect(PhraseIndex(decoding: bytes, key: 43, graph: Bundled.graph) == nil)
        for length in [0, 7, 20, 40, bytes.count / 2, bytes.count - 1] {
            #expect(PhraseIndex(decoding: Array(bytes.prefix(length)), key: 42, graph: Bundled.graph) == nil)
        }
        for position in [8, 13, 30, bytes.count / 3, bytes.count - 3] {
            var altered = bytes
            altered[position] ^= 0x5A
            #expect(PhraseIndex(decoding: altered, key: 42, graph: Bundled.graph) == nil, "byte \(position)")
        }
        // An older format is not read.
        var old = bytes
        old[PhraseIndex.cacheMagic.count] &-= 1
        #expect(PhraseIndex(decoding: old, key: 42, graph: Bundled.graph) == nil)
    }

    @Test("A trie whose arrays do not hold together is refused, even under a right checksum")
    func brokenTrieRefused() throws {
        let built = PhraseIndex(graph: Bundled.graph)
        let trie = built.trie
        #expect(trie.isWhole(entryCount: built.entries.count))
        func refused(_ broken: PhraseIndex.Trie, _ what: String) throws {
            #expect(!broken.isWhole(entryCount: built.entries.count), "\(what)")
            var index = built
            index.trie = broken
            let bytes = try #require(index.encoded(key: 42))  // sealed with its own, right checksum
            #expect(PhraseIndex(decoding: bytes, key: 42, graph: Bundled.graph) == nil, "\(what)")
        }
        func copy(
            starts: [Int32]? = nil, wordKeys: [String]? = nil, wordChildren: [Int32]? = nil, entries: [Int32]? = nil
        ) -> PhraseIndex.Trie {
            PhraseIndex.Trie(
                starts: starts ?? trie.starts, wordKeys: wordKeys ?? trie.wordKeys,
                wordChildren: wordChildren ?? trie.wordChildren, slots: trie.slots, appKeys: trie.appKeys,
                appChildren: trie.appChildren, entries: entries ?? trie.entries, optionalKeys: trie.optionalKeys,
                optionalChildren: trie.optionalChildren)
        }
        var children = trie.wordChildren
        children[children.count / 2] = Int32(trie.count)
        try refused(copy(wordChildren: children), "a child past the last node")
        children[children.count / 2] = -1
        try refused(copy(wordChildren: children), "a negative child")
        try refused(copy(entries: trie.entries + [Int32(built.entries.count)]), "entries past the ranges' end")
        var starts = trie.starts
        starts[PhraseIndex.Trie.kinds] = Int32(trie.wordKeys.count) + 1
        try refused(copy(starts: starts), "a range past its array")
        starts = trie.starts
        starts[PhraseIndex.Trie.kinds + 1] = starts[2 * PhraseIndex.Trie.kinds + 1] + 1
        try refused(copy(starts: starts), "ranges out of order")
        try refused(copy(starts: Array(trie.starts.dropLast())), "a row cut short")
        // The root has more words than are searched in order: out of order, they could not be found.
        let root = trie.range(0, PhraseIndex.Trie.wordKind)
        #expect(root.count > PhraseIndex.Trie.linearSearch)
        var keys = trie.wordKeys
        keys.swapAt(root.lowerBound, root.upperBound - 1)
        try refused(copy(wordKeys: keys), "a node's words out of order")
    }

    @Test("A corrupt cache file is rebuilt and rewritten; the next load reads it")
    func corruptFileRebuilt() throws {
        let directory = NSTemporaryDirectory() + "intents-index-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/defs/notes", withIntermediateDirectories: true)
        let definition = directory + "/defs/notes/app.yaml"
        try Self.notes.write(toFile: definition, atomically: true, encoding: .utf8)
        let graph = try #require(IntentCompiler.compile(directory: directory + "/defs").graph)
        let file = directory + "/index-" + String(PhraseIndex.cacheKey(files: [definition]), radix: 16) + ".bin"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("INTINDEX garbage".utf8)))
        let loaded = PhraseIndex.cached(
            graph: graph, key: PhraseIndex.cacheKey(files: [definition]), cacheDirectory: directory)
        #expect(!loaded.fromCache)
        #expect(Self.intent(of: "note down buy milk", loaded.index) == "Notes.AddNote")
        let written = try #require(FileManager.default.contents(atPath: file))
        let key = PhraseIndex.cacheKey(files: [definition])
        #expect(PhraseIndex(decoding: Array(written), key: key, graph: graph) != nil)
        #expect(PhraseIndex.cached(graph: graph, key: key, cacheDirectory: directory).fromCache)
    }

    static let notes = """
        app: Notes
        intents:
          AddNote:
            parameters: { text: string }
            phrases: ["add a note {text}", "note down {text}"]
            result: { dialog: "ok" }
        """

    static func intent(of sentence: String, _ index: PhraseIndex) -> String? {
        if case .match(let candidate) = Matcher(index: index, clock: Bundled.clock).recognize(sentence).outcome {
            return candidate.intent.description
        }
        return nil
    }

    @Test("A changed definition file gives a new key: the index is rebuilt for it and the old cache removed")
    func invalidation() throws {
        let directory = NSTemporaryDirectory() + "intents-index-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/defs/notes", withIntermediateDirectories: true)
        let definition = directory + "/defs/notes/app.yaml"
        try Self.notes.write(toFile: definition, atomically: true, encoding: .utf8)
        func load() throws -> PhraseIndex {
            let graph = try #require(IntentCompiler.compile(directory: directory + "/defs").graph)
            return PhraseIndex.cached(
                graph: graph, key: PhraseIndex.cacheKey(files: [definition]), cacheDirectory: directory
            ).index
        }
        func cacheFiles() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("index-") }
        }
        #expect(Self.intent(of: "note down buy milk", try load()) == "Notes.AddNote")
        let first = try cacheFiles()
        #expect(first.count == 1)
        #expect(Self.intent(of: "note down buy milk", try load()) == "Notes.AddNote")  // read from the cache
        #expect(try cacheFiles() == first)

        try Self.notes.replacingOccurrences(of: "note down {text}", with: "jot down {text}")
            .write(toFile: definition, atomically: true, encoding: .utf8)
        let changed = try load()
        #expect(Self.intent(of: "jot down buy milk", changed) == "Notes.AddNote")
        let second = try cacheFiles()
        #expect(second.count == 1)
        #expect(second != first)
    }
}
