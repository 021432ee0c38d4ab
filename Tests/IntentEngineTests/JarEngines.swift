import Foundation
import IntentEngine
import IntentModel
import TestSupport
import Testing

/// The jar app of the group-commit suites (`CommitGroupTests`, `CommitGroupContentionTests`), and
/// engines over one new PostgreSQL schema holding the jar `piggy`.
enum JarEngines {
    static let app = """
        app: Jar
        entities:
          Jar:
            properties:
              name: string
              coins: { type: integer, default: 0 }
              minted: { type: integer, default: 0 }
            matchBy: [name]
            searchable: { title: "${name} holds ${coins} coins, ${minted} minted" }
          Coin:
            properties:
              label: string
            matchBy: [label]
        intents:
          AddJar:
            parameters:
              name: { type: string, prompt: "What do you call it?" }
            phrases: { en: ["add jar {name}", "add a jar"] }
            perform:
              - create: Jar
                set: { name: "${name}" }
                as: jar
            result: { value: "${jar}", dialog: "Added ${jar.name}." }
          Drop:
            parameters:
              jar: { type: Jar }
            phrases: { en: ["drop a coin in {jar}"] }
            perform:
              - update: jar
                increment: { coins: 1 }
            result: { dialog: "Dropped." }
          Mint:
            parameters:
              label: { type: string }
            phrases: { en: ["mint {label}"] }
            perform:
              - create: Coin
                set: { label: "${label}" }
              - find_first: Jar
                where: "name == 'piggy'"
                as: jar
              - update: jar
                increment: { minted: 1 }
              - if: "label == 'fake'"
                then:
                  - fail: "No fakes."
            result: { dialog: "Minted ${label}." }
        """

    /// `grouping` engines that group their commits and one that does not (another instance, as it
    /// were: it reads what is committed), over one new schema (named after `name`) holding the jar
    /// `piggy`; the store's URL.
    static func make(
        in folder: ScratchDirectory, name: String, grouping: Int
    ) throws -> (grouping: [IntentEngine], reader: IntentEngine, store: String) {
        try FileManager.default.createDirectory(atPath: folder.path + "/Intents/jar", withIntermediateDirectories: true)
        try app.write(toFile: folder.path + "/Intents/jar/app.yaml", atomically: true, encoding: .utf8)
        let store = try PostgresCluster.freshStore(name)
        let clock = Clock.fixed(Bundled.now, timeZone: TimeZone(identifier: "UTC")!)
        let configuration = IntentEngine.Configuration(
            definitions: folder.path + "/Intents", store: store, clock: clock, cacheDirectory: folder.path)
        let engines = try (0..<grouping).map { _ in try IntentEngine(configuration) }
        var plain = configuration
        plain.groupCommits = false
        let reader = try IntentEngine(plain)
        let first = try #require(engines.first)
        #expect(first.respond(to: "add jar piggy", EngineRequest(conversation: .make())).dialog == "Added piggy.")
        return (engines, reader, store)
    }
}
