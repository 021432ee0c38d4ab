import Foundation
import IntentModel
import PhraseMatching
import TestSupport
import Testing

@testable import IntentLanguage

/// 25. One mistake, one diagnostic: what depends on a declaration that failed reports nothing more.
@Suite("Root causes: follow-on errors are suppressed")
struct RootCauseTests {
    static let moody = """
        app: Moody
        enums:
          Mood:
            cases:
              happy: { title: Happy }
              sad: { title: Sad }
        entities:
          Entry:
            properties:
              mood: Moood
              note: string
            matchBy: [note]
            suggested: { sort: -mood }
        intents:
          SetMood:
            parameters:
              mood: { type: Moood }
            phrases: ["I feel {mood}"]
            perform:
              - create: Entry
                set: { mood: "${mood}", note: "x" }
                as: entry
            result: { dialog: "Feeling ${mood}, ${entry.mood}." }
            examples:
              - say: "I feel happy"
                expect: { mood: happy }
          Other:
            phrases: ["other"]
            perform:
              - call: SetMood
                with: { mood: happy }
              - find: Entry
                where: "mood == happy"
                as: found
            result: { dialog: "ok" }
            examples:
              - say: "other"
                expect: {}
        """

    @Test("An unknown type is reported where it is written, once per place, and nowhere else")
    func unknownTypeOnce() {
        let errors = compile(Self.moody).diagnostics.filter { $0.severity == .error }
        #expect(
            errors.map { "\($0.location?.start.line ?? 0): \($0.message.text)" } == [
                "10: unknown type 'Moood'; did you mean 'Mood'?",
                "17: unknown type 'Moood'; did you mean 'Mood'?",
            ])
    }

    @Test(
        "Other languages' type names suggest ours",
        arguments: [
            ("int", "integer"), ("bool", "boolean"), ("str", "string"), ("float", "number"), ("double", "number"),
        ])
    func typeAliases(_ written: String, _ meant: String) {
        let source = """
            app: T
            intents:
              Go:
                parameters:
                  x: { type: \(written) }
                phrases: ["go {x}"]
                result: { dialog: "${x}" }
                examples:
                  - say: "go"
                    expect: {}
            """
        let errors = compile(source).diagnostics.filter { $0.severity == .error }.map(\.message.text)
        #expect(errors == ["unknown type '\(written)'; did you mean '\(meant)'?"])
    }

    @Test("A shortcut input of an unknown type is one error")
    func shortcutInput() {
        let source = """
            shortcut: S
            input:
              n: { type: intger }
            steps:
              - show: "${n}"
              - intent: FocusBlox.StartFocusBlock
                with: { title: "x", minutes: "${n}" }
              - if: "n > 3"
                then:
                  - show: "big ${n + 1}"
              - repeat: "${n}"
                do:
                  - show: "again"
              - output: "${n * 2}"
            """
        let matcher = Matcher(index: PhraseIndex(graph: Bundled.graph), clock: Bundled.clock)
        let compilation = ShortcutCompiler.compile(
            path: "t/main.yaml", graph: Bundled.graph, matcher: matcher, files: ["t/main.yaml": source])
        let errors = compilation.diagnostics.filter { $0.severity == .error }.map(\.message.text)
        #expect(errors == ["unknown type 'intger'; did you mean 'integer'?"])
    }
}
