import Foundation
import IntentModel
import ModelStore
import TestSupport
import Testing

/// What the store promises, on SQLite and on PostgreSQL alike (the other parameterized suites
/// cover filters, orderings, migrations, atomic runs, the name index, the journal and undo).
@Suite("The store on both backends: the same answers from SQLite and PostgreSQL")
struct BothBackendsTests {
    /// Indexes every page by its title (keywords: its tags), as the runtime's indexer would.
    struct TitleIndexer: SearchIndexing {
        var signature: String { "titles-1" }
        func isSearchable(_ entity: QualifiedName) -> Bool { entity == Notebook.page }
        func document(for record: Record, in transaction: StoreTransaction) throws -> SearchDocument? {
            guard case .string(let title)? = record.values["title"] else { return nil }
            var keywords: [String] = []
            if case .array(let tags)? = record.values["tags"] {
                for case .string(let tag) in tags { keywords.append(tag) }
            }
            return SearchDocument(title: title, subtitle: "", description: "", keywords: keywords, expires: nil)
        }
    }

    @Test(
        "Records: insert, read, update, delete; a failed write leaves the store as it was", arguments: Backend.allCases)
    func records(_ backend: Backend) throws {
        let scratch = try backend.scratch("records")
        let store = try Notebook.seeded(scratch.path)
        let page = try #require(try store.read { try $0.record(Notebook.page, id: "p3") })
        #expect(page.values["title"] == .string("appendix"))
        #expect(page.values["rating"] == .number(2))
        #expect(page.values["pinned"] == .boolean(false))
        #expect(page.values["tags"] == .array([]))
        let updated = try store.write { try $0.update(page, set: ["words": .integer(9), "rating": nil]) }
        #expect(try store.read { try $0.record(Notebook.page, id: "p3") } == updated)
        #expect(updated.values["rating"] == nil)
        Notebook.failedWrite(store) { transaction in
            try transaction.delete(updated)
            try transaction.insert(Notebook.page, values: ["title": .string("half done")])
        }
        #expect(try Notebook.ids(store, RecordQuery(entity: Notebook.page)) == ["p1", "p2", "p3", "p4"])
        try store.write { try $0.delete(updated) }
        #expect(try Notebook.ids(store, RecordQuery(entity: Notebook.page)) == ["p1", "p2", "p4"])
        // A value the store must refuse, refused the same way.
        #expect(throws: StoreError.self) {
            try store.write { try $0.insert(Notebook.page, values: ["title": .string("bell \u{7}")]) }
        }
    }

    @Test("Names: full-text prefixes, exact names and completions", arguments: Backend.allCases)
    func fullTextNames(_ backend: Backend) throws {
        let scratch = try backend.scratch("fulltext")
        let store = try Notebook.seeded(scratch.path)
        let hits = try store.read { try $0.search(Notebook.page, text: "not rus") }.map(\.name)
        #expect(hits == ["notes on Rust"])
        #expect(try store.read { try $0.search(Notebook.page, text: "OUTL") }.map(\.record.id) == ["p2"])
        let exact = try store.read { try $0.exactNameMatches(Notebook.page, text: "notes on rust") { _ in true } }
        #expect(exact.map(\.record.id) == ["p4"])
        let completions = try store.read { try $0.names(of: Notebook.page, beginningWith: "notes o", limit: 5) }
        #expect(completions == ["notes on Rust"])
        #expect(try store.read { try $0.names() }.count == 4)
    }

    @Test(
        "Search: every word, prefixes, the newest first among equals; deleted records leave",
        arguments: Backend.allCases)
    func searchIndex(_ backend: Backend) throws {
        let scratch = try backend.scratch("search")
        let path = scratch.path
        let store = try Store(path: path, graph: Notebook.graph, clock: Notebook.clock, indexer: TitleIndexer())
        try store.write { transaction in
            try transaction.insert(Notebook.page, values: ["title": .string("Crème brûlée recipe")], id: "a")
            try transaction.insert(
                Notebook.page, values: ["title": .string("Rust notes"), "tags": .array([.string("recipe")])], id: "b")
            try transaction.insert(Notebook.page, values: ["title": .string("Travel plans")], id: "c")
        }
        func search(_ groups: [[SearchTerm]]) throws -> [String] {
            try store.read { try $0.searchIndex(groups, now: Bundled.now, limit: 20) }
                .sorted { ($0.bm25, $0.record) < ($1.bm25, $1.record) }.map(\.record)
        }
        #expect(try search([[SearchTerm("creme", prefix: false)]]) == ["a"])
        // A title word weighs more than a keyword.
        #expect(try search([[SearchTerm("recipe", prefix: false)]]) == ["a", "b"])
        #expect(try search([[SearchTerm("rec", prefix: true)], [SearchTerm("rust", prefix: false)]]) == ["b"])
        #expect(
            Set(try search([[SearchTerm("trav", prefix: true), SearchTerm("brulee", prefix: false)]])) == ["a", "c"])
        #expect(try store.read { try $0.searchVocabulary(prefix: "re", limit: 5) } == ["recipe"])
        try store.write { transaction in
            try transaction.delete(try #require(try transaction.record(Notebook.page, id: "a")))
        }
        #expect(try search([[SearchTerm("recipe", prefix: false)]]) == ["b"])
        #expect(try store.read { try $0.searchIndexCount() } == 2)
    }

    @Test("Conversations: kept under their id and user, replaced, expired, forgotten", arguments: Backend.allCases)
    func conversations(_ backend: Backend) throws {
        let scratch = try backend.scratch("conversations")
        let store = try Store(path: scratch.path, graph: Notebook.graph, clock: Notebook.clock)
        let now = Bundled.now
        try store.write { transaction in
            try transaction.saveConversation(
                "c1", user: "ann", state: Data("one".utf8), at: now, expires: now.addingTimeInterval(60))
            try transaction.saveConversation(
                "c1", user: "ann", state: Data("two".utf8), at: now, expires: now.addingTimeInterval(60))
        }
        let kept = try store.read { try $0.conversation("c1", user: "ann", at: now) }
        #expect(kept.map { String(decoding: $0.state, as: UTF8.self) } == "two")
        #expect(try store.read { try $0.conversation("c1", user: "bob", at: now) } == nil)
        #expect(try store.read { try $0.conversation("c1", user: "ann", at: now.addingTimeInterval(61)) } == nil)
        // Carried on after it expired (one statement on PostgreSQL removes the expired rows and
        // writes this one): kept again, another user's expired conversation gone.
        let later = now.addingTimeInterval(120)
        try store.write { transaction in
            try transaction.saveConversation(
                "c2", user: "bob", state: Data("bob's".utf8), at: now, expires: now.addingTimeInterval(30))
        }
        try store.write { transaction in
            try transaction.saveConversation(
                "c1", user: "ann", state: Data("three".utf8), at: later, expires: later.addingTimeInterval(60))
        }
        let again = try store.read { try $0.conversation("c1", user: "ann", at: later) }
        #expect(again.map { String(decoding: $0.state, as: UTF8.self) } == "three")
        #expect(try store.write { try $0.deleteConversation("c2", user: "bob") } == false)
        #expect(try store.write { try $0.deleteConversation("c1", user: "ann") })
        #expect(try store.write { try $0.deleteConversation("c1", user: "ann") } == false)
    }

    @Test("Donations, suggestions' counts and tips; undo takes the donation back", arguments: Backend.allCases)
    func donations(_ backend: Backend) throws {
        let scratch = try backend.scratch("donations")
        let store = try Notebook.seeded(scratch.path)
        let intent = Notebook.pin
        try Notebook.pinAndDonate(in: store)
        let counts = try store.read { try $0.suggestionCounts(intents: [intent.description], now: Bundled.now) }
        #expect(counts[intent.description]?["n"] == 1)
        try store.write { transaction in
            try transaction.markTipShown("tip.one", at: Bundled.now)
            try transaction.dismissTip("tip.one")
        }
        #expect(try store.read { try $0.tipStates() }["tip.one"]?.dismissed == true)
        let undone = try store.write { try $0.undoLast() }
        #expect(undone?.intent == intent.description)
        #expect(try store.read { try $0.donationHistory() }.isEmpty)
        #expect(try store.read { try $0.suggestionCounts(intents: [intent.description], now: Bundled.now) }.isEmpty)
        #expect(try store.read { try $0.record(Notebook.page, id: "p2") }?.values["pinned"] == .boolean(false))
    }

    @Test("Handoff: the current activity per app and open questions", arguments: Backend.allCases)
    func handoff(_ backend: Backend) throws {
        let scratch = try backend.scratch("handoff")
        let store = try Store(path: scratch.path, graph: Notebook.graph, clock: Notebook.clock)
        let now = Bundled.now
        let open = QualifiedName(app: "Notebook", name: "OpenPage")
        try store.write { transaction in
            for title in ["intro", "outline"] {
                try transaction.recordActivity(
                    type: "notebook.open", intent: open, title: title, parameters: ["page": .string(title)],
                    eligible: [.handoff], keywords: [], link: nil, at: now, expires: now.addingTimeInterval(600))
            }
            let question = try transaction.saveQuestion(
                intent: open, question: "Which page?", state: .object([:]), at: now, expires: now.addingTimeInterval(60)
            )
            #expect(try transaction.closeQuestion(question, reason: .answered))
            try transaction.saveQuestion(
                intent: open, question: "Which one?", state: .object([:]), at: now, expires: now.addingTimeInterval(60))
        }
        #expect(try store.read { try $0.activities(at: now) }.map(\.title) == ["outline"])
        #expect(try store.read { try $0.openQuestions(at: now) }.map(\.question) == ["Which one?"])
    }

    @Test("Two connections to one store: concurrent increments lose nothing", arguments: Backend.allCases)
    func concurrentIncrements(_ backend: Backend) throws {
        let scratch = try backend.scratch("increments")
        _ = try Notebook.seeded(scratch.path)
        // Two stores over the same data, as two processes (or two server instances) have.
        let stores = try (0..<2).map { _ in try Store(path: scratch.path, graph: Notebook.graph, clock: Notebook.clock)
        }
        let group = DispatchGroup()
        let failures = Failures()
        for store in stores {
            for _ in 0..<2 {
                group.enter()
                Thread {
                    defer { group.leave() }
                    for _ in 0..<10 {
                        do {
                            try store.write { transaction in
                                let page = try #require(try transaction.record(Notebook.page, id: "p1"))
                                guard case .integer(let words)? = page.values["words"] else { return }
                                try transaction.update(page, set: ["words": .integer(words + 1)])
                            }
                        } catch {
                            failures.add("\(error)")
                        }
                    }
                }.start()
            }
        }
        group.wait()
        #expect(failures.all.isEmpty)
        let words = try stores[0].read { try $0.record(Notebook.page, id: "p1") }?.values["words"]
        #expect(words == .integer(120 + 40))
    }

    @Test(
        "Writes sent together: every value lands as written; a failing write fails its own savepoint, not the writes before it",
        arguments: Backend.allCases)
    func writesSentTogether(_ backend: Backend) throws {
        let scratch = try backend.scratch("held")
        let store = try Notebook.seeded(scratch.path)
        // Quotes, a `?`, a `$1` and a `--` in text; a fraction, a large integer, a NaN-free double.
        let values: [String: Value] = [
            "title": .string("it's a ? test, $1 -- \"quoted\""), "words": .integer(9_007_199_254_740_993),
            "rating": .number(0.1), "pinned": .boolean(true), "tags": .array([.string("a'b"), .string("?")]),
        ]
        try store.write { transaction in
            try transaction.insert(Notebook.page, values: values, id: "q1")
            try transaction.insert(Notebook.page, values: ["title": .string("second")], id: "q2")
        }
        let written = try #require(try store.read { try $0.record(Notebook.page, id: "q1") })
        for (name, value) in values { #expect(written.values[name] == value, "\(name)") }
        // An id twice inside a savepoint: that savepoint fails; the writes around it land.
        try store.write { transaction in
            try transaction.insert(Notebook.page, values: ["title": .string("before")], id: "q3")
            #expect(throws: StoreError.self) {
                try store.write { try $0.insert(Notebook.page, values: ["title": .string("again")], id: "p1") }
            }
            try transaction.insert(Notebook.page, values: ["title": .string("after")], id: "q4")
        }
        let ids = try Notebook.ids(store, RecordQuery(entity: Notebook.page))
        #expect(ids.sorted() == ["p1", "p2", "p3", "p4", "q1", "q2", "q3", "q4"], "\(ids)")
        #expect(try store.read { try $0.record(Notebook.page, id: "p1") }?.values["title"] == .string("intro"))
        // A failing write as the last of a transaction: the commit refuses it and nothing of it lands.
        #expect(throws: StoreError.self) {
            try store.write { transaction in
                try transaction.insert(Notebook.page, values: ["title": .string("lost")], id: "q5")
                try transaction.insert(Notebook.page, values: ["title": .string("twice")], id: "q1")
            }
        }
        #expect(try store.read { try $0.record(Notebook.page, id: "q5") } == nil)
        #expect(try store.read { try $0.search(Notebook.page, text: "lost") }.isEmpty)
    }

    @Test(
        "Writes first made in a transaction that failed: the next transaction's same writes land",
        arguments: Backend.allCases)
    func writesAfterAFailedFirst(_ backend: Backend) throws {
        try backend.withEmptyNotebook("first") { store in
            // The store's first record, name and search words: on PostgreSQL the connection
            // prepares each write here, in a transaction that then rolls back.
            Notebook.failedWrite(store) { transaction in
                try transaction.insert(Notebook.page, values: ["title": .string("lost page")], id: "r1")
            }
            _ = try store.write { try $0.insert(Notebook.page, values: ["title": .string("kept page")], id: "r2") }
            #expect(try Notebook.ids(store, RecordQuery(entity: Notebook.page)) == ["r2"])
            #expect(try store.read { try $0.search(Notebook.page, text: "kept") }.map(\.record.id) == ["r2"])
            #expect(try store.read { try $0.search(Notebook.page, text: "lost") }.isEmpty)
        }
    }

    final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func add(_ failure: String) { lock.withLock { list.append(failure) } }
        var all: [String] { lock.withLock { list } }
    }
}

@Suite("PostgreSQL stores: one schema per user, clear errors")
struct PostgresStoreTests {
    @Test("Two schemas of one database are two stores: nothing of one is seen from the other")
    func schemasApart() throws {
        let ann = try PostgresCluster.freshStore("ann")
        let bob = try PostgresCluster.freshStore("bob")
        let annStore = try Notebook.seeded(ann)
        let bobStore = try Store(path: bob, graph: Notebook.graph, clock: Notebook.clock)
        #expect(try annStore.read { try $0.count(RecordQuery(entity: Notebook.page)) } == 4)
        #expect(try bobStore.read { try $0.count(RecordQuery(entity: Notebook.page)) } == 0)
        #expect(try bobStore.read { try $0.record(Notebook.page, id: "p1") } == nil)
        #expect(try bobStore.read { try $0.search(Notebook.page, text: "intro") }.isEmpty)
        #expect(try bobStore.write { try $0.undoLast() } == nil)
    }

    @Test("Opened read-only: no store yet is an error; a write fails and changes nothing")
    func readOnly() throws {
        let url = try PostgresCluster.freshStore("readonly")
        #expect {
            _ = try Store(path: url, graph: Notebook.graph, clock: Notebook.clock, readOnly: true)
        } throws: { "\($0)".contains("there is no store yet") }
        _ = try Notebook.seeded(url)
        let store = try Store(path: url, graph: Notebook.graph, clock: Notebook.clock, readOnly: true)
        #expect(try store.read { try $0.count(RecordQuery(entity: Notebook.page)) } == 4)
        #expect(throws: (any Error).self) {
            try store.write { try $0.insert(Notebook.page, values: ["title": .string("not written")]) }
        }
        #expect(try store.read { try $0.count(RecordQuery(entity: Notebook.page)) } == 4)
    }

    @Test("A read asked again answers the same, also after another program added a column to its table")
    func readsAskedAgain() throws {
        let url = try PostgresCluster.freshStore("again")
        let store = try Notebook.seeded(url)
        try store.write { transaction in
            _ = try transaction.insert(
                Notebook.page,
                values: [
                    "title": .string("it's ? $1"), "words": .integer(-9_007_199_254_740_993), "rating": .number(0.25),
                    "pinned": .boolean(true), "priority": .enumCase("urgent"),
                    "tags": .array([.string("a"), .string("b'c")]),
                    "due": .date(.moment(Notebook.date("2026-03-01T09:30:00Z"))),
                ], id: "k1")
        }
        _ = try store.write { try $0.insert(Notebook.page, values: ["title": .string("bare")], id: "k2") }
        // From its second time, a read is a statement the connection prepared: every kind of
        // value (and NULL) reads back as the first time.
        let query = RecordQuery(entity: Notebook.page)
        let first = try #require(try store.read { try $0.record(Notebook.page, id: "k1") })
        let bare = try #require(try store.read { try $0.record(Notebook.page, id: "k2") })
        let count = try store.read { try $0.count(query) }
        let completions = try store.read { try $0.names(of: Notebook.page, beginningWith: "ba", limit: 5) }
        let names = try store.read { try $0.search(Notebook.page, text: "bar") }.map(\.name)
        for _ in 0..<3 {
            #expect(try store.read { try $0.record(Notebook.page, id: "k1") } == first)
            #expect(try store.read { try $0.record(Notebook.page, id: "k2") } == bare)
            #expect(try store.read { try $0.count(query) } == count)
            #expect(try store.read { try $0.names(of: Notebook.page, beginningWith: "ba", limit: 5) } == completions)
            #expect(try store.read { try $0.search(Notebook.page, text: "bar") }.map(\.name) == names)
        }
        #expect(first.values["pinned"] == .boolean(true))
        #expect(first.values["words"] == .integer(-9_007_199_254_740_993))
        #expect(first.values["rating"] == .number(0.25))
        #expect(bare.values["rating"] == nil)
        #expect(names == ["bare"])
        #expect(count == 6)
        #expect(completions == ["bare"])
        // Another program adds a column to the table, as another instance's migration would: a
        // statement prepared before that selects `*` would be refused; the store reads on.
        try Self.psql(url, #"ALTER TABLE "Notebook.Page" ADD COLUMN added_elsewhere TEXT"#)
        #expect(try store.read { try $0.record(Notebook.page, id: "k1") }?.values["title"] == .string("it's ? $1"))
        #expect(try store.read { try $0.record(Notebook.page, id: "k1") }?.values["title"] == .string("it's ? $1"))
    }

    @Test("A group whose first writes fail: each rolls back whole, the next write begins the group again")
    func groupFirstWriteFails() throws {
        let url = try PostgresCluster.freshStore("group")
        let store = try Notebook.seeded(url)
        let reader = try Store(path: url, graph: Notebook.graph, clock: Notebook.clock)
        try store.openGroup()
        // The group's first write fails in its body: nothing of it stays, no group has begun.
        #expect(throws: StoreError.self) {
            try store.write { transaction in
                try transaction.insert(Notebook.page, values: ["title": .string("lost one")], id: "g1")
                throw StoreError.writeFailed("refused")
            }
        }
        #expect(!store.isGroupBegun)
        // The next fails in PostgreSQL (an id taken), found when it ends, as a savepoint's would be.
        #expect(throws: StoreError.self) {
            try store.write { transaction in
                try transaction.insert(Notebook.page, values: ["title": .string("lost two")], id: "g2")
                try transaction.insert(Notebook.page, values: ["title": .string("again")], id: "p1")
            }
        }
        #expect(!store.isGroupBegun)
        // The next begins the group; one after it joins; nothing is seen before the commit.
        _ = try store.write { try $0.insert(Notebook.page, values: ["title": .string("kept one")], id: "g3") }
        #expect(store.isGroupBegun)
        _ = try store.write { try $0.insert(Notebook.page, values: ["title": .string("kept two")], id: "g4") }
        #expect(try reader.read { try $0.record(Notebook.page, id: "g3") } == nil)
        try store.commitGroup()
        let ids = try Notebook.ids(reader, RecordQuery(entity: Notebook.page))
        #expect(ids.sorted() == ["g3", "g4", "p1", "p2", "p3", "p4"], "\(ids)")
        #expect(try reader.read { try $0.record(Notebook.page, id: "p1") }?.values["title"] == .string("intro"))
        #expect(try reader.read { try $0.search(Notebook.page, text: "lost") }.isEmpty)
    }

    /// Runs `sql` in the store's schema through `psql`: another program's connection.
    static func psql(_ store: String, _ sql: String) throws {
        let parts = store.components(separatedBy: "?schema=")
        try #require(parts.count == 2)
        let psql = try #require(ExternalTool.postgres("psql"), "psql is not installed")
        let run = try ExternalTool.run(
            psql, [parts[0], "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", "SET search_path TO \"\(parts[1])\"; " + sql])
        try #require(run.status == 0, "psql: \(run.stderr)")
    }

    @Test("A password in the URL never appears in a message")
    func passwordHidden() throws {
        #expect {
            _ = try Store(path: "postgres://u:sekrit@127.0.0.1:1/db", graph: Notebook.graph, clock: Notebook.clock)
        } throws: { !"\($0)".contains("sekrit") }
    }

    @Test("A URL that is not one, a schema that is not a name, a server that is not there: errors naming it")
    func clearErrors() throws {
        #expect {
            _ = try Store(path: "postgres://", graph: Notebook.graph, clock: Notebook.clock)
        } throws: { "\($0)".contains("not a PostgreSQL URL") }
        #expect {
            _ = try Store(
                path: "postgres://u@127.0.0.1:1/db?schema=Bad-Name", graph: Notebook.graph, clock: Notebook.clock)
        } throws: { "\($0)".contains("is not a name") }
        // Port 1 on loopback: nothing listens there.
        #expect {
            _ = try Store(path: "postgres://u@127.0.0.1:1/db", graph: Notebook.graph, clock: Notebook.clock)
        } throws: { error in
            "\(error)".contains("postgres://u@127.0.0.1:1/db") && "\(error)".contains("cannot connect")
        }
    }
}
