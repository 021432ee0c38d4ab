import Foundation
import IntentModel
import ModelStore
import TestSupport
import Testing

@Suite("Export and import as streams: a record at a time, the same text and the same records")
struct StreamingExchangeTests {
    static let importing = QualifiedName(app: "intents", name: "import")

    static func exportText(_ store: Store) throws -> String {
        var text = ""
        try store.read { try $0.export { text += $0 } }
        return text
    }

    static func importText(_ text: String, into store: Store, piece: Int = Int.max) throws -> Int {
        var stream = JSONRecordStream(text: text, piece: piece)
        return try store.write { try $0.importRecords(from: &stream, journalAs: importing, parameters: [:]) }
    }

    @Test(
        "The streamed export is the text the whole export makes; importing it, cut anywhere, gives it back",
        arguments: Backend.allCases)
    func roundTrip(_ backend: Backend) throws {
        let source = try Notebook.seeded(Scratch().path)
        let text = try Self.exportText(source)
        #expect(text == (try JSONText.pretty(try source.read { try $0.export() })) + "\n")
        for piece in [1, 7, 4096] {
            let scratch = try backend.scratch("import")
            let target = try Store(path: scratch.path, graph: Notebook.graph, clock: Notebook.clock)
            #expect(try Self.importText(text, into: target, piece: piece) == 4)
            #expect(try Self.exportText(target) == text, "cut every \(piece) bytes")
        }
    }

    @Test("Escapes, unicode and numbers read as JSON says")
    func valuesAsWritten() throws {
        let store = try Store(path: Scratch().path, graph: Notebook.graph, clock: Notebook.clock)
        let text =
            #"{"Page": [{"id": "e1", "title": "Zo\u00eb \"quoted\" \ud83d\ude00 tab\t", "words": -12, "rating": 2.5e1}]}"#
        #expect(try Self.importText(text, into: store, piece: 3) == 1)
        let page = try #require(try store.read { try $0.record(Notebook.page, id: "e1") })
        #expect(page.values["title"] == .string("Zoë \"quoted\" 😀 tab\t"))
        #expect(page.values["words"] == .integer(-12))
        #expect(page.values["rating"] == .number(25))
    }

    @Test("A bad record anywhere leaves the store as it was, and says where", arguments: Backend.allCases)
    func badRecordChangesNothing(_ backend: Backend) throws {
        let scratch = try backend.scratch("badimport")
        let store = try Notebook.seeded(scratch.path)
        let before = try Self.exportText(store)
        let cases: [(String, String)] = [
            (
                #"{"Page": [{"id": "n1", "title": "fine"}, {"id": "n2", "words": 3}]}"#,
                "Page[1]: Page.title needs a value"
            ),
            (#"{"Page": [{"id": "n1", "title": "fine"}, 7]}"#, "Page[1] must be an object"),
            (#"{"Page": [{"id": "n1", "title": "fine"}], "Shelf": []}"#, "unknown entity 'Shelf'"),
            (#"{"Page": {"id": "n1"}}"#, "'Page' must be a list of records"),
            (
                #"{"Page": [{"id": "n1", "title": "fine"}, {"id": "#,
                "line 1, column 49: the text ends before the export does"
            ),
            (
                #"{"Page": [{"id": "n1", "title": "fine"}, {"id": "n1", "title": "again"}]}"#,
                "already taken by an earlier Page"
            ),
        ]
        for (text, message) in cases {
            #expect(throws: (any Error).self) { try Self.importText(text, into: store) }
            do { _ = try Self.importText(text, into: store) } catch {
                #expect("\(error)".contains(message), "\(error)")
            }
            #expect(try Self.exportText(store) == before, "\(text)")
        }
    }

    /// Every syntax error says where it is (line and column, in characters) and why (issue 22).
    @Test(
        "A JSON syntax error names its line, column and reason",
        arguments: [
            ("{\"Page\": [{\"id\": \"n1\",}]}", "line 1, column 23: expected a field name in double quotes, found '}'"),
            (
                "{\"Page\": [\n  {\"id\": \"n1\"]\n}",
                "line 2, column 14: expected ',' or '}' after a field's value, found ']'"
            ),
            ("{\"Page\" [", "line 1, column 9: expected ':' after the entity name, found '['"),
            ("{\"Page\": [{\"title\": tru}]}", "line 1, column 21: expected true"),
            ("{\"Page\": [{\"title\": \"a\\q\"}]}", "line 1, column 23: '\\q' is not an escape JSON has"),
            (
                "{\"Page\": [{\"title\": \"Zoë\u{1}\"}]}",
                "line 1, column 25: a control character (U+0001) must be escaped in a string"
            ),
            ("{\"Page\": [{\"words\": 1e999}]}", "line 1, column 21: 1e999 is too large for a number"),
            ("{\"Page\": [{\"words\": 1-2}]}", "line 1, column 21: '1-2' is not a number"),
            (
                "{\"Page\": [{\"title\": \"\\ud800\"}]}",
                "line 1, column 22: \\ud800 is half a character: a low surrogate \\u must follow"
            ),
            ("{\"Page\": []} x", "line 1, column 14: text after the end of the export"),
            ("{\"Page\": [{\"title\": @}]}", "line 1, column 21: expected a value, found '@'"),
            ("{\"Page\": [{\"title\": \"x\"} {", "line 1, column 26: expected ',' or ']' after a record, found '{'"),
        ])
    func syntaxErrorsSayWhere(_ text: String, _ message: String) throws {
        // Read whole and a byte at a time: the place does not depend on where the chunks end.
        for piece in [Int.max, 1] {
            var stream = JSONRecordStream(text: text, piece: piece)
            do {
                while try stream.next() != nil {}
                Issue.record("\(text) was read")
            } catch {
                #expect(error.description == message, "\(text)")
            }
        }
    }

    @Test("An import is undone as one: replaced records come back, new ones go", arguments: Backend.allCases)
    func undoTakesItBack(_ backend: Backend) throws {
        let scratch = try backend.scratch("undoimport")
        let store = try Notebook.seeded(scratch.path)
        let before = try Self.exportText(store)
        let text = #"{"Page": [{"id": "p1", "title": "intro, again"}, {"id": "n1", "title": "new"}]}"#
        #expect(try Self.importText(text, into: store) == 2)
        #expect(try store.read { try $0.record(Notebook.page, id: "p1") }?.values["title"] == .string("intro, again"))
        let undone = try store.write { try $0.undoLast() }
        #expect(undone?.changes == 2)
        #expect(try Self.exportText(store) == before)
    }

    @Test("A big import makes its table's indexes again at the end; a failed one leaves them as they were")
    func bigImportKeepsIndexes() throws {
        let graph = compileGraph(Notebook.definitions(properties: IndexTests.indexedProperties))
        let store = try Store(path: Scratch().path, graph: graph, clock: Notebook.clock)
        let byWords = RecordQuery(
            entity: Notebook.page, filter: .compare(property: "words", .greater, .integer(10_040)))
        let pages = (0..<10_050).map { #"{"id": "b\#($0)", "title": "page \#($0)", "words": \#($0)}"# }
        let text = #"{"Page": [\#(pages.joined(separator: ","))]}"#
        var stream = JSONRecordStream(text: text)
        let count = try store.write {
            try $0.importRecords(from: &stream, journalAs: Self.importing, parameters: [:])
        }
        #expect(count == 10_050)
        #expect(try IndexTests.plan(store, byWords).contains("USING INDEX"))
        #expect(try store.read { try $0.fetch(byWords) }.map(\.id) == (10_041..<10_050).map { "b\($0)" })

        var broken = JSONRecordStream(text: String(text.dropLast(3)))
        #expect(throws: (any Error).self) {
            try store.write { try $0.importRecords(from: &broken, journalAs: Self.importing, parameters: [:]) }
        }
        #expect(try IndexTests.plan(store, byWords).contains("USING INDEX"))
    }
    @Test("A big import finds and searches what importing one record at a time would, and is undone as one")
    func bigImportAsOneAtATime() throws {
        // Pages 0…1,233 (batches of many records, search documents crossing many flushes), every
        // seventh named "shared name", and the stored p1 and p2 replaced in the middle of the file.
        var pages = (0..<1_234).map { number -> String in
            let title =
                number % 7 == 0 ? "shared name" : "page \(number) about \(["taxes", "milk", "Crème"][number % 3])"
            return #"{"id": "b\#(number)", "title": "\#(title)", "tags": ["t\#(number % 5)"]}"#
        }
        pages.insert(#"{"id": "p1", "title": "intro, again"}"#, at: 600)
        pages.insert(#"{"id": "p2", "title": "shared name"}"#, at: 900)
        let text = #"{"Page": [\#(pages.joined(separator: ","))]}"#
        func store() throws -> (Store, Scratch) {
            let scratch = Scratch()
            let store = try Store(
                path: scratch.path, graph: Notebook.graph, clock: Notebook.clock,
                indexer: BothBackendsTests.TitleIndexer())
            try store.write { transaction in
                // A minute apart: an export lists records by creation (an undone replacement comes back last).
                for (offset, (id, title)) in [("p1", "intro"), ("p2", "Outline"), ("p3", "shared name")].enumerated() {
                    try transaction.insert(
                        Notebook.page, values: ["title": .string(title)], id: id,
                        now: Bundled.now.addingTimeInterval(Double(offset) * 60))
                }
            }
            return (store, scratch)
        }
        let (streamed, first) = try store()
        let (oneByOne, second) = try store()
        defer { withExtendedLifetime((first, second)) {} }
        let before = try Self.exportText(streamed)
        let namesBefore = try streamed.read { try $0.names().map(\.name).sorted() }
        #expect(try Self.importText(text, into: streamed, piece: 4096) == 1_236)
        // The whole export's import writes each record as a phrase's would.
        let export = try JSONText.decode(StoreExport.self, from: text)
        #expect(try oneByOne.write { try $0.importRecords(export) } == 1_236)
        func answers(_ store: Store) throws -> [String] {
            try store.read { transaction in
                var lines: [String] = []
                for words in ["shared", "page 12", "creme", "t3", "intro again", "milk 11"] {
                    let groups = SearchText.words(words).map { [SearchTerm($0, prefix: true)] }
                    for row in try transaction.searchIndex(groups, now: Bundled.now, limit: 50) {
                        lines.append("search \(words): \(row.record) \(row.title) \(row.bm25) \(row.pending)")
                    }
                }
                for name in ["shared name", "page 12 about taxes", "page 13 abut milk", "intro again", "outline"] {
                    let hits = try transaction.lookUpName(name, entity: Notebook.page).hits
                    lines.append("name \(name): \(hits.map { "\($0.name) \($0.distance)" })")
                    let exact = try transaction.exactNameMatches(Notebook.page, text: name) { _ in true }
                    lines.append("exact \(name): \(exact.map(\.record.id))")
                }
                lines.append("names \(try transaction.names().map(\.name).sorted())")
                lines.append("vocabulary \(try transaction.searchVocabulary(prefix: "", limit: 10_000))")
                lines.append("items \(try transaction.searchIndexCount())")
                return lines
            }
        }
        #expect(try answers(streamed) == (try answers(oneByOne)))
        #expect(try Self.exportText(streamed) == (try Self.exportText(oneByOne)))
        try streamed.write { _ = try $0.undoLast() }
        #expect(try Self.exportText(streamed) == before)
        // The undo found every imported record's names through the rows that say whose they are.
        #expect(try streamed.read { try $0.names().map(\.name).sorted() } == namesBefore)
        #expect(try streamed.read { try $0.lookUpName("page 12 about taxes", entity: Notebook.page).hits }.isEmpty)
    }

    @Test("Two entities' records in one batch are found by name as importing one record at a time finds them")
    func twoEntitiesInOneBatch() throws {
        // Both lists fit in one batch of the streamed import: its rows name two entity tables.
        let graph = compileGraph(
            """
            app: Shelf
            entities:
              Book:
                properties:
                  title: string
                matchBy: [title]
              Author:
                properties:
                  name: string
                matchBy: [name]
            intents:
              Hello:
                phrases: { en: ["hello shelf"] }
                result: { dialog: "Hello." }
            """)
        let book = QualifiedName(app: "Shelf", name: "Book")
        let author = QualifiedName(app: "Shelf", name: "Author")
        let books = (0..<40).map { #"{"id": "b\#($0)", "title": "book \#($0 % 25) about rivers"}"# }
        let authors = (0..<40).map { #"{"id": "a\#($0)", "name": "author \#($0 % 30) Crème"}"# }
        let text = #"{"Book": [\#(books.joined(separator: ","))], "Author": [\#(authors.joined(separator: ","))]}"#
        let (first, second) = (Scratch(), Scratch())
        let streamed = try Store(path: first.path, graph: graph, clock: Notebook.clock)
        let oneByOne = try Store(path: second.path, graph: graph, clock: Notebook.clock)
        #expect(try Self.importText(text, into: streamed) == 80)
        let export = try JSONText.decode(StoreExport.self, from: text)
        #expect(try oneByOne.write { try $0.importRecords(export) } == 80)
        func answers(_ store: Store) throws -> [String] {
            try store.read { transaction in
                var lines: [String] = []
                for (entity, name) in [
                    (book, "book 7 about rivers"), (book, "bok 12 about rivers"), (author, "author 3 creme"),
                ] {
                    let hits = try transaction.lookUpName(name, entity: entity).hits
                    lines.append("name \(name): \(hits.map { "\($0.name) \($0.distance)" })")
                    let exact = try transaction.exactNameMatches(entity, text: name) { _ in true }
                    lines.append("exact \(name): \(exact.map(\.record.id).sorted())")
                }
                lines.append("names \(try transaction.names().map { "\($0.entity.name) \($0.name)" }.sorted())")
                return lines
            }
        }
        let lines = try answers(streamed)
        #expect(lines.contains("exact author 3 creme: [\"a3\", \"a33\"]"), "\(lines)")
        #expect(lines == (try answers(oneByOne)))
        #expect(try Self.exportText(streamed) == (try Self.exportText(oneByOne)))
        withExtendedLifetime((first, second)) {}
    }
}
