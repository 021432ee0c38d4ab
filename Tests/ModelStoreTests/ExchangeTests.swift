import Foundation
import IntentModel
import ModelStore
import TestSupport
import Testing

@Suite("Export and import through the Codable types")
struct ExchangeTests {
    @Test("Export → JSON text → import into a new store → the same export and the same records")
    func roundTrip() throws {
        let source = try Notebook.seeded(Scratch().path)
        let exported = try source.read { try $0.export() }
        #expect(exported.records["Notebook.Page"]?.count == 4)
        let first = try #require(exported.records["Notebook.Page"]?.first)
        #expect(first["due"] == "2026-11-23T09:00:00Z")
        #expect(first["priority"] == "normal")
        #expect(first["tags"] == ["draft", "howto"])
        #expect(first["createdAt"] == "2026-11-22T10:00:00Z")
        #expect(first["pinned"] == true)
        #expect(first["rating"] == 4.5)

        let text = try JSONText.pretty(exported)
        #expect(text.contains("\n      \"id\": \"p1\",\n"))
        let decoded = try JSONText.decode(StoreExport.self, from: text)
        #expect(decoded == exported)

        let scratch = Scratch()
        let target = try Store(path: scratch.path, graph: Notebook.graph, clock: Notebook.clock)
        #expect(try target.write { try $0.importRecords(decoded) } == 4)
        #expect(try target.read { try $0.export() } == exported)
        let all = RecordQuery(entity: Notebook.page)
        #expect(try target.read { try $0.fetch(all) } == source.read { try $0.fetch(all) })
    }

    @Test("Importing again replaces by id; a record without id or stamps gets new ones")
    func replaceAndFill() throws {
        let store = try Notebook.seeded(Scratch().path)
        let export = StoreExport(records: ["Page": [["id": "p1", "title": "intro, again"], ["title": "new"]]])
        #expect(try store.write { try $0.importRecords(export) } == 2)
        let pages = try store.read { try $0.fetch(RecordQuery(entity: Notebook.page)) }
        #expect(pages.count == 5)
        let replaced = try #require(pages.first { $0.id == "p1" })
        #expect(replaced.values["title"] == .string("intro, again"))
        #expect(replaced.values["pinned"] == .boolean(false))
        let new = try #require(pages.first { $0.values["title"] == .string("new") })
        #expect(new.id.count == 36 && new.createdAt == Notebook.clock.now)
    }

    static let badImports: [(json: String, message: String)] = [
        (
            #"{"Notebook.Page": [{"title": "ok"}, {"title": 42}]}"#,
            "Notebook.Page[1]: Page.title must be string, not 42"
        ),
        (#"{"Page": [{"title": "x", "words": 1.5}]}"#, "Page[0]: Page.words must be integer, not 1.5"),
        (#"{"Page": [{"title": "x", "pinned": "yes"}]}"#, #"Page[0]: Page.pinned must be boolean, not "yes""#),
        (#"{"Page": [{"title": "x", "tags": ["a", 1]}]}"#, #"Page[0]: Page.tags must be [string], not ["a",1]"#),
        (#"{"Page": [{"title": "x", "colour": "red"}]}"#, "Page[0]: Page has no property 'colour'"),
        (#"{"Page": [{"words": 3}]}"#, "Page[0]: Page.title needs a value"),
        (#"{"Page": [{"title": "x", "createdAt": "yesterday"}]}"#, "Page[0]: Page.createdAt must be an ISO-8601 date"),
        (#"{"Notebook.Paper": []}"#, "unknown entity 'Notebook.Paper' (known: Notebook.Page)"),
    ]

    @Test("A bad value imports nothing and is named with its entity and property", arguments: Self.badImports)
    func badImport(json: String, message: String) throws {
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
        "A file that is not an object of lists of objects says where",
        arguments: [
            (#"{"Page": 3}"#, "'Page' must be a list of records"),
            (#"{"Page": [3]}"#, "Page[0] must be an object"),
            ("[1]", #"an export is a JSON object of the form {"App.Entity": [records]}"#),
        ])
    func badShape(json: String, message: String) throws {
        #expect {
            try StoreExport(json: JSONText.decode(JSONValue.self, from: json))
        } throws: { error in
            "\(error)" == message
        }
        #expect(throws: DecodingError.self) { try JSONText.decode(StoreExport.self, from: json) }
    }

    @Test(
        "The journal keeps typed parameters and records; undo restores the record from it", arguments: Backend.allCases)
    func journalAndUndo(_ backend: Backend) throws {
        let scratch = try backend.scratch("undo")
        let store = try Notebook.seeded(scratch.path)
        let page = try #require(try store.read { try $0.record(Notebook.page, id: "p2") })
        try store.write { transaction in
            try transaction.update(page, set: ["words": .integer(41), "tags": nil])
            try transaction.journal(
                intent: QualifiedName(app: "Notebook", name: "EditPage"),
                parameters: ["page": ["id": "p2"], "words": 41], dialog: "Edited.", donation: ["words": 41])
        }
        let executions = try store.read { try $0.executions() }
        #expect(executions.first?.parameters == #"{"page":{"id":"p2"},"words":41}"#)
        #expect(try store.read { try $0.donations() }.first?.parameters == #"{"words":41}"#)
        let undone = try store.write { try $0.undoLast() }
        #expect(undone?.changes == 1)
        #expect(try store.read { try $0.record(Notebook.page, id: "p2") } == page)
    }
}

@Suite("The journal's JSON writer")
struct JSONTextTests {
    static let values: [JSONValue] = [
        .null, true, false, 0, -42, .integer(Int.max), 2.0, 0.1, -0.0, 1e16, 1e-7, 123_456_789_012.5,
        .number(.greatestFiniteMagnitude), .number(.infinity), .number(.nan),
        "", "plain", "a/b \"quoted\" back\\slash é 😀 \u{2028}",
        .string(String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar(UInt8($0)) }))),
        [], [1, "two", nil, [3.5]], [:],
        ["b": 1, "B": 2, "a10": 3, "a2": 4, "_x": 5, "é": 6, "e": ["nested": [:], "list": []]],
    ]

    @Test("writes what JSONEncoder writes", arguments: Self.values)
    func agreesWithJSONEncoder(_ value: JSONValue) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(JSONText.compact(value) == String(decoding: try encoder.encode(value), as: UTF8.self))
        // A number that is not finite is written null; anything else reads back as itself.
        if case .number(let number) = value, !number.isFinite { return }
        #expect(try JSONText.decode(JSONValue.self, from: JSONText.compact(value)) == value)
    }
}
