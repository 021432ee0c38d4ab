import Foundation
import IntentModel
import Testing

@testable import ModelStore

@Suite("Record filters: lowered to SQL with bound values and run by the store")
struct RecordFilterTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let filter: RecordFilter
        /// Page ids, oldest first.
        let expected: [String]

        init(_ name: String, _ filter: RecordFilter, _ expected: [String]) {
            self.name = name
            self.filter = filter
            self.expected = expected
        }

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case("words == 120", .compare(property: "words", .equal, .integer(120)), ["p1"]),
        Case(
            "words != 120 keeps pages without words", .compare(property: "words", .notEqual, .integer(120)),
            ["p2", "p3", "p4"]),
        Case("words < 120", .compare(property: "words", .less, .integer(120)), ["p2"]),
        Case("words <= 120", .compare(property: "words", .lessOrEqual, .integer(120)), ["p1", "p2"]),
        Case("words > 40", .compare(property: "words", .greater, .integer(40)), ["p1", "p4"]),
        Case("words >= 300", .compare(property: "words", .greaterOrEqual, .integer(300)), ["p4"]),
        Case(
            "rating > 4, an integer against a number", .compare(property: "rating", .greater, .integer(4)),
            ["p1", "p4"]),
        Case("words == nil", .isNil("words"), ["p3"]),
        Case("words != nil", .compare(property: "words", .notEqual, nil), ["p1", "p2", "p4"]),
        Case("words < nil is false", .compare(property: "words", .less, nil), []),
        Case("pinned", .compare(property: "pinned", .equal, .boolean(true)), ["p1", "p4"]),
        Case("priority == urgent", .compare(property: "priority", .equal, .enumCase("urgent")), ["p2"]),
        Case(
            "priority < normal, in declared order", .compare(property: "priority", .less, .enumCase("normal")),
            ["p2"]),
        Case("priority >= normal", .compare(property: "priority", .greaterOrEqual, .enumCase("normal")), ["p1", "p3"]),
        Case(
            "due <= a moment", .compare(property: "due", .lessOrEqual, .date(.moment(Notebook.date("2026-11-30")))),
            ["p1"]),
        Case(
            "due > today, resolved by the store's clock",
            .compare(property: "due", .greater, .date(.relative(days: 0, time: nil))), ["p1", "p4"]),
        Case("id, a built-in", .compare(property: "id", .equal, .string("p3")), ["p3"]),
        Case(
            "createdAt, a built-in", .compare(property: "createdAt", .greater, .date(.moment(Notebook.clock.now))),
            ["p2", "p3", "p4"]),
        Case("title in a list", .oneOf(property: "title", [.string("intro"), .string("appendix")]), ["p1", "p3"]),
        Case("in nothing", .oneOf(property: "title", []), []),
        Case("text contains, ignoring case", .textContains(property: "title", "RUST"), ["p4"]),
        Case("a quote in a value is bound, not written", .textContains(property: "title", "'); DROP TABLE x; --"), []),
        Case("list contains", .listContains(property: "tags", .string("draft")), ["p1", "p2"]),
        Case(
            "!pinned && words > 30",
            !.compare(property: "pinned", .equal, .boolean(true))
                && .compare(property: "words", .greater, .integer(30)), ["p2"]),
        Case(
            "pinned || priority == low",
            .compare(property: "pinned", .equal, .boolean(true))
                || .compare(property: "priority", .equal, .enumCase("low")), ["p1", "p3", "p4"]),
        Case("true", .constant(true), ["p1", "p2", "p3", "p4"]),
        Case("false", .constant(false), []),
    ]

    @Test(arguments: Backend.allCases, Self.cases)
    func filters(_ backend: Backend, _ c: Case) throws {
        let scratch = try backend.scratch("filter")
        let store = try Notebook.seeded(scratch.path)
        let query = RecordQuery(entity: Notebook.page, filter: c.filter)
        #expect(try Notebook.ids(store, query) == c.expected)
        #expect(try store.read { try $0.count(query) } == c.expected.count)
    }

    struct Ordering: Sendable, CustomTestStringConvertible {
        let name: String
        let query: RecordQuery
        let expected: [String]

        var testDescription: String { name }
    }

    static func sorted(_ keys: [(String, Bool)], filter: RecordFilter? = nil, limit: Int? = nil) -> RecordQuery {
        RecordQuery(
            entity: Notebook.page, filter: filter,
            sort: keys.map { IntentGraph.SortKey(property: $0.0, descending: $0.1) }, limit: limit)
    }

    static let orderings: [Ordering] = [
        Ordering(name: "no sort: oldest first", query: sorted([]), expected: ["p1", "p2", "p3", "p4"]),
        Ordering(
            name: "enum ascending: declared order, missing last", query: sorted([("priority", false)]),
            expected: ["p2", "p1", "p3", "p4"]),
        Ordering(
            name: "enum descending: missing still last", query: sorted([("priority", true)]),
            expected: ["p3", "p1", "p2", "p4"]),
        Ordering(
            name: "words descending, limit 2", query: sorted([("words", true)], limit: 2),
            expected: ["p4", "p1"]),
        Ordering(
            name: "two keys", query: sorted([("pinned", true), ("words", false)]),
            expected: ["p1", "p4", "p2", "p3"]),
        Ordering(
            name: "filter, sort and limit",
            query: sorted(
                [("rating", false)], filter: .compare(property: "rating", .notEqual, nil), limit: 2),
            expected: ["p3", "p1"]),
        Ordering(name: "limit 0", query: sorted([], limit: 0), expected: []),
    ]

    @Test(arguments: Backend.allCases, Self.orderings)
    func orders(_ backend: Backend, _ c: Ordering) throws {
        let scratch = try backend.scratch("order")
        let store = try Notebook.seeded(scratch.path)
        #expect(try Notebook.ids(store, c.query) == c.expected)
        #expect(try store.read { try $0.count(c.query) } == c.expected.count)
    }

    static let mistakes: [(RecordFilter, String)] = [
        (.compare(property: "colour", .equal, .string("red")), "Page has no property 'colour'"),
        (.textContains(property: "words", "1"), "Page.words is integer, not text: it cannot contain text"),
        (.listContains(property: "title", .string("x")), "Page.title is not a list"),
        (.compare(property: "tags", .equal, .array([])), "Page.tags is a list: ask whether it contains a value"),
        (.compare(property: "priority", .less, .enumCase("someday")), "'someday' is not a case of Page.priority"),
    ]

    @Test(
        "A filter the entity cannot answer is refused, naming the property", arguments: Backend.allCases, Self.mistakes)
    func refuses(_ backend: Backend, _ mistake: (RecordFilter, String)) throws {
        let (filter, message) = mistake
        let scratch = try backend.scratch("mistake")
        let store = try Notebook.seeded(scratch.path)
        #expect {
            try store.read { try $0.fetch(RecordQuery(entity: Notebook.page, filter: filter)) }
        } throws: { error in
            "\(error)" == message
        }
    }

    @Test("The SQL holds placeholders, never the values (an enum's declared cases, which order it, are written out)")
    func valuesAreBound() throws {
        let scratch = Scratch()
        let store = try Notebook.seeded(scratch.path)
        let table = try #require(store.tables[Notebook.page])
        let query = Self.sorted(
            [("priority", false)],
            filter: .textContains(property: "title", "o'brien") || .oneOf(property: "words", [.integer(7)]), limit: 3)
        let statement = try QueryLowering.select(query, from: table, store: store)
        #expect(!statement.sql.contains("brien") && !statement.sql.contains("7"))
        // The cases come from the definitions, not from what was asked, and an index on the same
        // expression serves the sort only when they are written out, as the index has them.
        #expect(
            statement.sql.contains("CASE \"priority\" WHEN 'urgent' THEN 0 WHEN 'normal' THEN 1 WHEN 'low' THEN 2 END"))
        #expect(statement.arguments.count == 2)
        #expect(statement.sql.hasSuffix("LIMIT 3"))
    }
}
