import Foundation
import IntentEngine
import IntentModel
import TestSupport
import Testing

/// The jar app of the group-commit suites (`CommitGroupTests`, `CommitGroupContentionTests`), and
/// engines over one new PostgreSQL schema holding the jar `piggy`.
enum JarEngines {
    /// The app's definitions (a file, as the bundled apps are): jars counting the coins dropped in,
    /// and coins minted into the jar `piggy` (minting `fake` fails after its writes).
    static let definitions = Bundled.root + "/Tests/TestSupport/Fixtures/jar"

    /// `grouping` engines that group their commits and one that does not (another instance, as it
    /// were: it reads what is committed), over one new schema (named after `name`) holding the jar
    /// `piggy`; the store's URL.
    static func make(
        in folder: ScratchDirectory, name: String, grouping: Int
    ) throws -> (grouping: [IntentEngine], reader: IntentEngine, store: String) {
        let store = try PostgresCluster.freshStore(name)
        let clock = Clock.fixed(Bundled.now, timeZone: TimeZone(identifier: "UTC")!)
        let configuration = IntentEngine.Configuration(
            definitions: definitions, store: store, clock: clock, cacheDirectory: folder.path)
        let engines = try (0..<grouping).map { _ in try IntentEngine(configuration) }
        var plain = configuration
        plain.groupCommits = false
        let reader = try IntentEngine(plain)
        let first = try #require(engines.first)
        #expect(first.respond(to: "add jar piggy", EngineRequest(conversation: .make())).dialog == "Added piggy.")
        return (engines, reader, store)
    }
}
