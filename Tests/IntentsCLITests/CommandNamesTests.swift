import ArgumentParser
import Testing

@testable import IntentsCLI

/// Start-up: a command without an explicit `commandName` makes argument-parser derive it with
/// `String(describing:)` at every start (about 0.8 M instructions a command, scanning the runtime's
/// conformance tables: BENCHMARKS.md, issue 25), so every command names itself.
@Suite("Every command names itself")
struct CommandNamesTests {
    static func commands(_ command: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
        [command] + command.configuration.subcommands.flatMap { commands($0) }
    }

    @Test func everySubcommandGivesItsName() {
        let all = Self.commands(Intents.self).dropFirst()
        #expect(all.count > 40)
        let unnamed = all.filter { $0.configuration.commandName == nil }.map { "\($0)" }
        #expect(unnamed.isEmpty, "no commandName: \(unnamed)")
    }

    @Test("intents --version answers the version of the command's configuration, before parsing anything")
    func versionAnswered() throws {
        let run = try ConversationCommandTests.run(["--version"], store: "/nonexistent/store.sqlite")
        #expect(run.status == 0)
        #expect(run.stdout == "\(Intents.configuration.version)\n")
        #expect(run.stderr.isEmpty)
    }
}
