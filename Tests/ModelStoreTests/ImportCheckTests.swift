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
        arguments: [
            ("urgent", "urgent"), ("Urgent", "urgent"), ("ASAP", "urgent"), ("high priority", "urgent"), ("Low", "low"),
        ])
    func mapsSynonyms(given: String, stored: String) throws {
        let store = try Notebook.seeded(Scratch().path)
        let export = StoreExport(records: ["Page": [["id": "n1", "title": "x", "priority": .string(given)]]])
        #expect(try store.write { try $0.importRecords(export) } == 1)
        let page = try #require(
            try store.read { try $0.fetch(RecordQuery(entity: Notebook.page)) }.first { $0.id == "n1" })
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
            // The writer keeps its lock until this block ends: had opening or reading waited for it,
            // they would have failed after the busy timeout. Their success is the proof, not a
            // stopwatch (which a loaded machine can stop past half a second).
            let reader = try Store(path: scratch.path, graph: Notebook.graph, clock: Notebook.clock, busyTimeout: 0.5)
            #expect(try reader.read { try $0.count(RecordQuery(entity: Notebook.page)) } == 4)
        }
    }
}

@Suite("Data the definitions no longer describe is refused or kept and reported, never hidden")
struct OrphanedDataTests {
    @Test("Removing an enum case that records still use is refused, naming the case; export keeps the value")
    func removedCaseInUse() throws {
        let scratch = Scratch()
        _ = try Notebook.seeded(scratch.path)
        let withoutLow = compileGraph(
            Notebook.definitions().replacingOccurrences(of: "      low: { title: Low }\n", with: ""))
        #expect {
            _ = try Store(path: scratch.path, graph: withoutLow, clock: Notebook.clock)
        } throws: { error in
            guard case StoreError.destructiveChange(_, let reasons) = error else { return false }
            return reasons == ["Page.priority holds the case 'low' in 1 record, but Priority no longer declares it"]
        }
        let readOnly = try Store(path: scratch.path, graph: withoutLow, clock: Notebook.clock, readOnly: true)
        let pages = try readOnly.read { try $0.export() }.records["Notebook.Page"] ?? []
        #expect(pages.count == 4)
        #expect(pages.contains { $0["priority"] == "low" })
    }

    @Test("Removing an enum case nobody uses migrates")
    func removedCaseUnused() throws {
        let scratch = Scratch()
        _ = try Notebook.seeded(scratch.path)
        let extra = compileGraph(
            Notebook.definitions().replacingOccurrences(
                of: "      low: { title: Low }\n", with: "      low: { title: Low }\n      later: { title: Later }\n"))
        _ = try Store(path: scratch.path, graph: extra, clock: Notebook.clock)
        _ = try Store(path: scratch.path, graph: Notebook.graph, clock: Notebook.clock)
    }

    @Test("A renamed entity's rows are kept, reported and exported")
    func renamedEntity() throws {
        let scratch = Scratch()
        _ = try Notebook.seeded(scratch.path)
        let renamed = compileGraph(Notebook.definitions().replacingOccurrences(of: "  Page:\n", with: "  Sheet:\n"))
        let store = try Store(path: scratch.path, graph: renamed, clock: Notebook.clock)
        #expect(try store.orphanedRecords() == ["Notebook.Page": 4])
        let export = try store.read { try $0.export() }
        #expect(export.records["Notebook.Page"]?.count == 4)
        #expect(export.records["Notebook.Page"]?.contains { $0["title"] == "intro" } == true)
        #expect(export.records["Notebook.Sheet"]?.isEmpty == true)
    }
}

@Suite("Import: entity references must name a record")
struct ImportReferenceTests {
    static let graph = compileGraph(
        """
        app: Library
        entities:
          Shelf:
            properties: { name: string }
            matchBy: [name]
          Book:
            properties:
              title: string
              shelf: { type: Shelf, optional: true }
            matchBy: [title]
        intents:
          Hello:
            phrases: ["hello library"]
            result: { dialog: "Hello." }
        """)

    @Test(
        "A reference to a record that is neither stored nor imported refuses the file",
        arguments: [
            (#"{"Book": [{"title": "x", "shelf": "nope"}]}"#, "Book[0]: Book.shelf names no Shelf with the id 'nope'"),
            (#"{"Shelf": [{"id": "s1", "name": "top"}], "Book": [{"title": "x", "shelf": "s1"}]}"#, nil),
        ])
    func references(_ json: String, _ message: String?) throws {
        let store = try Store(path: Scratch().path, graph: Self.graph, clock: Notebook.clock)
        let export = try JSONText.decode(StoreExport.self, from: json)
        if let message {
            #expect {
                _ = try store.write { try $0.importRecords(export) }
            } throws: { error in
                "\(error)" == message
            }
        } else {
            #expect(try store.write { try $0.importRecords(export) } == 2)
        }
    }
}
