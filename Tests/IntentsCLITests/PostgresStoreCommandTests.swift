import Foundation
import TestSupport
import Testing

/// The commands that look into a store, on a PostgreSQL one (`--store postgres://…`,
/// `$INTENTS_STORE`): they open the database rather than look for a file of that name, and a URL
/// that cannot be used is refused with the reason, its password never shown.
@Suite("Commands over a PostgreSQL store")
struct PostgresStoreCommandTests {
    static func intents(_ arguments: [String], store: String, in directory: String) throws -> CommandLineTests.Run {
        try CommandLineTests.intents(
            arguments + ["--intents", CommandLineTests.root + "/Intents", "--store", store], in: directory)
    }

    @Test func listingsLinksAndHistoryReadTheDatabase() throws {
        let store = try PostgresCluster.freshStore("cli")
        let directory = NSTemporaryDirectory() + "intents-pg-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let created = try Self.intents(["say", "create a radar on rust"], store: store, in: directory)
        #expect(created.status == 0, "\(created.stderr)")
        let list = try Self.intents(["store", "list", "Radar"], store: store, in: directory)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("rust"), "\(list.stdout)")
        #expect(!list.stdout.contains("does not exist"), "\(list.stdout)")
        let history = try Self.intents(["store", "history"], store: store, in: directory)
        #expect(history.stdout.contains("Radar.CreateRadar"), "\(history.stdout)")
        let link = try Self.intents(["link", "Radar", "rust"], store: store, in: directory)
        #expect(link.status == 0, "\(link.stderr)")
        #expect(link.stdout.contains("radar://open/"), "\(link.stdout)")
    }

    @Test(arguments: [
        ("postgres://ann:s3cretpw@127.0.0.1:5432/db?sslmode=require", "this version connects without TLS only"),
        ("postgres://ann:s3cretpw@127.0.0.1:99999/db", "the port must be a number from 1 to 65535"),
        ("postgres://ann:s3cretpw#x@127.0.0.1/db", "no '#' part"),
    ])
    func aURLThatCannotBeUsedIsRefusedWithoutItsPassword(_ store: String, _ says: String) throws {
        for arguments in [["store", "list", "Radar"], ["link", "Radar", "rust"], ["say", "what's next"]] {
            let run = try Self.intents(arguments, store: store, in: NSTemporaryDirectory())
            #expect(run.status == 1, "\(arguments): \(run.stdout) \(run.stderr)")
            #expect(run.stderr.contains(says), "\(arguments): \(run.stderr)")
            #expect(!(run.stdout + run.stderr).contains("s3cretpw"), "\(arguments): \(run.stdout) \(run.stderr)")
        }
    }
}
