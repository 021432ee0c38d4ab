import Foundation
import IntentModel
import ModelStore
import TestSupport
import Testing

@Suite("Indexes: declared with indexed: true, made and dropped as the store opens")
struct IndexTests {
    static let indexedProperties = Notebook.properties
        .replacingOccurrences(
            of: "words: { type: integer, optional: true }",
            with: "words: { type: integer, optional: true, indexed: true }"
        )
        .replacingOccurrences(
            of: "priority: { type: Priority, optional: true }",
            with: "priority: { type: Priority, optional: true, indexed: true }")

    static func plan(_ store: Store, _ query: RecordQuery) throws -> String {
        try store.queryPlans { _ = try store.read { try $0.fetch(query) } }.map(\.plan).joined(separator: "; ")
    }

    @Test("A where or sort on an indexed property reads the index; without indexed: the table")
    func indexedPropertiesAreServed() throws {
        let scratch = Scratch()
        _ = try Notebook.seeded(scratch.path)
        let plain = try Store(path: scratch.path, graph: Notebook.graph, clock: Notebook.clock)
        let byWords = RecordQuery(entity: Notebook.page, filter: .compare(property: "words", .greater, .integer(100)))
        #expect(try Self.plan(plain, byWords).hasPrefix("SCAN"))

        let graph = compileGraph(Notebook.definitions(properties: Self.indexedProperties))
        let indexed = try Store(path: scratch.path, graph: graph, clock: Notebook.clock)
        #expect(try Self.plan(indexed, byWords).contains("USING INDEX"))
        let ids = try indexed.read { try $0.fetch(byWords) }.map(\.id)
        #expect(ids == ["p1", "p4"])
        // Enum order is the declared one, and the index on it serves the sort.
        let byPriority = RecordQuery(
            entity: Notebook.page, sort: [IntentGraph.SortKey(property: "priority", descending: false)], limit: 2)
        let plan = try Self.plan(indexed, byPriority)
        #expect(plan.contains("USING INDEX") && !plan.contains("TEMP B-TREE"), "\(plan)")
        #expect(try indexed.read { try $0.fetch(byPriority) }.map(\.id) == ["p2", "p1"])

        // Taking indexed: away drops the index as the store opens.
        let reopened = try Store(path: scratch.path, graph: Notebook.graph, clock: Notebook.clock)
        #expect(try Self.plan(reopened, byWords).hasPrefix("SCAN"))
    }
}
