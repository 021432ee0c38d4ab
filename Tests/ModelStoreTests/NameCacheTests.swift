import Foundation
import IntentModel
import ModelStore
import PhraseMatching
import TestSupport
import Testing

@Suite("The name index held in memory: the same answers as on disk, current after every write")
struct NameCacheTests {
    /// Names built to reach every branch of a look-up: exact keys, typos sharing a rare word, words
    /// common among names this long (too vague), and one-word names found by their first or last half.
    static let names: [String] =
        NameIndexTests.names + ["laundry day", "landing page", "lantern", "sundry", "laundromat", "Grüße"]
        + (0..<300).map { "alpha bravo \($0)" } + (0..<40).map { "item\($0)x" }

    static let texts =
        NameIndexTests.texts + [
            "alpha bravo 17", "alpha bravo 1x7", "alpa bravo 17", "alpha bravo", "bravo", "laundy day", "lantren",
            "sundy", "item7x", "itm7x", "item77", "ietm12x", "grusse", "gruse", "laundromt", "ladnry", "a", "ab",
            "alpha brav0 299", "the", "walk", "walk the", "teh dog",
        ]

    @Test("Every look-up answers as the on-disk index does", arguments: Backend.allCases)
    func sameAsDisk(_ backend: Backend) throws {
        let scratch = try backend.scratch("namecache")
        let store = try NameIndexTests.store(at: scratch.path, names: Self.names)
        let names = StoredEntityNames(store: store)
        // The first phrase over this state of the file reads from disk; the next reads the table.
        #expect("\(type(of: names.forPhrase()))" == "DiskNames")
        let phrase = names.forPhrase()
        #expect("\(type(of: phrase))" == "ResidentNames")
        for text in Self.texts {
            let folded = EntityNameKey.key(text).key
            let onDisk = try store.read { try $0.lookUpName(folded, entity: Notebook.page) }.hits
                .map { "\($0.name) \($0.distance)" }
            let cached = phrase.lookup(folded, entity: Notebook.page).map { "\($0.name) \($0.distance)" }
            #expect(cached == onDisk, "\(text)")
        }
    }

    @Test(
        "A phrase after a write, a rolled-back write or another connection's write sees the store as it is",
        arguments: Backend.allCases)
    func currentAfterWrites(_ backend: Backend) throws {
        let scratch = try backend.scratch("namecache")
        let store = try NameIndexTests.store(at: scratch.path)
        let names = StoredEntityNames(store: store)
        /// Two phrases: the first over a new state of the file reads from disk, the second from memory.
        func look(_ text: String) -> [String] {
            let first = names.forPhrase().lookup(text, entity: Notebook.page).map(\.name)
            let second = names.forPhrase().lookup(text, entity: Notebook.page).map(\.name)
            #expect(first == second, "\(text)")
            return second
        }
        #expect(look("pay rent") == ["pay rent"])
        try store.write { transaction in
            try transaction.insert(Notebook.page, values: ["title": .string("feed the cat")])
            // Inside the write: what it has written so far.
            #expect(look("feed the cat") == ["feed the cat"])
        }
        #expect(look("feed teh cat") == ["feed the cat"])
        struct Abort: Error {}
        _ = try? store.write { transaction in
            try transaction.insert(Notebook.page, values: ["title": .string("mow the lawn")])
            #expect(look("mow the lawn") == ["mow the lawn"])
            throw Abort()
        }
        #expect(look("mow the lawn").isEmpty)
        // Another connection (another process, as far as the store can tell) renames a page.
        let other = try Store(path: scratch.path, graph: Notebook.graph, clock: Notebook.clock)
        try other.write { transaction in
            let page = try #require(try transaction.record(Notebook.page, id: "n1"))
            try transaction.update(page, set: ["title": .string("pay the rent")])
        }
        #expect(look("pay rent").isEmpty)
        #expect(look("pay the rent") == ["pay the rent"])
    }
}

@Suite("The name index held in memory on PostgreSQL: one statement a phrase, current across instances")
struct PostgresNameCacheTests {
    @Test("An unchanged index answers from memory; another instance's new name is in the next phrase's table")
    func generation() throws {
        let url = try PostgresCluster.freshStore("namegen")
        let store = try NameIndexTests.store(at: url)
        let names = StoredEntityNames(store: store)
        _ = names.forPhrase()
        #expect("\(type(of: names.forPhrase()))" == "ResidentNames")
        #expect("\(type(of: names.forPhrase()))" == "ResidentNames")
        // Another instance over the same schema adds a name: the next phrase's table has it.
        let other = try Store(path: url, graph: Notebook.graph, clock: Notebook.clock)
        _ = try other.write { try $0.insert(Notebook.page, values: ["title": .string("water the ferns")], id: "w1") }
        let after = names.forPhrase()
        #expect("\(type(of: after))" == "ResidentNames")
        #expect(after.lookup("water the ferns", entity: Notebook.page).map(\.name) == ["water the ferns"])
        #expect(after.lookup("watr the ferns", entity: Notebook.page).map(\.name) == ["water the ferns"])
        // A write that rolls back moves nothing: the table stays in use, without its name.
        struct Abort: Error {}
        _ = try? other.write { transaction in
            try transaction.insert(Notebook.page, values: ["title": .string("never kept")])
            throw Abort()
        }
        let kept = names.forPhrase()
        #expect("\(type(of: kept))" == "ResidentNames")
        #expect(kept.lookup("never kept", entity: Notebook.page).isEmpty)
        // A name taken away (a rename) is not added in place: the index is read from disk, then
        // into memory again.
        try other.write { transaction in
            let page = try #require(try transaction.record(Notebook.page, id: "w1"))
            try transaction.update(page, set: ["title": .string("water the palms")])
        }
        let renamed = names.forPhrase()
        #expect("\(type(of: renamed))" == "DiskNames")
        #expect(renamed.lookup("water the ferns", entity: Notebook.page).isEmpty)
        let again = names.forPhrase()
        #expect("\(type(of: again))" == "ResidentNames")
        #expect(again.lookup("water the ferns", entity: Notebook.page).isEmpty)
        #expect(again.lookup("water the palms", entity: Notebook.page).map(\.name) == ["water the palms"])
    }

    @Test("A store whose every phrase follows a write answers from memory from its second phrase on")
    func everyPhraseAfterAWrite() throws {
        let url = try PostgresCluster.freshStore("namewrites")
        let store = try NameIndexTests.store(at: url)
        let names = StoredEntityNames(store: store)
        for number in 0..<4 {
            let phrase = names.forPhrase()
            // The first phrase of a process reads from disk (a one-phrase `say` reads no table).
            #expect("\(type(of: phrase))" == (number == 0 ? "DiskNames" : "ResidentNames"))
            if number > 0 {
                #expect(
                    phrase.lookup("task \(number - 1)", entity: Notebook.page).map(\.name) == ["task \(number - 1)"])
            }
            _ = try store.write { try $0.insert(Notebook.page, values: ["title": .string("task \(number)")]) }
        }
    }

    @Test("A phrase after a write learns the new names with the generation: one statement")
    func catchUpInOneStatement() throws {
        let url = try PostgresCluster.freshStore("nameone")
        let store = try NameIndexTests.store(at: url)
        let names = StoredEntityNames(store: store)
        _ = names.forPhrase()
        _ = names.forPhrase()
        _ = try store.write { try $0.insert(Notebook.page, values: ["title": .string("water the ferns")]) }
        let before = store.postgresStatementsSent
        let phrase = names.forPhrase()
        #expect(store.postgresStatementsSent - before == 1)
        #expect("\(type(of: phrase))" == "ResidentNames")
        #expect(phrase.lookup("water the ferns", entity: Notebook.page).map(\.name) == ["water the ferns"])
    }

    @Test("Names added after the table was read, by this store or another: every look-up answers as on disk")
    func caughtUpSameAsDisk() throws {
        let url = try PostgresCluster.freshStore("namecatch")
        let first = Array(NameCacheTests.names.prefix(40))
        let store = try NameIndexTests.store(at: url, names: first)
        let names = StoredEntityNames(store: store)
        _ = names.forPhrase()
        #expect("\(type(of: names.forPhrase()))" == "ResidentNames")
        // The rest added in two writes: this store's own, and another instance's.
        let rest = Array(NameCacheTests.names.dropFirst(40))
        let other = try Store(path: url, graph: Notebook.graph, clock: Notebook.clock)
        try store.write { transaction in
            for (index, name) in rest.prefix(rest.count / 2).enumerated() {
                try transaction.insert(Notebook.page, values: ["title": .string(name)], id: "a\(index)")
            }
        }
        try other.write { transaction in
            for (index, name) in rest.dropFirst(rest.count / 2).enumerated() {
                try transaction.insert(Notebook.page, values: ["title": .string(name)], id: "b\(index)")
            }
        }
        let phrase = names.forPhrase()
        #expect("\(type(of: phrase))" == "ResidentNames")
        for text in NameCacheTests.texts {
            let folded = EntityNameKey.key(text).key
            let onDisk = try store.read { try $0.lookUpName(folded, entity: Notebook.page) }.hits
                .map { "\($0.name) \($0.distance)" }
            let cached = phrase.lookup(folded, entity: Notebook.page).map { "\($0.name) \($0.distance)" }
            #expect(cached == onDisk, "\(text)")
        }
    }
}
