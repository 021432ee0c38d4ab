import Foundation
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
}
