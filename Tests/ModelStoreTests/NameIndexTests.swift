import Foundation
import IntentModel
import ModelStore
import PhraseMatching
import TestSupport
import Testing

@Suite("The store's on-disk name index: what the matcher looks names up in")
struct NameIndexTests {
    static let names = [
        "buy milk", "pay rent", "call the bank", "laundry", "Write the Quarterly Report", "buy milk", "Zoë's party",
        "water plants", "walk the dog", "wash the car", "book flights to Lisbon",
    ]

    /// Pages titled `names`, ids n0, n1, …
    static func store(_ scratch: Scratch, names: [String] = Self.names) throws -> Store {
        try store(at: scratch.path, names: names)
    }

    static func store(at path: String, names: [String] = Self.names) throws -> Store {
        let store = try Store(path: path, graph: Notebook.graph, clock: Notebook.clock)
        try store.write { transaction in
            for (index, name) in names.enumerated() {
                try transaction.insert(Notebook.page, values: ["title": .string(name)], id: "n\(index)")
            }
        }
        return store
    }

    static func memory(_ names: [String]) -> EntityNameIndex {
        var index = EntityNameIndex()
        index.add(names, for: Notebook.page)
        return index
    }

    static let texts = [
        "buy milk", "buy mlk", "by milk", "pay rnt", "call teh bank", "landry", "laundry", "write the quarterly reprt",
        "zoe's party", "zoës party", "water plnts", "walk the dgo", "wash teh car", "book flight to lisbon",
        "nothing like it", "milk", "bank", "xyz",
    ]

    @Test("A name of plain words is keyed without tokenizing, exactly as tokenizing keys it")
    func plainNamesKeyedAsTokenized() {
        func tokenized(_ name: String) -> (String, [String]) {
            let words = Normalizer.tokens(name).map(\.text)
            return (words.joined(separator: " "), words)
        }
        for name in ["task number 123 about taxes", "Buy Milk", "a", "route 66"] {
            #expect(EntityNameKey.plainKey(name) != nil, "\(name)")
        }
        for name in ["B12", "cannot go", "milk  eggs", " milk", "milk.", "Crème"] {
            #expect(EntityNameKey.plainKey(name) == nil, "\(name)")
        }
        // Every name of up to four pieces from these: the plain ones agree, the rest take the long way.
        let pieces = ["milk", "Milk", "66", "b12", "cannot", "Im", "", " ", "x.", "it's", "Crème", "-"]
        var names: [String] = []
        for a in pieces {
            for b in pieces {
                for c in ["", " ", "  ", "-"] { names.append(a + c + b) }
                for c in pieces { names.append(a + " " + b + " " + c) }
            }
        }
        var plain = 0
        for name in names {
            let key = EntityNameKey.key(name)
            #expect(key.key == tokenized(name).0 && key.words == tokenized(name).1, "\(name)")
            if let fast = EntityNameKey.plainKey(name) {
                plain += 1
                #expect(fast.key == tokenized(name).0 && fast.words == tokenized(name).1, "\(name)")
            }
        }
        #expect(plain > 50)  // 59 of the names above are plain
    }

    @Test("Exact, word and typo look-ups answer as the in-memory index does", arguments: Backend.allCases)
    func sameAnswersAsInMemory(_ backend: Backend) throws {
        let scratch = try backend.scratch("names")
        let store = try Self.store(at: scratch.path)
        let stored = StoredEntityNames(store: store)
        let memory = Self.memory(Self.names)
        for text in Self.texts {
            let folded = EntityNameKey.key(text).key
            let onDisk = stored.lookup(folded, entity: Notebook.page).map { "\($0.name) \($0.distance)" }
            let inMemory = memory.lookup(folded, entity: Notebook.page).map { "\($0.name) \($0.distance)" }
            #expect(onDisk == inMemory, "\(text)")
        }
        #expect(stored.lookup("by milk", entity: Notebook.page).first?.name == "buy milk")
        #expect(stored.lookup("landry", entity: Notebook.page).first?.name == "laundry")
    }

    @Test(
        "A renamed or deleted record takes its name along; a name two records hold stays until both go",
        arguments: Backend.allCases)
    func writesKeepTheIndexCurrent(_ backend: Backend) throws {
        let scratch = try backend.scratch("rename")
        let store = try Self.store(at: scratch.path)
        let stored = StoredEntityNames(store: store)
        try store.write { transaction in
            let first = try #require(try transaction.record(Notebook.page, id: "n0"))
            try transaction.delete(first)
        }
        #expect(stored.lookup("buy milk", entity: Notebook.page).map(\.name) == ["buy milk"])
        try store.write { transaction in
            let second = try #require(try transaction.record(Notebook.page, id: "n5"))
            try transaction.update(second, set: ["title": .string("buy oat milk")])
        }
        #expect(stored.lookup("buy milk", entity: Notebook.page).isEmpty)
        #expect(stored.lookup("buy oat mlk", entity: Notebook.page).map(\.name) == ["buy oat milk"])
        #expect(stored.lookup("buy oat milk", entity: Notebook.page).map(\.distance) == [0])
        // A rolled-back write leaves nothing behind.
        struct Abort: Error {}
        _ = try? store.write { transaction in
            try transaction.insert(Notebook.page, values: ["title": .string("feed the cat")])
            throw Abort()
        }
        #expect(stored.lookup("feed the cat", entity: Notebook.page).isEmpty)
    }

    @Test(
        "A store made before the name index gets it as it opens, from the names it holds", arguments: Backend.allCases)
    func olderStoreIsIndexedOnOpen(_ backend: Backend) throws {
        let scratch = try backend.scratch("older")
        _ = try Self.store(at: scratch.path)
        // What a store written before the index looks like: no index tables, no version.
        let raw = try Store(path: scratch.path, graph: Notebook.graph, clock: Notebook.clock)
        try raw.dropNameIndexForTesting()
        let reopened = try Store(path: scratch.path, graph: Notebook.graph, clock: Notebook.clock)
        #expect(reopened.hasNameIndex)
        #expect(StoredEntityNames(store: reopened).lookup("pay rnt", entity: Notebook.page).map(\.name) == ["pay rent"])
    }

    @Test("With 200,000 names a phrase reads a few index rows, not every name", .tags(.slow), .skippedWhenFast)
    func bigStoreReadsFewRows() throws {
        let scratch = Scratch()
        let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
        // Written 5,000 to a transaction, named as they go: the test holds little memory itself
        // (other tests in this process measure theirs).
        let store = try Self.store(scratch, names: ["laundry", "quarterly report"])
        for batch in stride(from: 0, to: 200_000, by: 5_000) {
            try store.write { transaction in
                for n in batch..<(batch + 5_000) {
                    try transaction.insert(
                        Notebook.page, values: ["title": .string("\(words[n % 10]) \(words[(n / 10) % 10]) \(n)")])
                }
            }
        }
        func look(_ text: String) throws -> NameLookupResult {
            try store.read { try $0.lookUpName(EntityNameKey.key(text).key, entity: Notebook.page) }
        }
        let exact = try look("delta echo 12343")
        #expect(exact.hits.map(\.name) == ["delta echo 12343"])
        #expect(exact.rowsRead == 1)
        let typo = try look("charlie detla 123432")
        #expect(typo.hits.first?.name == "charlie delta 123432")
        // Counting a common word stops past the candidate limit.
        #expect(typo.rowsRead < 1_000)
        let oneWord = try look("landry")
        #expect(oneWord.hits.map(\.name) == ["laundry"])
        #expect(oneWord.rowsRead < 100)
        let twoWords = try look("quartely report")
        #expect(twoWords.hits.map(\.name) == ["quarterly report"])
        #expect(twoWords.rowsRead < 100)
        // Every word common among names this long: too vague, said after counting a bounded few.
        let vague = try look("alpha bravo echo")
        #expect(vague.hits.isEmpty)
        #expect(vague.rowsRead <= 3 * (EntityNameKey.maximumCandidates + 1))
    }
}
