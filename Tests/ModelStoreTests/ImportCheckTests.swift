import Foundation
import IntentModel
import ModelStore
import TestSupport
import Testing

@Suite("Import checks every value against its type, as a phrase would")
struct ImportCheckTests {
    static let refused: [(json: String, message: String)] = [
        (
            #"{"Page": [{"title": "x", "priority": "bogus"}]}"#,
            #"Page[0]: Page.priority must be one of urgent, normal, low (or their titles and synonyms), not "bogus""#
        ),
        (
            #"{"Page": [{"title": "x", "words": 1e300}]}"#,
            "Page[0]: Page.words must be integer, not 1e+300"
        ),
        (
            #"{"Page": [{"title": "x", "words": -1e19}]}"#,
            "Page[0]: Page.words must be integer, not -1e+19"
        ),
        (
            #"{"Page": [{"title": "x", "words": 9223372036854775808}]}"#,
            "Page[0]: Page.words must be integer, not 9.223372036854776e+18"
        ),
        (
            #"{"Page": [{"title": "evil\u001b[2J\u001b]0;pwned\u0007"}]}"#,
            "Page[0]: Page.title holds a control character (U+001B); stored text may not"
        ),
        (
            #"{"Page": [{"title": "x", "tags": ["ok", "bell\u0007"]}]}"#,
            "Page[0]: Page.tags holds a control character (U+0007); stored text may not"
        ),
        (
            #"{"Page": [{"title": "x\u009b2J"}]}"#,
            "Page[0]: Page.title holds a control character (U+009B); stored text may not"
        ),
    ]

    @Test("A value a phrase could not give refuses the whole file", arguments: Self.refused)
    func refuses(json: String, message: String) throws {
        let store = try Notebook.seeded(Scratch().path)
        let export = try JSONText.decode(StoreExport.self, from: json)
        #expect {
            _ = try store.write { try $0.importRecords(export) }
        } throws: { error in
            "\(error)" == message
        }
        #expect(try store.read { try $0.count(RecordQuery(entity: Notebook.page)) } == 4)
    }

    @Test(
        "Enum titles and synonyms are stored as the case's identifier",
        arguments: [("urgent", "urgent"), ("Urgent", "urgent"), ("ASAP", "urgent"), ("high priority", "urgent"), ("Low", "low")])
    func mapsSynonyms(given: String, stored: String) throws {
        let store = try Notebook.seeded(Scratch().path)
        let export = StoreExport(records: ["Page": [["id": "n1", "title": "x", "priority": .string(given)]]])
        #expect(try store.write { try $0.importRecords(export) } == 1)
        let page = try #require(try store.read { try $0.fetch(RecordQuery(entity: Notebook.page)) }.first { $0.id == "n1" })
        #expect(page.values["priority"] == .enumCase(stored))
    }

    @Test("Newlines and tabs in text are kept")
    func keepsNewlines() throws {
        let store = try Notebook.seeded(Scratch().path)
        let export = StoreExport(records: ["Page": [["id": "n1", "title": "two\nlines\tand a tab"]]])
        #expect(try store.write { try $0.importRecords(export) } == 1)
    }
}

@Suite("Opening a store that needs no migration takes no write lock")
struct OpenWithoutLockTests {
    @Test("While another connection holds the write lock, the store opens and reads at once")
    func opensWhileLocked() throws {
        let scratch = Scratch()
        let writer = try Notebook.seeded(scratch.path)
        try writer.write { _ in
            let started = Date()
            let reader = try Store(path: scratch.path, graph: Notebook.graph, clock: Notebook.clock, busyTimeout: 0.5)
            #expect(try reader.read { try $0.count(RecordQuery(entity: Notebook.page)) } == 4)
            #expect(Date().timeIntervalSince(started) < 0.5)
        }
    }
}
