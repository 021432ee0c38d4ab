import Foundation
import TestSupport
import Testing

/// Issue 22, item 6: every dry run leaves the store byte for byte as it was — also when it asks a
/// question — and a later `continue` cannot turn a dry run's question into a real write.
@Suite("Dry runs at the command line")
struct DryRunCommandTests {
    let scratch = ScratchDirectory("dry-runs")
    var store: String { scratch.path + "/store.sqlite" }

    func intents(_ arguments: [String]) throws -> CommandLineTests.Run {
        try ConversationCommandTests.run(arguments, store: store)
    }

    /// The store's bytes: the file and its write-ahead log (a checkpoint on close would move bytes
    /// from one to the other: that is a change too).
    func fingerprint() throws -> [Data?] {
        ["", "-wal"].map { FileManager.default.contents(atPath: store + $0) }
    }

    static let dryRuns: [[String]] = [
        ["say", "--dry-run", "create a radar"],
        ["say", "--dry-run", "create a radar about quantum computing"],
        ["say", "--dry-run", "delete the radar on rust"],
        ["say", "--dry-run", "check compatibility"],
        ["say", "--dry-run", "undo"],
        ["open", "--dry-run", "radar://create"],
        ["open", "--dry-run", "radar://create?topic=x"],
        ["share", "--dry-run", "--to", "Radar", "https://example.com/quantum"],
        ["run", "--dry-run", "Shortcuts/morning-review.yaml"],
    ]

    @Test(arguments: Self.dryRuns)
    func dryRunLeavesTheStoreAsItWas(_ arguments: [String]) throws {
        // The last write before is still in the log: a process that closes the store would checkpoint it.
        #expect(try intents(["say", "create a radar about rust"]).status == 0)
        let before = try fingerprint()
        let run = try intents(arguments)
        #expect(run.status == 0, "\(arguments): \(run.stderr)")
        #expect(try fingerprint() == before, "\(arguments) changed the store: \(run.stdout)")
        // Nothing a dry run asked can be carried on for real.
        let carried = try intents(["continue", "quantum computing"])
        #expect(carried.stdout.contains("Nothing to continue."), "\(carried.stdout)")
        let list = try intents(["store", "list", "Radar"])
        #expect(!list.stdout.contains("quantum"), "\(list.stdout)")
    }

    /// A dry "undo" after a real change says what it would do and undoes nothing: the change is
    /// still there, and a real "undo" after it still finds it to undo.
    @Test func dryUndoLeavesTheChangeToUndo() throws {
        #expect(try intents(["say", "create a radar about rust"]).status == 0)
        let before = try fingerprint()
        let dry = try intents(["say", "--dry-run", "undo"])
        #expect(dry.stdout.contains("dry run: nothing was changed"), "\(dry.stdout)")
        #expect(try fingerprint() == before, "a dry undo changed the store: \(dry.stdout)")
        #expect(try intents(["store", "list", "Radar"]).stdout.contains("rust"))
        let undo = try intents(["say", "undo"])
        #expect(undo.status == 0 && undo.stdout.contains("rust"), "\(undo.stdout)")
        #expect(try !intents(["store", "list", "Radar"]).stdout.contains("rust"))
    }

    /// The same on PostgreSQL: the schema's dump (its tables, their rows, and its sequences, which
    /// an insert moves even when it rolls back) is the same text before and after.
    @Test(arguments: Self.dryRuns)
    func dryRunLeavesThePostgresSchemaAsItWas(_ arguments: [String]) throws {
        let url = try PostgresCluster.freshStore("dryrun")
        func intents(_ arguments: [String]) throws -> CommandLineTests.Run {
            try ConversationCommandTests.run(arguments, store: url)
        }
        #expect(try intents(["say", "create a radar about rust"]).status == 0)
        let before = try Self.dump(url)
        #expect(before.contains("rust"), "the dump holds the rows")
        let run = try intents(arguments)
        #expect(run.status == 0, "\(arguments): \(run.stderr)")
        let after = try Self.dump(url)
        #expect(after == before, "\(arguments) changed the schema: \(run.stdout)")
        let carried = try intents(["continue", "quantum computing"])
        #expect(carried.stdout.contains("Nothing to continue."), "\(carried.stdout)")
        let list = try intents(["store", "list", "Radar"])
        #expect(list.status == 0 && list.stdout.contains("rust") && !list.stdout.contains("quantum"), "\(list.stdout)")
    }

    /// `pg_dump` of the store's schema (definitions, rows, sequence values) as text.
    static func dump(_ url: String) throws -> String {
        let components = try #require(URLComponents(string: url))
        let schema = try #require(components.queryItems?.first { $0.name == "schema" }?.value)
        let tool = try #require(ExternalTool.postgres("pg_dump"), "pg_dump is installed with PostgreSQL")
        let run = try ExternalTool.run(
            tool,
            [
                "-h", components.host ?? "127.0.0.1", "-p", String(components.port ?? 5432), "-U",
                components.user ?? "intents",
                "-n", schema, "--no-owner",
                components.path.dropFirst().isEmpty ? "postgres" : String(components.path.dropFirst()),
            ])
        #expect(run.status == 0, "pg_dump failed: \(run.stderr)")
        // pg_dump 15.14 and later fence the dump with a random key: not part of the schema.
        return run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("\\restrict ") && !$0.hasPrefix("\\unrestrict ") }.joined(separator: "\n")
    }
}
