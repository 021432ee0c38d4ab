import Foundation
import IntentLanguage
import IntentModel
import ModelStore
import PhraseMatching
import TestSupport
import Testing

@testable import IntentRuntime

/// Issue 10, end to end through a conversation and the shortcut runner: out-of-range values are
/// clear errors that change nothing, what is stored is what was said, values built by a run are bounded.
struct WhatPeopleSayTests {
    @Test(arguments: [
        ("remind me to call mom in 9999999999999999 hours", "“in 9999999999999999 hours” is out of range"),
        ("remind me to call mom in 1000000000000 hours", "“in 1000000000000 hours” is out of range"),
        ("remind me to call mom on february 30th", "February has 28 days in 2027."),
        ("remind me to call mom on april 31st", "April has 30 days."),
    ])
    func outOfRangeIsAnErrorAndStoresNothing(say: String, error: String) throws {
        let conversation = try Scratch().conversation()
        let answer = conversation.say(say)
        #expect(answer.status == .error)
        #expect(answer.dialog.hasPrefix(error))
        #expect(try conversation.titles("Task").isEmpty)
    }

    @Test(arguments: [
        ("add won't fix the roof to my tasks", "won't fix the roof"),
        ("add snake_case_name to my tasks", "snake_case_name"),
        ("remind me to call mom tommorow at 9", "call mom"),
        ("remind me to call mom at noon", "call mom"),
    ])
    func storesTheWordsAsTyped(say: String, title: String) throws {
        let conversation = try Scratch().conversation()
        #expect(conversation.say(say).status == .done)
        #expect(try conversation.titles("Task") == [title])
    }

    @Test func misspeltEnumCaseIsTheCase() throws {
        let conversation = try Scratch().conversation()
        let answer = conversation.say("track rust as bulish")
        #expect(answer.status == .done)
        #expect(answer.parameters.first { $0.name == "topic" }?.value == .string("rust"))
        #expect(answer.parameters.first { $0.name == "position" }?.value == .string("positive"))
    }

    @Test("A one-word entity name is found through a typo")
    func oneWordEntityTypo() throws {
        let conversation = try Scratch().conversation()
        conversation.say("add laundry to my tasks", "add groceries to my tasks")
        #expect(conversation.say("complete landry").status == .done)
        #expect(conversation.say("complete grocerys").status == .done)
        #expect(try conversation.titles("Task", where: "isCompleted") == ["laundry", "groceries"])
    }

    @Test("A record named exactly so wins over many whose names share its words")
    func exactNameWins() throws {
        let scratch = Scratch()
        let conversation = try scratch.conversation()
        let task = QualifiedName(app: "FocusBlox", name: "Task")
        try conversation.session.store.write { transaction in
            for n in 0..<40 {
                _ = try transaction.insert(task, values: ["title": .string("task number 5001\(n) about taxes")])
            }
            _ = try transaction.insert(task, values: ["title": .string("task number 5001 about taxes")])
        }
        try conversation.session.reloadNames()
        let answer = conversation.say("complete task number 5001 about taxes")
        #expect(answer.status == .done, "\(answer.dialog)")
        #expect(try conversation.titles("Task", where: "isCompleted") == ["task number 5001 about taxes"])
    }

    @Test("An increment past the largest integer is an error naming it; the record keeps its value")
    func incrementAtIntMax() throws {
        let conversation = try Scratch().conversation()
        conversation.say("track rust as bullish")
        let radar = QualifiedName(app: "Radar", name: "Radar")
        try conversation.session.store.write { transaction in
            let record = try #require(try transaction.fetch(RecordQuery(entity: radar)).first)
            _ = try transaction.update(record, set: ["refreshCount": .integer(Int.max)])
        }
        let answer = conversation.say("refresh rust")
        #expect(answer.status == .error)
        #expect(answer.dialog.contains("9223372036854775807 + 1 is out of range"))
        let stored = try conversation.session.store.read { try $0.fetch(RecordQuery(entity: radar)) }
        #expect(stored.first?.values["refreshCount"] == .integer(Int.max))
    }

    // MARK: Shortcuts

    let scratch = Scratch()

    func failure(_ source: String, inputs: [String: String] = [:]) throws -> String? {
        let session = try scratch.conversation().session
        let compilation = ShortcutCompiler.compile(
            path: "t/main.yaml", graph: session.graph, matcher: session.matcher(clock: Bundled.clock),
            files: ["t/main.yaml": source])
        let shortcut = try #require(compilation.shortcut, "\(compilation.diagnostics)")
        var options = ShortcutRunner.Options()
        options.inputs = inputs
        options.dryRun = true
        let result = ShortcutRunner(session: session, shortcuts: compilation.shortcuts, options: options, prompt: nil)
            .run(shortcut)
        if case .failed(let failure) = result.ending { return failure.message }
        return nil
    }

    static func arithmetic(_ expression: String) -> String {
        """
        shortcut: Arithmetic
        input:
          big: { type: integer, default: 9223372036854775807 }
          small: { type: integer, default: -9223372036854775807 }
        steps:
          - set: { x: "${\(expression)}" }
          - output: "${x}"
        """
    }

    @Test(arguments: [
        ("big + 1", "9223372036854775807 + 1 is out of range"),
        ("small - 2", "-9223372036854775807 - 2 is out of range"),
        ("(small - 1) / -1", "-9223372036854775808 / -1 is out of range"),
        ("(small - 1) % -1", "-9223372036854775808 % -1 is out of range"),
        ("big * 2", "9223372036854775807 * 2 is out of range"),
        ("-(small - 1)", "0 - -9223372036854775808 is out of range"),
        ("days(big)", "days(9223372036854775807) is out of range"),
    ])
    func checkedArithmetic(expression: String, message: String) throws {
        let failed = try failure(Self.arithmetic(expression))
        #expect(failed?.contains(message) == true, "\(failed ?? "no failure")")
    }

    @Test func weeklyCleanupWithAHugeNumberOfDays() throws {
        let source = try String(contentsOfFile: Bundled.root + "/Shortcuts/weekly-cleanup.yaml", encoding: .utf8)
        let failed = try failure(source, inputs: ["days": "999999999999999"])
        #expect(failed?.contains("days(999999999999999) is out of range") == true, "\(failed ?? "no failure")")
    }

    @Test("Doubling a string 64 times stops at the size limit with a clear error")
    func stringDoublingIsBounded() throws {
        let failed = try failure(
            """
            shortcut: Doubling
            steps:
              - set: { s: "ab" }
              - repeat: 64
                do:
                  - set: { s: "${s + s}" }
              - output: "${s}"
            """)
        #expect(failed?.contains("is too long: a value holds at most 1 MB") == true, "\(failed ?? "no failure")")
        let template = try failure(
            """
            shortcut: Doubling
            steps:
              - set: { s: "ab" }
              - repeat: 64
                do:
                  - set: { s: "${s}${s}" }
            """)
        #expect(template?.contains("is too long") == true, "\(template ?? "no failure")")
    }

    @Test("Negative numbers are read where the type allows them")
    func negativeInput() throws {
        let session = try scratch.conversation().session
        let matcher = session.matcher(clock: Bundled.clock)
        #expect(matcher.parseValue("-1", as: .integer) == .integer(-1))
        #expect(matcher.parseValue("minus four", as: .integer) == .integer(-4))
        #expect(matcher.parseValue("-2.5", as: .number) == .number(-2.5))
        #expect(matcher.parseValue("-5 minutes", as: .duration) == nil)
    }
}

extension WhatPeopleSayTests {
    @Test("A run that keeps what it builds stops at its memory limit")
    func runMemoryIsBounded() throws {
        let session = try scratch.conversation().session
        // 160 texts of 1 MB each, kept in 160 names, then enough steps for the check to run. The limit
        // is on the whole process: far more is kept than the 16 MB allowed, so that memory other tests
        // running at the same time give back cannot hide it.
        let hoard = (0..<160).map { "  - set: { v\($0): \"${s + s}\" }" }.joined(separator: "\n")
        let source = """
            shortcut: Hoard
            steps:
              - set: { s: "x" }
              - repeat: 19
                do:
                  - set: { s: "${s + s}" }
            \(hoard)
              - repeat: 64
                do:
                  - set: { n: 1 }
            """
        let compilation = ShortcutCompiler.compile(
            path: "t/main.yaml", graph: session.graph, matcher: session.matcher(clock: Bundled.clock),
            files: ["t/main.yaml": source])
        let shortcut = try #require(compilation.shortcut, "\(compilation.diagnostics)")
        var options = ShortcutRunner.Options()
        options.memoryLimit = 16 << 20
        let result = ShortcutRunner(session: session, shortcuts: compilation.shortcuts, options: options, prompt: nil)
            .run(shortcut)
        guard case .failed(let failure) = result.ending else {
            Issue.record("the run finished")
            return
        }
        #expect(failure.message == "the run holds more than 16 MB of memory; stopped")
    }
}
