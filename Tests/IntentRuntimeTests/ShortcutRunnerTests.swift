import Foundation
import IntentLanguage
import IntentModel
import ModelStore
import PhraseMatching
import TestSupport
import Testing

@testable import IntentRuntime

/// The shortcut runner without the binary: steps over a scratch store at the tests' fixed moment.
struct ShortcutRunnerTests {
    let scratch = Scratch()

    /// Compiles `source` as `t/main.yaml` (with `others` beside it) and runs it.
    func run(
        _ source: String, others: [String: String] = [:], options: ShortcutRunner.Options = .init(),
        on session: Session? = nil
    ) throws -> ShortcutRunner.Result {
        let session = try session ?? scratch.conversation().session
        var files = others
        files["t/main.yaml"] = source
        let compilation = ShortcutCompiler.compile(
            path: "t/main.yaml", graph: session.graph, matcher: session.matcher(clock: Bundled.clock), files: files)
        let shortcut = try #require(compilation.shortcut, "\(compilation.diagnostics)")
        let runner = ShortcutRunner(session: session, shortcuts: compilation.shortcuts, options: options, prompt: nil)
        return runner.run(shortcut)
    }

    func failure(_ result: ShortcutRunner.Result) -> ShortcutRunner.Failure? {
        if case .failed(let failure) = result.ending { return failure }
        return nil
    }

    static let sum = """
        shortcut: Sum
        input:
          numbers: { type: "[integer]", default: [1, 2, 3, 4] }
        steps:
          - set: { total: 0, big: 0 }
          - repeat_each: "${numbers}"
            as: n
            do:
              - set: { total: "${total + n}" }
              - if: "n > 2"
                then:
                  - set: { big: "${big + 1}" }
                else:
                  - show: "small: ${n}"
          - output: "${total} in all, ${big} above two"
          - show: "never shown"
        """

    @Test func setIfRepeatEachAndOutput() throws {
        let result = try run(Self.sum)
        #expect(failure(result) == nil)
        #expect(result.outputText == "10 in all, 2 above two")
        #expect(result.log.map(\.text) == ["small: 1", "small: 2", "10 in all, 2 above two"])
        #expect(result.log.map(\.step) == ["show", "show", "output"])
    }

    @Test func inputsReplaceDefaults() throws {
        var options = ShortcutRunner.Options()
        options.inputs = ["numbers": "5, 6"]
        #expect(try run(Self.sum, options: options).outputText == "11 in all, 2 above two")
        options.inputs = ["numbrs": "5"]
        let unknown = try run(Self.sum, options: options)
        #expect(failure(unknown)?.message == "'Sum' has no input 'numbrs' (its inputs: numbers)")
    }

    @Test func stopEndsTheRunAndRunPassesOutputsBack() throws {
        let result = try run(
            """
            shortcut: Caller
            steps:
              - run: child.yaml
                with: { count: 4 }
                as: doubled
              - if: "doubled == 8"
                then:
                  - stop: "stopped at ${doubled}"
              - output: "not reached"
            """,
            others: [
                "t/child.yaml": "shortcut: Child\ninput: { count: integer }\nsteps:\n  - output: \"${count * 2}\"\n"
            ])
        guard case .stopped = result.ending else {
            Issue.record("expected the run to stop, got \(result.ending)")
            return
        }
        #expect(result.log.map(\.text) == ["stopped at 8"])
        #expect(result.output == nil)
    }

    @Test func answersFeedQuestions() throws {
        var options = ShortcutRunner.Options()
        options.answers = ["forty two"]
        let result = try run(
            """
            shortcut: Ask
            steps:
              - ask: "How many?"
                type: integer
              - output: "${answer + 1}"
            """, options: options)
        #expect(result.outputText == "43")
        let unanswered = try run("shortcut: Ask\nsteps:\n  - ask: \"How many?\"\n")
        #expect(failure(unanswered)?.message == "“How many?” needs an answer: give one with --answers FILE")
        #expect(failure(unanswered)?.location?.start.line == 3)
    }

    static let twoBlocks = """
        shortcut: Two blocks
        steps:
          - intent: FocusBlox.StartFocusBlock
            with: { title: first, minutes: 30 }
          - intent: FocusBlox.StartFocusBlock
            with: { title: second, minutes: 30 }
        """

    @Test func aFailingStepKeepsEarlierIntentsUnlessTheRunIsAtomic() throws {
        let conversation = try scratch.conversation()
        var options = ShortcutRunner.Options()
        options.atomic = true
        let atomic = try run(Self.twoBlocks, options: options, on: conversation.session)
        let failed = try #require(failure(atomic))
        #expect(failed.location?.start.line == 5)
        #expect(failed.message.hasPrefix("A focus block is already running"))
        #expect(try conversation.titles("FocusBlock") == [], "an atomic run that fails leaves the store as it was")

        let stepwise = try run(Self.twoBlocks, on: conversation.session)
        #expect(failure(stepwise) != nil)
        #expect(try conversation.titles("FocusBlock") == ["first"], "each intent is its own transaction")
    }

    @Test func dryRunsChangeNothing() throws {
        let conversation = try scratch.conversation()
        var options = ShortcutRunner.Options()
        options.dryRun = true
        let result = try run(
            "shortcut: One\nsteps:\n  - intent: FocusBlox.CreateTask\n    with: { title: buy milk }\n",
            options: options, on: conversation.session)
        #expect(failure(result) == nil)
        #expect(try conversation.titles("Task") == [])
    }

    @Test func stepsAndLoopsAreBounded() throws {
        var options = ShortcutRunner.Options()
        options.stepLimit = 20
        let endless = try run(
            "shortcut: Loop\nsteps:\n  - repeat: 100\n    do:\n      - show: again\n", options: options)
        #expect(failure(endless)?.message == "the run took more than 20 steps; stopped (is a loop endless?)")
        #expect(failure(endless)?.location?.start.line == 5)

        options = ShortcutRunner.Options()
        options.loopLimit = 10
        let rounds = try run("shortcut: Loop\nsteps:\n  - repeat: 11\n    do:\n      - show: again\n", options: options)
        #expect(failure(rounds)?.message == "repeat 11 is more than the limit of 10 rounds")
        #expect(failure(rounds)?.location?.start.line == 3)
        let items = try run(
            """
            shortcut: Loop
            input:
              items: { type: "[integer]", default: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] }
            steps:
              - repeat_each: "${items}"
                do: [ { show: "${item}" } ]
            """, options: options)
        #expect(failure(items)?.message == "repeat_each over 11 items is more than the limit of 10 rounds")
        let fits = try run(
            "shortcut: Loop\nsteps:\n  - repeat: 10\n    as: i\n    do:\n      - show: \"${i}\"\n",
            options: options)
        #expect(failure(fits) == nil)
        #expect(fits.steps == 11)
        #expect(fits.log.last?.text == "10")
    }
}
