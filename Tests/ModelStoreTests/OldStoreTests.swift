import Foundation
import GRDB
import IntentModel
import ModelStore
import TestSupport
import Testing

/// Stores written by an older build: their internal tables have an older shape, and opening them
/// brings the shape up to date before anything is written.
@Suite("Stores written by older builds")
struct OldStoreTests {
    /// Makes the store at `path` look as the build before `_donations.execution` left it: the
    /// table without that column, and no internal schema version in `_meta`.
    static func downgradeToDonationsWithoutExecution(_ path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    DROP TABLE _donations;
                    CREATE TABLE _donations (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, intent TEXT NOT NULL, parameters TEXT NOT NULL, at TEXT NOT NULL,
                        via TEXT NOT NULL DEFAULT 'phrase', previous TEXT);
                    DELETE FROM _meta WHERE key = 'internal.schema';
                    """)
        }
    }

    @Test("A store whose donations table lacks a later column takes donations and undo after opening")
    func donationsGainTheirExecution() throws {
        let scratch = Scratch()
        _ = try Notebook.seeded(scratch.path)
        try Self.downgradeToDonationsWithoutExecution(scratch.path)

        let store = try Store(path: scratch.path, graph: Notebook.graph, clock: Notebook.clock)
        let intent = Notebook.pin
        try Notebook.pinAndDonate(in: store)
        #expect(try store.read { try $0.donationHistory() }.count == 1)
        let undone = try store.write { try $0.undoLast() }
        #expect(undone?.intent == intent.description)
        #expect(try store.read { try $0.donationHistory() }.isEmpty)
    }

    @Test("A store already of this shape opens without writing")
    func currentStoreOpensWithoutWriting() throws {
        let scratch = Scratch()
        _ = try Notebook.seeded(scratch.path)
        let before = try FileSnapshot(scratch.path)
        _ = try Store(path: scratch.path, graph: Notebook.graph, clock: Notebook.clock)
        #expect(try FileSnapshot(scratch.path) == before)
    }
}

/// The bytes of a store file and its WAL, to show an open wrote nothing.
private struct FileSnapshot: Equatable {
    let main: Data
    let wal: Data?

    init(_ path: String) throws {
        main = try Data(contentsOf: URL(fileURLWithPath: path))
        wal = try? Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
    }
}
