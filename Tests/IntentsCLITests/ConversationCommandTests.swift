import Foundation
import IntentLanguage
import IntentModel
import ModelStore
import TestSupport
import Testing

/// `intents say`, the REPL on piped input, the store commands, and what bad input gets.
@Suite("say, the REPL and the store from the command line", .tags(.slow), .skippedWhenFast)
struct ConversationCommandTests {
    let scratch = ScratchDirectory("cli")
    var directory: String { scratch.path }
    var store: String { directory + "/store.sqlite" }

    func intents(_ arguments: [String], input: Data = Data()) throws -> CommandLineTests.Run {
        try Self.run(arguments, store: store, input: input)
    }

    /// Runs `intents` on `store` with `input` on stdin (none: an empty stdin, never the terminal), at a fixed moment.
    /// `overrides` replace the fixed environment (`TZ`, `INTENTS_NOW`) for tests of other zones and moments.
    static func run(
        _ arguments: [String], store: String, input: Data = Data(), overrides: [String: String] = [:]
    ) throws -> CommandLineTests.Run {
        var environment = ["INTENTS_STORE": store, "INTENTS_NOW": "2026-11-22T10:00:00Z", "TZ": "UTC"]
        environment.merge(overrides) { _, override in override }
        return try IntentsBinary.run(arguments, environment: environment, input: input)
    }

    func json(_ run: CommandLineTests.Run) throws -> [String: Any] {
        try CommandLineTests.result(run)
    }

    @Test func sayExecutesAndAnswersInJSON() throws {
        let run = try intents(["say", "--json", "remind me to call mom tomorrow at 9"])
        #expect(run.status == 0)
        let answer = try json(run)
        #expect(answer["status"] as? String == "done")
        #expect(answer["app"] as? String == "FocusBlox")
        #expect(answer["intent"] as? String == "FocusBlox.CreateTask")
        #expect(answer["dialog"] as? String == "Added “call mom”.")
        let parameters = try #require(answer["parameters"] as? [String: Any])
        #expect(parameters["title"] as? String == "call mom")
        #expect(parameters["due"] as? String == "2026-11-23T09:00:00Z")
        #expect(parameters["urgency"] as? String == "not_urgent")

        let listed = try intents(["store", "list", "Task"])
        #expect(listed.stdout.hasPrefix("call mom — urgency: Not urgent, due: tomorrow at 09:00, isCompleted: no (id "))
        #expect(listed.stdout.hasSuffix("\n1 task record\n"))
    }

    @Test func withoutATerminalAMissingValueIsAnAnswer() throws {
        let run = try intents(["say", "--json", "start a focus block"])
        #expect(run.status == 0)
        let answer = try json(run)
        #expect(answer["status"] as? String == "needs_value")
        #expect(answer["dialog"] as? String == "What will you focus on?")
        #expect(answer["asking"] as? String == "title")

        // With no radars at all there is nothing to choose: it says so instead of asking.
        let confirm = try intents(["say", "--json", "delete the radar on rust"])
        #expect(try json(confirm)["status"] as? String == "error")
        #expect(
            (try json(confirm)["dialog"] as? String)?.hasSuffix(
                "There are no radars yet, so there is nothing to choose.") == true)
    }

    @Test func noMatchAndDryRun() throws {
        let none = try intents(["say", "--json", "order a pizza with anchovies"])
        #expect(none.status == 1)  // not done, as batch counts it (ExitStatus)
        #expect(try json(none)["status"] as? String == "no_match")
        let dry = try intents(["say", "--dry-run", "track rust as bullish"])
        #expect(dry.stdout == "Ready: Track rust as Positive. (dry run: nothing was changed)\n")
        #expect(try intents(["store", "list", "Radar"]).stdout.hasPrefix("No radar records"))
    }

    @Test func badInputIsRefusedBeforeTheStoreIsTouched() throws {
        let empty = try intents(["say", "   "])
        #expect(empty.status == 2)
        #expect(empty.stderr.hasPrefix("error: nothing to say"))

        var junk = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
        junk.append(contentsOf: [0xFF, 0xFE, 0x00])
        let binary = try intents(["say"], input: junk)
        #expect(binary.status == 2)
        #expect(binary.stderr.hasPrefix("error: the input is not UTF-8 text"))

        let large = try intents(["say"], input: Data(String(repeating: "add milk ", count: 11_400).utf8))
        #expect(large.status == 2)
        #expect(large.stderr.contains("one phrase is at most 2000 bytes"))

        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test func anUnusableStoreExitsOne() throws {
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: store))
        let run = try intents(["say", "add buy milk to my tasks"])
        #expect(run.status == 1)
        #expect(run.stderr == "error: cannot use the store \(store): the file is not a SQLite database\n")
        #expect(try String(contentsOfFile: store, encoding: .utf8) == "not a database")
    }

    @Test func replOnPipedInput() throws {
        let lines = """
            add buy milk to my tasks
            create an urgent task fix the login bug
            start a focus block
            the quarterly report
            what's next
            delete the task buy milk
            no
            mark buy milk as done
            :undo
            complete the task pizza
            cancel
            blorp the flux capacitor
            :list Task
            :nonsense
            check compatibility
            leo
            virgo
            :quit
            this line is never read
            """
        let run = try intents([], input: Data(lines.utf8))
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(!run.stdout.contains("\u{1B}"), "no escape codes without a terminal")
        // Ids are random: keep the transcript stable.
        let transcript = run.stdout.replacingOccurrences(
            of: #"\(id [0-9a-f]{8}\)"#, with: "(id …)", options: .regularExpression)
        try CommandLineTests.golden("repl-transcript.txt", transcript)
    }

    @Test func undoAndExportImport() throws {
        _ = try intents(["say", "add pay rent to my tasks"])
        _ = try intents(["say", "track rust as bullish"])
        let undo = try intents(["undo"])
        #expect(undo.stdout == "Undid Create Radar: Now tracking “rust” (Positive). (1 change reverted)\n")
        let export = try intents(["store", "export"])
        let object = try #require(JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
        #expect((object["FocusBlox.Task"] as? [Any])?.count == 1)
        #expect((object["Radar.Radar"] as? [Any])?.count == 0)

        let file = directory + "/seed.json"
        try Data(#"{"Radar": [{"topic": "tea", "position": "positive"}], "Task": [{"title": "call the bank"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: file))
        let imported = try intents(["store", "import", file])
        #expect(imported.stdout == "Imported 2 records.\n")
        #expect(try intents(["say", "refresh tea"]).stdout == "Refreshed “tea”; that makes 1 refresh.\n")
        let urgent = try intents(["store", "list", "Task", "--where", "title == 'call the bank'", "--json"])
        let records = try CommandLineTests.resultList(urgent, "records")
        #expect(records.map { $0["title"] as? String } == ["call the bank"])

        let badFilter = try intents(["store", "list", "Task", "--where", "urgncy == urgent"])
        #expect(badFilter.status == 2)
        #expect(badFilter.stderr.contains("unknown name 'urgncy'"))
    }

    @Test func storeCommandsFollowTheDefinitionsAndStillExportARefusedStore() throws {
        let intents = directory + "/Intents"
        try FileManager.default.copyItem(atPath: CommandLineTests.root + "/Intents", toPath: intents)
        _ = try self.intents(["say", "--intents", intents, "add buy milk to my tasks"])
        let tasks = intents + "/focusblox/tasks.yaml"
        let original = try String(contentsOfFile: tasks, encoding: .utf8)
        let marker = "      notes: { type: string, optional: true }\n"
        try original.replacingOccurrences(of: marker, with: marker + "      estimate: { type: integer, default: 1 }\n")
            .write(toFile: tasks, atomically: true, encoding: .utf8)
        // A new defaulted property: listing migrates first, so the condition on it works.
        let listed = try self.intents(["store", "list", "--intents", intents, "Task", "--where", "estimate == 1"])
        #expect(listed.stdout.hasPrefix("buy milk — estimate: 1"))
        // The property removed again while it holds a value: running is refused, exporting still works.
        try original.write(toFile: tasks, atomically: true, encoding: .utf8)
        let refused = try self.intents(["say", "--intents", intents, "what's next"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("Task.estimate (integer) was removed, but 1 record holds a value"))
        let export = try self.intents(["store", "export", "--intents", intents])
        #expect(export.status == 0)
        #expect(export.stdout.contains("\"estimate\": 1"))
    }
}
