import Foundation
import IntentModel
import ModelStore
import TestSupport
import Testing

@Suite("The store alone: migrations and transactions")
struct StoreTests {
    struct Migration: Sendable, CustomTestStringConvertible {
        let name: String
        let properties: String
        let refusal: String

        var testDescription: String { name }
    }

    static let refusedMigrations: [Migration] = [
        Migration(
            name: "a property with data removed",
            properties: Notebook.properties.replacingOccurrences(
                of: "words: { type: integer, optional: true }", with: ""),
            refusal: "Page.words (integer) was removed, but 3 records hold a value"),
        Migration(
            name: "a type change of a property with data",
            properties: Notebook.properties.replacingOccurrences(
                of: "words: { type: integer, optional: true }", with: "words: { type: string, optional: true }"),
            refusal: "Page.words changed type from integer to string, and 3 records hold a value"),
        Migration(
            name: "a new required property",
            properties: Notebook.properties + "\n      author: string",
            refusal: "Page.author is new and required, but the 4 stored records have no value for it"),
    ]

    @Test(
        "A destructive change is refused, naming entity and property; nothing changes",
        arguments: Backend.allCases, Self.refusedMigrations)
    func refusesMigration(_ backend: Backend, _ migration: Migration) throws {
        let scratch = try backend.scratch("migration")
        _ = try Notebook.seeded(scratch.path)
        let changed = compileGraph(Notebook.definitions(properties: migration.properties))
        #expect {
            _ = try Store(path: scratch.path, graph: changed, clock: Notebook.clock)
        } throws: { error in
            guard case StoreError.destructiveChange(let path, let reasons) = error else { return false }
            return path == scratch.path && reasons.contains { $0.hasPrefix(migration.refusal) }
                && "\(error)".contains("Nothing was changed")
        }
        let store = try Store(path: scratch.path, graph: Notebook.graph, clock: Notebook.clock)
        let words = try store.read { try $0.fetch(RecordQuery(entity: Notebook.page)) }.map { $0.values["words"] }
        #expect(words == [.integer(120), .integer(40), nil, .integer(300)])
    }

    @Test("A new optional property migrates by itself and reads as missing", arguments: Backend.allCases)
    func additiveMigration(_ backend: Backend) throws {
        let scratch = try backend.scratch("additive")
        _ = try Notebook.seeded(scratch.path)
        let properties = Notebook.properties + "\n      author: { type: string, optional: true }"
        let changed = compileGraph(Notebook.definitions(properties: properties))
        let store = try Store(path: scratch.path, graph: changed, clock: Notebook.clock)
        let pages = try store.read { try $0.fetch(RecordQuery(entity: Notebook.page, filter: .isNil("author"))) }
        #expect(pages.count == 4)
    }

    @Test(
        "atomically: writes inside are savepoints of one transaction; a failure keeps none of them",
        arguments: Backend.allCases)
    func atomicRuns(_ backend: Backend) throws {
        try backend.withEmptyNotebook("atomic") { store in
            #expect(throws: Rollback.self) {
                try store.atomically {
                    _ = try store.write { try $0.insert(Notebook.page, values: ["title": .string("one")]) }
                    _ = try store.write { try $0.insert(Notebook.page, values: ["title": .string("two")]) }
                    throw Rollback()
                }
            }
            #expect(try store.read { try $0.count(RecordQuery(entity: Notebook.page)) } == 0)
            try store.atomically {
                _ = try store.write { try $0.insert(Notebook.page, values: ["title": .string("one")]) }
                // A failing write inside rolls back its own savepoint only.
                _ = try? store.write { transaction in
                    try transaction.insert(Notebook.page, values: ["title": .string("lost")])
                    throw Rollback()
                }
                // Reads inside see what the run has written so far.
                #expect(try store.read { try $0.count(RecordQuery(entity: Notebook.page)) } == 1)
                _ = try store.write { try $0.insert(Notebook.page, values: ["title": .string("two")]) }
            }
            let titles = try store.read { try $0.fetch(RecordQuery(entity: Notebook.page)) }.map { $0.values["title"] }
            #expect(titles == [.string("one"), .string("two")])
        }
    }

    @Test("Another thread's write waits for an atomic run instead of joining it", arguments: Backend.allCases)
    func otherThreadsWait(_ backend: Backend) throws {
        try backend.withEmptyNotebook("wait") { store in
            let started = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
            Thread {
                started.wait()
                _ = try? store.write { try $0.insert(Notebook.page, values: ["title": .string("other")]) }
                finished.signal()
            }.start()
            #expect(throws: Rollback.self) {
                try store.atomically {
                    _ = try store.write { try $0.insert(Notebook.page, values: ["title": .string("rolled back")]) }
                    started.signal()
                    Thread.sleep(forTimeInterval: 0.2)
                    throw Rollback()
                }
            }
            finished.wait()
            let titles = try store.read { try $0.fetch(RecordQuery(entity: Notebook.page)) }.map { $0.values["title"] }
            #expect(titles == [.string("other")])
        }
    }
}
