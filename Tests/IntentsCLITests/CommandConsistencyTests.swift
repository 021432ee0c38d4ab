import Foundation
import TestSupport
import Testing

/// 22. The same options and exit codes across commands; JSON wherever results are printed.
@Suite("Command-line consistency", .tags(.slow), .skippedWhenFast)
struct CommandConsistencyTests {
    let scratch = ScratchDirectory("consistency")
    var directory: String { scratch.path }
    var store: String { directory + "/store.sqlite" }

    func intents(_ arguments: [String], input: Data = Data()) throws -> CommandLineTests.Run {
        try ConversationCommandTests.run(arguments, store: store, input: input)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = directory + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func object(_ text: String) throws -> [String: Any] {
        try CommandLineTests.result(stdout: text)
    }

    @Test(
        "A mistyped command suggests the right one", arguments: [("sya", "say"), ("chek", "check"), ("bach", "batch")])
    func typoedCommand(_ typed: String, _ meant: String) throws {
        let run = try intents([typed, "hi"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("unknown command '\(typed)'; did you mean '\(meant)'?"), "\(run.stderr)")
    }

    @Test("say exits 1 when the intent failed")
    func sayFails() throws {
        let run = try intents(["say", "delete the radar on rust"])
        #expect(run.status == 1)
        #expect(run.stdout.contains("nothing to choose"))
    }

    @Test("batch and run agree on a missing file")
    func missingFile() throws {
        let batch = try intents(["batch", directory + "/none.txt"])
        let run = try intents(["run", directory + "/none.yaml"])
        #expect(batch.status == 2)
        #expect(run.status == batch.status)
        #expect(run.stderr.contains("cannot read"))
    }

    @Test("--lang for a language no app declares is an error; suggestions honour --lang")
    func languages() throws {
        let french = try intents(["say", "--lang", "fr", "bonjour"])
        #expect(french.status == 2)
        #expect(french.stderr.contains("no app declares the language 'fr' (declared: de, en)"))
        // A guess of the learned stage is asked about in the language asked for (on the apps as they
        // were when the sentence was chosen; "erstelle aufgaben steuer" acts on them since nlu11).
        let guess = try object(
            try intents([
                "say", "--json", "--intents", FrozenApps.directory, "--lang", "de", "erinnere steuer",
            ]).stdout)
        #expect((guess["dialog"] as? String)?.hasPrefix("Meintest du „") == true, "\(guess)")
        let german = try object(try intents(["say", "--json", "--lang", "de", "zeige xyzzy"]).stdout)
        let suggestions = german["suggestions"] as? [String] ?? []
        #expect(!suggestions.isEmpty)
        #expect((german["dialog"] as? String)?.hasPrefix("Das kann ich leider nicht.") == true, "\(german)")
        // Without --lang, a sentence with no German word ("aufgabe" is one: it would be answered in
        // German) gets suggestions of every language.
        let english = try object(try intents(["say", "--json", "xyzzy task"]).stdout)["suggestions"] as? [String]
        // Sentences a person would say, with example values: never template syntax.
        #expect(english?.contains { $0.hasPrefix("Complete ") } == true, "\(english ?? [])")
        #expect(english?.contains { $0.contains("<") } == false, "\(english ?? [])")
        #expect(!suggestions.contains { $0.hasPrefix("Complete") || $0.hasPrefix("Delete") }, "\(suggestions)")
    }

    @Test("check --json lists the diagnostics")
    func checkJSON() throws {
        let run = try CommandLineTests.intents(
            ["check", "Intents", "--json"], in: CommandLineTests.root + "/Tests/IntentLanguageTests/Fixtures/broken")
        #expect(run.status == 1)
        let json = try object(run.stdout)
        #expect((json["errors"] as? Int ?? 0) > 0)
        let diagnostics = try #require(json["diagnostics"] as? [[String: Any]])
        #expect(
            diagnostics.contains {
                $0["file"] as? String == "Intents/shop/app.yaml" && $0["line"] as? Int == 12
                    && $0["severity"] as? String == "error"
                    && ($0["message"] as? String)?.contains("unknown type 'numbr'") == true
            })
        #expect(run.stderr.isEmpty)
    }

    @Test("store history --json, explain --json and --store, describe --json")
    func jsonEverywhere() throws {
        #expect(try intents(["say", "add buy milk to my tasks"]).status == 0)
        let history = try CommandLineTests.resultList(try intents(["store", "history", "--json"]), "executions")
        #expect(history.first?["intent"] as? String == "FocusBlox.CreateTask")
        #expect((history.first?["parameters"] as? [String: Any])?["title"] as? String == "buy milk")

        let explain = try object(try intents(["explain", "--json", "add oat milk to my tasks"]).stdout)
        #expect(explain["result"] as? String == "FocusBlox.CreateTask")
        let candidates = try #require(explain["candidates"] as? [[String: Any]])
        #expect(candidates.first?["intent"] as? String == "FocusBlox.CreateTask")
        #expect((candidates.first?["score"] as? [String: Any])?["literal"] != nil)

        let known = try intents(["explain", "--store", store, "complete buy milk"])
        #expect(known.status == 0)
        #expect(known.stdout.contains("task = buy milk"))
        #expect(known.stdout.contains("typed)"), "\(known.stdout)")

        let intent = try object(try intents(["describe", "--json", "CreateTask"]).stdout)
        #expect(intent["kind"] as? String == "intent")
        #expect(intent["name"] as? String == "FocusBlox.CreateTask")
        #expect((intent["parameters"] as? [[String: Any]])?.first?["name"] as? String == "title")
    }

    @Test(
        "describe also describes apps, entities and enums",
        arguments: [
            ("FocusBlox", "FocusBlox — app"), ("Task", "Task — entity of FocusBlox"),
            ("Urgency", "Urgency — enum of FocusBlox"),
        ])
    func describeMore(_ name: String, _ heading: String) throws {
        let run = try intents(["describe", name])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix(heading), "\(run.stdout)")
        let json = try object(try intents(["describe", "--json", name]).stdout)
        #expect(json["kind"] as? String == heading.split(separator: " ")[2].description)
    }

    @Test("batch: --json, --dry-run, --atomic and --answers")
    func batchOptions() throws {
        let phrases = try write("phrases.txt", "add buy milk to my tasks\nstart a focus block\n")
        let dry = try intents(["batch", "--dry-run", "--json", phrases, "--answers", try write("a.txt", "taxes\n")])
        #expect(dry.status == 0, "\(dry.stderr)")
        let json = try object(dry.stdout)
        #expect(json["done"] as? Int == 2)
        #expect((json["answers"] as? [[String: Any]])?.count == 2)
        #expect((json["answers"] as? [[String: Any]])?.first?["line"] as? Int == 1)
        #expect(try intents(["store", "list", "Task"]).stdout.contains("No task records"))

        let answered = try intents(["batch", phrases, "--answers", try write("b.txt", "taxes\n")])
        #expect(answered.status == 0, "\(answered.stderr)")
        #expect(answered.stdout.contains("Focusing on “taxes”"))

        let failing = try write("failing.txt", "add eggs to my tasks\norder a pizza with anchovies\n")
        let atomic = try intents(["batch", "--atomic", failing])
        #expect(atomic.status == 1)
        #expect(!(try intents(["store", "list", "Task"]).stdout.contains("eggs")), "the whole batch was rolled back")
    }

    @Test("run --yes confirms without asking")
    func runYes() throws {
        #expect(try intents(["say", "add buy milk to my tasks"]).status == 0)
        let file = try write("clean.yaml", "shortcut: Clean\nsteps:\n  - say: \"delete the task buy milk\"\n")
        let run = try intents(["run", "--yes", file])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try intents(["store", "list", "Task"]).stdout.contains("No task records"))
    }
}
