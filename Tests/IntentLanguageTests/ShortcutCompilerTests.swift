import Foundation
import IntentModel
import PhraseMatching
import TestSupport
import Testing

@testable import IntentLanguage

/// Shortcut files in, diagnostics out, without the binary: every listed finding at its marker in
/// `t/main.yaml`, and nothing unlisted. Other files the main one runs are given as plain text.
struct ShortcutCompilerTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var source: String
        var findings: [(marker: String, text: String)]
        var others: [String: String] = [:]
        var testDescription: String { name }
    }

    static let matcher = Matcher(index: PhraseIndex(graph: Bundled.graph), clock: Bundled.clock)

    static func compile(_ source: String, others: [String: String] = [:]) -> ShortcutCompilation {
        var files = others
        files["t/main.yaml"] = source
        return ShortcutCompiler.compile(path: "t/main.yaml", graph: Bundled.graph, matcher: matcher, files: files)
    }

    static let cases: [Case] = [
        Case(
            name: "unknown top-level key",
            source: """
                shortcut: Plan
                1️⃣descripton: x
                steps: []
                """, findings: [("1️⃣", "error: unknown key 'descripton'; did you mean 'description'?")]),
        Case(
            name: "unknown key in a step",
            source: """
                shortcut: Plan
                steps:
                  - say: "what's next in focusblox"
                    1️⃣ass: next
                """, findings: [("1️⃣", "error: unknown key 'ass'; did you mean 'as'?")]),
        Case(
            name: "unknown key in an input",
            source: """
                shortcut: Plan
                input:
                  minutes: { type: integer, 1️⃣defualt: 5 }
                steps: []
                """, findings: [("1️⃣", "error: unknown key 'defualt'; did you mean 'default'?")]),
        Case(
            name: "unknown step",
            source: """
                shortcut: Plan
                steps:
                  - 1️⃣sya: "what's next"
                """, findings: [("1️⃣", "error: unknown step 'sya'; did you mean 'say'?")]),
        Case(
            name: "a key of another step kind",
            source: """
                shortcut: Plan
                steps:
                  - show: hi
                    1️⃣do: []
                  - 2️⃣output: 1
                    3️⃣as: result
                """,
            findings: [
                ("1️⃣", "error: 'do' does not apply to a 'show' step"),
                ("3️⃣", "error: 'as' does not apply to an 'output' step"),
            ]),
        Case(
            name: "two verbs in one step",
            source: """
                shortcut: Plan
                steps:
                  - show: hi
                    1️⃣say: "what's next"
                """,
            findings: [
                ("1️⃣", "error: one step does one thing; found show and say: make them separate steps")
            ]),
        Case(
            name: "missing keys are reported at their mapping",
            source: """
                1️⃣description: no name, no steps
                """,
            findings: [
                ("1️⃣", "error: missing 'shortcut' in a shortcut file"),
                ("1️⃣", "error: missing 'steps' in a shortcut file"),
            ]),
        Case(
            name: "a step without its body",
            source: """
                shortcut: Plan
                steps:
                  - 1️⃣if: "true"
                  - 2️⃣repeat: 3
                  - 3️⃣choose: "Which one?"
                """,
            findings: [
                ("1️⃣", "error: missing 'then' in an 'if' step"),
                ("2️⃣", "error: missing 'do' in a 'repeat' step"),
                ("3️⃣", "error: missing 'from' in a 'choose' step"),
            ]),
        Case(
            name: "unknown intent",
            source: """
                shortcut: Plan
                steps:
                  - intent: 1️⃣FocusBlox.StartFocusBlok
                """,
            findings: [
                ("1️⃣", "error: unknown intent 'FocusBlox.StartFocusBlok'; did you mean 'FocusBlox.StartFocusBlock'?")
            ]),
        Case(
            name: "unknown parameter",
            source: """
                shortcut: Plan
                steps:
                  - intent: FocusBlox.StartFocusBlock
                    with: { title: Deep work, 1️⃣minuts: 30 }
                """, findings: [("1️⃣", "error: StartFocusBlock has no parameter 'minuts'; did you mean 'minutes'?")]),
        Case(
            name: "missing required parameter",
            source: """
                shortcut: Plan
                steps:
                  - intent: 1️⃣FocusBlox.StartFocusBlock
                    with: { minutes: 30 }
                """,
            findings: [
                ("1️⃣", "error: StartFocusBlock needs parameter 'title' (string): give it under 'with:'")
            ]
        ),
        Case(
            name: "unknown variable",
            source: """
                shortcut: Plan
                steps:
                  - show: "${1️⃣undefinedThing}"
                """, findings: [("1️⃣", "error: unknown name 'undefinedThing'")]),
        Case(
            name: "type mismatches",
            source: """
                shortcut: Plan
                input:
                  minutes: { type: integer, default: 25 }
                steps:
                  - intent: FocusBlox.StartFocusBlock
                    with: { title: Deep work, minutes: 1️⃣many }
                  - intent: FocusBlox.StartFocusBlock
                    with: { title: Deep work, minutes: 2️⃣"${'many'}" }
                  - set: { minutes: 3️⃣"${'many'}" }
                  - repeat_each: 4️⃣"${minutes}"
                    do: [ { show: hi } ]
                """,
            findings: [
                ("1️⃣", "error: parameter 'minutes' of StartFocusBlock must be a whole number; 'many' is not"),
                ("2️⃣", "error: parameter 'minutes' of StartFocusBlock must be integer, but this is string"),
                ("3️⃣", "error: 'minutes' is integer; it cannot hold string"),
                ("4️⃣", "error: 'repeat_each' takes a list, but this is integer"),
            ]),
        Case(
            name: "a say: phrase that matches nothing",
            source: """
                shortcut: Plan
                steps:
                  - say: 1️⃣"blorp the flux capacitor"
                """,
            findings: [
                (
                    "1️⃣",
                    "error: no intent matches “blorp the flux capacitor”; "
                        + "did you mean “Delete the task called renew passport” or “Delete the radar on rust” or "
                        + "“Get rid of the task called renew passport”?"
                )
            ]),
        Case(
            name: "a file running itself",
            source: """
                shortcut: Me
                steps:
                  - run: 1️⃣main.yaml
                """, findings: [("1️⃣", "error: 't/main.yaml' runs itself (through main.yaml)")]),
        Case(
            name: "a run: with an unknown input",
            source: """
                shortcut: Caller
                steps:
                  - run: 1️⃣child.yaml
                    with: { 2️⃣minuts: 5 }
                  - run: 3️⃣missing.yaml
                """,
            findings: [
                ("2️⃣", "error: Child has no input 'minuts'; did you mean 'minutes'?"),
                ("1️⃣", "error: Child needs input 'minutes' (integer): give it under 'with:'"),
                ("3️⃣", "error: cannot read the shortcut file 't/missing.yaml'"),
            ], others: ["t/child.yaml": "shortcut: Child\ninput: { minutes: integer }\nsteps: []\n"]),
        Case(
            name: "names that are not names",
            source: """
                shortcut: Plan
                input:
                  1️⃣my input: integer
                steps:
                  - say: "what's next in focusblox"
                    as: 2️⃣next one
                  - set: { 3️⃣9lives: 9 }
                """,
            findings: [
                ("1️⃣", "error: an input's name is letters, digits and '_'"),
                ("2️⃣", "error: 'as' names a variable: letters, digits and '_'"),
                ("3️⃣", "error: a variable's name is letters, digits and '_'"),
            ]),
        Case(
            name: "shapes the schema does not allow",
            source: """
                shortcut: Plan
                steps:
                  - 1️⃣just text
                  - say: 2️⃣[a, b]
                  - set: 3️⃣3
                """,
            findings: [
                (
                    "1️⃣",
                    "error: a step is a mapping with one of say, intent, set, if, repeat, repeat_each, choose, "
                        + "ask, show, output, stop, run, start_activity, update_activity, end_activity"
                ),
                ("2️⃣", "error: expected a string for 'say' (a phrase)"),
                ("3️⃣", "error: expected a mapping for 'set' (variable names and values: { count: 0 })"),
            ]),
    ]

    @Test(arguments: cases)
    func diagnoses(_ c: Case) {
        let marked = MarkedSource(c.source)
        let compilation = Self.compile(marked.text, others: c.others)
        var found = compilation.diagnostics.map { diagnostic in
            let start = diagnostic.location?.start
            return (
                file: start?.file ?? "", line: start?.line ?? 0, column: start?.column ?? 0,
                text: "\(diagnostic.severity.rawValue): \(diagnostic.message)"
            )
        }
        for finding in c.findings {
            guard let position = marked.positions[finding.marker] else {
                Issue.record("marker \(finding.marker) is not in the source")
                continue
            }
            let index = found.firstIndex {
                $0.file == "t/main.yaml" && $0.line == position.line && $0.column == position.column
                    && $0.text == finding.text
            }
            if let index {
                found.remove(at: index)
            } else {
                Issue.record("expected at \(position.line):\(position.column): \(finding.text)\nfound: \(found)")
            }
        }
        #expect(found.isEmpty, "unlisted findings: \(found)")
        #expect(compilation.shortcut == nil, "a file with errors gives no shortcut")
    }

    @Test func compilesStepsAndResolvesLiteralPhrases() throws {
        let compilation = Self.compile(
            """
            shortcut: Plan
            input:
              minutes: { type: integer, default: 25 }
            steps:
              - say: "what's next in focusblox"
                as: next
              - repeat_each: "${next}"
                as: task
                do:
                  - show: "${task.title}"
              - run: child.yaml
                with: { count: "${minutes}" }
                as: doubled
              - output: "${doubled + 1}"
            """,
            others: [
                "t/child.yaml": "shortcut: Child\ninput: { count: integer }\nsteps:\n  - output: \"${count * 2}\"\n"
            ])
        #expect(compilation.diagnostics.isEmpty, "\(compilation.diagnostics)")
        let shortcut = try #require(compilation.shortcut)
        #expect(shortcut.name == "Plan")
        #expect(shortcut.inputs.map(\.name) == ["minutes"])
        #expect(shortcut.steps.count == 4)
        guard case .say(_, let intent, let binding) = shortcut.steps[0].kind else {
            Issue.record("the first step is not a say step")
            return
        }
        #expect(intent == QualifiedName(app: "FocusBlox", name: "GetNextUp"))
        #expect(binding == "next")
        #expect(shortcut.steps[0].location.start.line == 5)
        #expect(Set(compilation.shortcuts.keys) == ["t/main.yaml", "t/child.yaml"])
    }

    @Test func phrasesWithTemplatesAreMatchedWhenTheyRun() throws {
        let compilation = Self.compile(
            """
            shortcut: Plan
            steps:
              - say: "${'what' + 's next'}"
            """)
        // A phrase with ${…} is only matched when it runs: nothing to say at compile time.
        #expect(compilation.diagnostics.isEmpty, "\(compilation.diagnostics)")
    }

    @Test(arguments: ["fortune-for-every-sign", "morning-review", "plan-my-day", "reading-list", "weekly-cleanup"])
    func bundledShortcutsCompileCleanly(_ name: String) {
        let path = Bundled.root + "/Shortcuts/\(name).yaml"
        let compilation = ShortcutCompiler.compile(path: path, graph: Bundled.graph, matcher: Self.matcher)
        #expect(compilation.diagnostics.isEmpty, "\(compilation.diagnostics)")
        #expect(compilation.shortcut != nil)
    }
}
