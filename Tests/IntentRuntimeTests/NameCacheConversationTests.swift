import Foundation
import IntentModel
import ModelStore
import PhraseMatching
import TestSupport
import Testing

@testable import IntentRuntime

@Suite("The bundled examples read the same with the store's names in memory as on disk")
struct NameCacheConversationTests {
    /// Every example sentence of the bundled apps, and each with a letter dropped from its last
    /// word (a typo the name look-ups must forgive the same way).
    static let sentences: [String] = {
        let examples = Bundled.graph.apps.flatMap { app in app.examples + app.intents.flatMap(\.examples) }.map(\.say)
        let typos = examples.compactMap { sentence -> String? in
            guard let last = sentence.split(separator: " ").last, last.count >= 5 else { return nil }
            var word = Array(last)
            word.remove(at: word.count / 2)
            return sentence.dropLast(last.count) + String(word)
        }
        return examples + typos
    }()

    /// A name for every record of every entity matched by name: words the examples use, so spans
    /// hit, miss and nearly hit.
    static func seededStore(_ scratch: Scratch) throws -> Store {
        let graph = Bundled.graph
        let store = try Store(path: scratch.path, graph: graph, clock: Bundled.clock)
        let words = Set(sentences.flatMap { $0.lowercased().split(separator: " ").map(String.init) }).sorted()
        try store.write { transaction in
            for entity in graph.entities where !entity.matchBy.isEmpty {
                for (offset, word) in words.enumerated() where offset % 3 == 0 {
                    let name = offset % 2 == 0 ? word : word + " " + words[(offset * 7) % words.count]
                    var values: [String: Value] = [:]
                    for property in entity.matchBy { values[property] = .string(name) }
                    // Entities with other required properties are left out.
                    _ = try? transaction.insert(entity.name, values: values)
                }
            }
        }
        return store
    }

    static func describe(_ recognition: Recognition) -> String {
        let candidates = recognition.candidates.map { candidate in
            "\(candidate.intent) \(candidate.score) "
                + candidate.slots.map { "\($0.name)=\($0.value)@\($0.span)/\($0.typed)" }.joined(separator: ",")
        }
        return "\(recognition.outcome)\n" + candidates.joined(separator: "\n")
    }

    @Test func sameReadingsWithAndWithoutTheCache() throws {
        let scratch = Scratch()
        let store = try Self.seededStore(scratch)
        let session = try Session(graph: Bundled.graph, store: store)
        let cached = session.matcher(clock: Bundled.clock)
        let uncached = Matcher(index: session.index, entities: UncachedEntityNames(store: store), clock: Bundled.clock)
        #expect(Self.sentences.count > 100)
        for sentence in Self.sentences {
            #expect(
                Self.describe(cached.recognize(sentence)) == Self.describe(uncached.recognize(sentence)), "\(sentence)")
        }
    }
}
