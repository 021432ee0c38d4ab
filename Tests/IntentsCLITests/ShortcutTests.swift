import Foundation
import IntentLanguage
import IntentModel
import ModelStore
import TestSupport
import Testing

/// Shortcut files: every bundled one runs green on a fresh store (golden output); errors point at
/// their line; failures, --atomic, limits, questions without answers; batch files.
@Suite("Shortcut files and batches", .tags(.slow), .skippedWhenFast)
struct ShortcutTests {
    let scratch = ScratchDirectory("shortcuts")
    var directory: String { scratch.path }
    var store: String { directory + "/store.sqlite" }
    static let fixtures = CommandLineTests.root + "/Tests/IntentsCLITests/Fixtures/shortcuts/"

    func intents(_ arguments: [String], input: Data = Data()) throws -> CommandLineTests.Run {
        try ConversationCommandTests.run(arguments, store: store, input: input)
    }

    static let bundled = ["morning-review", "reading-list", "weekly-cleanup", "fortune-for-every-sign", "plan-my-day"]

    @Test(arguments: bundled)
    func bundledShortcutRunsOnAFreshStore(_ name: String) throws {
        var arguments = ["run", "Shortcuts/\(name).yaml"]
        if name == "plan-my-day" { arguments += ["--answers", Self.fixtures + "plan-answers.txt"] }
        let run = try intents(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        try CommandLineTests.golden("run-\(name).txt", run.stdout)
    }

    @Test func bundledShortcutsDescribe() throws {
        var text = ""
        for name in Self.bundled {
            let run = try intents(["describe", "Shortcuts/\(name).yaml"])
            #expect(run.status == 0)
            text += run.stdout + "\n"
        }
        try CommandLineTests.golden("describe-shortcuts.txt", text)
    }

    @Test func weeklyCleanupCompletesOldTasks() throws {
        #expect(try intents(["store", "import", Self.fixtures + "old-tasks.json"]).status == 0)
        let run = try intents(["run", "Shortcuts/weekly-cleanup.yaml"])
        #expect(run.status == 0)
        #expect(
            run.stdout == """
                Nice — “renew passport” is done.
                Nice — “fix the fence” is done.
                Up next: buy milk.
                Completed 2 old tasks; 1 open ones are up next.

                """)
        let open = try intents(["store", "list", "Task", "--where", "!isCompleted"])
        #expect(open.stdout.hasPrefix("buy milk"))
    }

    @Test func errorsArePrintedWithTheirLinesAndNothingRuns() throws {
        let run = try intents(["run", Self.fixtures + "broken.yaml"])
        #expect(run.status == 1)
        let stderr = run.stderr.replacingOccurrences(of: Self.fixtures, with: "")
        try CommandLineTests.golden("shortcut-errors.txt", stderr)
        #expect(!FileManager.default.fileExists(atPath: store), "a file with errors does not touch the store")

        let itself = try intents(["run", Self.fixtures + "self.yaml"])
        #expect(itself.stderr.contains("self.yaml:3:10: error: "))
        #expect(itself.stderr.contains("runs itself"))
    }

    @Test func checkLooksAtShortcutFilesToo() throws {
        let bundled = try intents(["check"])
        #expect(bundled.status == 0)
        #expect(bundled.stderr.isEmpty)
        let broken = try intents(["check", "--shortcuts", Self.fixtures])
        #expect(broken.status == 1)
        #expect(
            broken.stderr.contains(Self.fixtures + "broken.yaml:12:5: error: unknown step 'sya'; did you mean 'say'?"))
        #expect(broken.stderr.contains(Self.fixtures + "self.yaml:3:10: error: "))
    }

    @Test func schemaDescribesShortcutFiles() throws {
        let run = try intents(["schema", "--shortcuts"])
        #expect(run.status == 0)
        let object = try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["title"] as? String == "intents shortcut file")
        #expect(object["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        let steps = try #require((object["properties"] as? [String: Any])?["steps"] as? [String: Any])
        #expect(steps["type"] as? String == "array")
    }

    @Test func aFailingStepStopsTheRunAtItsLine() throws {
        let run = try intents(["run", Self.fixtures + "two-blocks.yaml"])
        #expect(run.status == 1)
        #expect(run.stdout == "Focusing on “first” for 30 minutes. Ends at 10:30.\n")
        #expect(
            run.stderr.hasPrefix(
                Self.fixtures
                    + "two-blocks.yaml:5:13: error: A focus block is already running: “first”. End it first.\n"))
        // Each intent is its own transaction: the first block stays.
        #expect(try intents(["store", "list", "FocusBlock"]).stdout.hasPrefix("first"))
    }

    @Test func aFailureInACalledShortcutNamesBothPlaces() throws {
        #expect(try intents(["say", "start a focus block on taxes for 30 minutes"]).status == 0)
        let run = try intents(["run", "Shortcuts/plan-my-day.yaml", "--answers", Self.fixtures + "plan-answers.txt"])
        #expect(run.status == 1)
        #expect(
            run.stderr.contains(
                "Shortcuts/morning-review.yaml:16:13: error: A focus block is already running: “taxes”. End it first."))
        #expect(run.stderr.contains("Shortcuts/plan-my-day.yaml:13:10: note: in the shortcut run from here"))
    }

    @Test func atomicRunsLandWholeOrNotAtAll() throws {
        let failed = try intents(["run", "--atomic", Self.fixtures + "two-blocks.yaml"])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("(the whole run was rolled back)"))
        #expect(try intents(["store", "list", "FocusBlock"]).stdout == "No focusblock records.\n")
        let done = try intents(["run", "--atomic", "Shortcuts/reading-list.yaml"])
        #expect(done.status == 0)
        #expect(try intents(["store", "list", "Website"]).stdout.hasSuffix("3 website records\n"))
    }

    @Test func loopsAndStepsAreBounded() throws {
        let endless = try intents(["run", Self.fixtures + "endless.yaml"])
        #expect(endless.status == 1)
        #expect(
            endless.stderr.contains("endless.yaml:3:13: error: repeat 10000000 is more than the limit of 100000 rounds")
        )
        let steps = try intents(["run", "--max-steps", "20", "Shortcuts/fortune-for-every-sign.yaml"])
        #expect(steps.status == 1)
        #expect(steps.stderr.contains("error: the run took more than 20 steps; stopped (is a loop endless?)"))
    }

    @Test func questionsComeFromInputsAnswersOrFailNamingTheStep() throws {
        let unanswered = try intents(["run", Self.fixtures + "asks.yaml"])
        #expect(unanswered.status == 1)
        #expect(
            unanswered.stderr.hasPrefix(
                Self.fixtures
                    + "asks.yaml:3:10: error: “What should the note say?” needs an answer: give one with --answers FILE"
            ))

        let answered = try intents(
            ["run", "--json", "--answers", "-", Self.fixtures + "asks.yaml"], input: Data("call the plumber\n".utf8))
        let object = try CommandLineTests.result(answered)
        #expect(object["status"] as? String == "done")
        let steps = try #require(object["steps"] as? [[String: Any]])
        #expect(steps.map { $0["step"] as? String } == ["ask", "intent"])
        #expect(steps.last?["text"] as? String == "Noted: “call the plumber”.")
        #expect(steps.last?["line"] as? Int == 5)

        let input = try intents(["run", "Shortcuts/morning-review.yaml", "--input", "minutes=forty five"])
        #expect(input.status == 0)
        let bad = try intents(["run", "Shortcuts/morning-review.yaml", "--input", "hours=2"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("'Morning review' has no input 'hours' (its inputs: minutes)"))
    }

    @Test func dryRunChangesNothing() throws {
        let run = try intents(["run", "--dry-run", "Shortcuts/reading-list.yaml"])
        #expect(run.status == 0)
        #expect(
            run.stdout.hasPrefix(
                "Would start Upload with source: reading list, total: 3\nReady: Save https://swift.org/blog. (dry run: nothing was changed)\n"
            ))
        #expect(try intents(["store", "list", "Website"]).stdout.hasPrefix("No website records"))
    }

    @Test func batchSaysEveryLineAndCounts() throws {
        let run = try intents(["batch", Self.fixtures + "batch.txt"])
        #expect(run.status == 1)
        #expect(
            run.stdout == """
                Added “buy milk”.
                Added “fix the login bug” (urgent).
                Now tracking “rust” (Positive).
                Up next: fix the login bug, buy milk.
                4 done, 2 failed

                """)
        #expect(
            run.stderr == """
                \(Self.fixtures)batch.txt:5: error: “start a focus block”: needs an answer: What will you focus on?
                \(Self.fixtures)batch.txt:6: error: “blorp the flux capacitor”: Sorry, I don't know how to do that. Did you mean “Delete the task called renew passport”, “Delete the radar on rust” or “Get rid of the task called renew passport”?

                """)
        #expect(try intents(["store", "list", "FocusBlock"]).stdout.hasPrefix("No focusblock records"))
        let stopped = try intents(["batch", "--stop-on-error", Self.fixtures + "batch.txt"])
        #expect(stopped.stdout.hasSuffix("2 done, 1 failed, 3 not run\n"))
    }
}
