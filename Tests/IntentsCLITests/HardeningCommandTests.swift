import Foundation
import TestSupport
import Testing

/// Issue 10 at the command line: numeric options are validated, piped lines are phrases of their
/// own, and input that would have trapped gets an answer.
struct HardeningCommandTests {
    let scratch = ScratchDirectory("cli")
    var directory: String { scratch.path }
    var store: String { directory + "/store.sqlite" }

    func intents(_ arguments: [String], input: String = "") throws -> CommandLineTests.Run {
        try ConversationCommandTests.run(arguments, store: store, input: Data(input.utf8))
    }

    @Test(arguments: [
        (["explain", "--top=-1", "hi"], "--top must be from 1 to 1000, not -1"),
        (["explain", "--top=0", "hi"], "--top must be from 1 to 1000, not 0"),
        (["store", "history", "--limit=-5"], "--limit must be from 1 to 1000000, not -5"),
        (["run", "Shortcuts/morning-review.yaml", "--max-steps=-1"], "--max-steps must be at least 1, not -1"),
    ])
    func numericOptionsAreValidated(arguments: [String], message: String) throws {
        let run = try intents(arguments)
        // A usage error (2, as ExitStatus says; ArgumentParser's own 64 is folded into it), never a trap.
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test("Several lines piped into say are one phrase each, like batch")
    func sayOnePhrasePerLine() throws {
        let run = try intents(["say"], input: "add a task one\n\nadd a task two\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "Added “one”.\nAdded “two”.\n")
        let list = try intents(["store", "list", "Task"])
        #expect(list.stdout.contains("one"))
        #expect(list.stdout.contains("two"))
        #expect(!list.stdout.contains("one add a task two"))
    }

    @Test("A question left open by one piped line is not answered by the next")
    func sayLinesDoNotAnswerQuestions() throws {
        let run = try intents(["say", "--json"], input: "start a focus block\nadd a task three\n")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.contains("\"status\":\"needs_value\"") == true)
        #expect(lines.last?.contains("\"status\":\"done\"") == true)
    }

    @Test("What trapped before is an answer now, with earlier answers printed")
    func noTrap() throws {
        let run = try intents(["say", "remind me to call mom in 9999999999999999 hours"])
        #expect(run.status < 128)
        #expect(run.stdout == "“in 9999999999999999 hours” is out of range: a date can be at most 100 years away.\n")
        let cleanup = try intents([
            "run", "Shortcuts/weekly-cleanup.yaml", "--input", "days=999999999999999", "--dry-run",
        ])
        #expect(cleanup.status == 1)
        #expect(cleanup.stderr.contains("days(999999999999999) is out of range"), "\(cleanup.stderr)")
    }
}

extension HardeningCommandTests {
    @Test(arguments: [["compile", "--runs", "-1"], ["match", "--rounds", "many"], ["shortcuts", "--rounds"]])
    func benchmarkCountsAreValidated(arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: IntentsBinary.executable("intents-bench"))
        process.arguments = arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(stderr.hasPrefix("error: \(arguments[1]) takes a whole number from 0"), "\(stderr)")
    }
}

extension HardeningCommandTests {
    /// `--runs 0` is the baseline a counted run's instructions are measured against: it sets up,
    /// checks the generated definitions and stops (it took the minimum of no samples and trapped).
    @Test func compileBenchmarkWithNoRuns() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: IntentsBinary.executable("intents-bench"))
        process.arguments = ["compile", "--runs", "0", "--intents", "20"]
        let out = Pipe()
        process.standardError = Pipe()
        process.standardOutput = out
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(stdout.contains("20 in 10 files"), "\(stdout)")
    }
}
