import Foundation
import IntentLanguage
import IntentModel
import ModelStore
import TestSupport
import Testing

/// A temporary directory for store files, removed when the test ends.
final class Scratch {
    let directory: String
    var path: String { directory + "/store.sqlite" }

    init() {
        directory = NSTemporaryDirectory() + "model-store-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// A notebook: pages with a property of every kind the store keeps.
enum Notebook {
    static let page = QualifiedName(app: "Notebook", name: "Page")

    /// `properties` replaces the page's properties (for migrations).
    static func definitions(properties: String = Notebook.properties) -> String {
        """
        app: Notebook
        enums:
          Priority:
            cases:
              urgent: { title: Urgent, synonyms: [asap, high priority] }
              normal: { title: Normal }
              low: { title: Low }
        entities:
          Page:
            properties:
        \(properties)
            matchBy: [title]
        intents:
          Hello:
            phrases: { en: ["hello notebook"] }
            result: { dialog: "Hello." }
        """
    }

    static let properties = """
              title: string
              words: { type: integer, optional: true }
              rating: { type: number, optional: true }
              pinned: { type: boolean, default: false }
              priority: { type: Priority, optional: true }
              tags: { type: "[string]", default: [] }
              due: { type: date, optional: true }
        """

    static let graph = compileGraph(definitions())

    static let clock = Bundled.clock

    static func date(_ text: String) -> Date { ISODate.parse(text, timeZone: .gmt)! }

    /// Four pages, a minute apart, with ids p1…p4.
    static let pages: [(id: String, values: [String: Value])] = [
        (
            "p1",
            [
                "title": .string("intro"), "words": .integer(120), "rating": .number(4.5), "pinned": .boolean(true),
                "priority": .enumCase("normal"), "tags": .array([.string("draft"), .string("howto")]),
                "due": .date(.moment(date("2026-11-23T09:00:00Z"))),
            ]
        ),
        (
            "p2",
            [
                "title": .string("Outline"), "words": .integer(40), "priority": .enumCase("urgent"),
                "tags": .array([.string("draft")]),
            ]
        ),
        ("p3", ["title": .string("appendix"), "rating": .number(2), "priority": .enumCase("low")]),
        (
            "p4",
            [
                "title": .string("notes on Rust"), "words": .integer(300), "rating": .number(5),
                "pinned": .boolean(true),
                "tags": .array([.string("rust")]), "due": .date(.moment(date("2026-12-01T00:00:00Z"))),
            ]
        ),
    ]

    /// A new store at `path` holding `pages`.
    static func seeded(_ path: String, graph: IntentGraph = Notebook.graph) throws -> Store {
        let store = try Store(path: path, graph: graph, clock: clock)
        try store.write { transaction in
            for (offset, page) in pages.enumerated() {
                let now = Bundled.now.addingTimeInterval(Double(offset) * 60)
                try transaction.insert(Notebook.page, values: page.values, id: page.id, now: now)
            }
        }
        return store
    }

    /// The ids of the pages a query wants, in its order.
    static func ids(_ store: Store, _ query: RecordQuery) throws -> [String] {
        try store.read { try $0.fetch(query) }.map(\.id)
    }
}

/// A failure thrown on purpose inside a transaction, to see what it takes back with it.
struct Rollback: Error {}

extension Notebook {
    /// Runs `body` in a write that then fails on purpose, and expects that failure back.
    static func failedWrite(
        _ store: Store, sourceLocation: SourceLocation = #_sourceLocation, _ body: (StoreTransaction) throws -> Void
    ) {
        #expect(throws: Rollback.self, sourceLocation: sourceLocation) {
            try store.write { transaction in
                try body(transaction)
                throw Rollback()
            }
        }
    }
}

/// Compiles one definitions file given as text.
func compileGraph(_ yaml: String) -> IntentGraph {
    let compilation = IntentCompiler.compile(files: [(path: "test/app.yaml", bytes: Array(yaml.utf8))], root: "test")
    guard let graph = compilation.graph else {
        fatalError("test definitions do not compile: \(compilation.diagnostics.map(\.message.text))")
    }
    return graph
}

/// The two store backends: every test taking one runs on SQLite and on PostgreSQL (a private
/// server the test process starts, `PostgresCluster`).
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    var testDescription: String { rawValue }

    /// A new, empty store's location: a file in a temporary folder, or a schema of its own.
    func scratch(_ label: String = "store") throws -> StoreScratch {
        switch self {
        case .sqlite: return StoreScratch(scratch: Scratch())
        case .postgres: return StoreScratch(url: try PostgresCluster.freshStore(label))
        }
    }
}

extension Backend {
    /// Runs `body` with a new store on this backend holding the notebook's schema and no record
    /// (its file's folder, on SQLite, removed after).
    func withEmptyNotebook<T>(_ label: String, _ body: (Store) throws -> T) throws -> T {
        let scratch = try self.scratch(label)
        return try withExtendedLifetime(scratch) {
            try body(try Store(path: scratch.path, graph: Notebook.graph, clock: Notebook.clock))
        }
    }
}

/// Where a test's store is, kept alive for the test (the SQLite file's folder goes with it).
final class StoreScratch {
    let path: String
    private let scratch: Scratch?

    init(scratch: Scratch) {
        self.scratch = scratch
        path = scratch.path
    }

    init(url: String) {
        scratch = nil
        path = url
    }
}
