import IntentModel
import Testing

@testable import IntentLanguage

/// Definitions in, diagnostics out: every listed finding at its marker, and nothing unlisted.
struct DiagnosticsTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var source: String
        var findings: [(marker: String, text: String)]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "YAML syntax error",
            source: """
                app: Shop
                intents:
                  Buy:
                    phrases: 1️⃣[ "buy", "purchase"
                    2️⃣title: Buy
                """,
            findings: [("2️⃣", "error: did not find expected ',' or ']'"), ("1️⃣", "note: while parsing a flow sequence")]),
        Case(
            name: "unknown type",
            source: """
                app: Shop
                intents:
                  Buy:
                    parameters:
                      count: 1️⃣integr
                    phrases: ["buy {count}"]
                    result: { dialog: "${count}" }
                """, findings: [("1️⃣", "error: unknown type 'integr'; did you mean 'integer'?")]),
        Case(
            name: "phrase slot that is not a parameter",
            source: """
                app: Shop
                intents:
                  Buy:
                    parameters: { item: string }
                    phrases: ["buy {1️⃣itme}", "get {item}"]
                    result: { dialog: "${item}" }
                """, findings: [("1️⃣", "error: unknown slot 'itme'; did you mean 'item'?")]),
        Case(
            name: "unknown key",
            source: """
                app: Shop
                intents:
                  Buy:
                    1️⃣titel: Buy
                    phrases: ["buy"]
                """, findings: [("1️⃣", "error: unknown key 'titel'; did you mean 'title'?")]),
        Case(
            name: "duplicate key",
            source: """
                app: Shop
                intents:
                  Buy:
                    1️⃣phrases: ["buy"]
                    2️⃣phrases: ["get"]
                """, findings: [("2️⃣", "error: duplicate key 'phrases'"), ("1️⃣", "note: 'phrases' is first given here")]),
        Case(
            name: "default that does not fit its type",
            source: """
                app: Shop
                enums:
                  Size: { cases: { small: Small, large: Large } }
                intents:
                  Buy:
                    parameters:
                      size: { type: Size, default: 1️⃣smal }
                      count: { type: integer, default: 2️⃣many }
                    phrases: ["buy {size}"]
                    result: { dialog: "${size} ${count}" }
                """,
            findings: [
                ("1️⃣", "error: the default of 'size': 'smal' is not a case of Size; did you mean 'small'?"),
                ("2️⃣", "error: the default of 'count' must be a whole number; 'many' is not"),
            ]),
        Case(
            name: "enum synonyms that clash",
            source: """
                app: Shop
                enums:
                  Size:
                    cases:
                      small: { synonyms: [little] }
                      large: { synonyms: [big, 1️⃣Little] }
                """, findings: [("1️⃣", "error: 'Little' would mean both 'small' and 'large' of Size"), ("note", "")]),
        Case(
            name: "expressions that do not type-check",
            source: """
                app: Shop
                entities:
                  Item:
                    properties: { name: string, price: number }
                intents:
                  Buy:
                    parameters: { name: string }
                    phrases: ["buy {name}"]
                    summary:
                      - when: "1️⃣name > 3"
                        text: "Buy ${name}"
                    perform:
                      - find: Item
                        where: "2️⃣price"
                        as: items
                    result: { dialog: "${count(items) + 3️⃣name.size}" }
                """,
            findings: [
                ("1️⃣", "error: cannot compare string with integer"),
                ("2️⃣", "error: a condition must be boolean, but this is number"),
                ("3️⃣", "error: string has no property 'size'"),
            ]),
        Case(
            name: "steps writing unknown properties",
            source: """
                app: Shop
                entities:
                  Item:
                    properties: { name: string }
                intents:
                  Buy:
                    parameters: { name: string }
                    phrases: ["buy {name}"]
                    perform:
                      - create: Item
                        set: { name: "${name}", 1️⃣colour: red }
                """, findings: [("1️⃣", "error: 'Item' has no property 'colour'")]),
        Case(
            name: "unused parameter and an intent nobody can say",
            source: """
                app: Shop
                intents:
                  Buy:
                    parameters: { 1️⃣name: string }
                    phrases: ["buy {name}"]
                  2️⃣Hidden:
                    title: Hidden
                """,
            findings: [
                ("1️⃣", "warning: parameter 'name' is never used by the intent's steps, result or summary"),
                ("2️⃣", "warning: intent 'Hidden' has neither a phrase nor an app shortcut; nothing can say it"),
            ]),
        Case(
            name: "an intent with phrases and no examples",
            source: """
                app: Shop
                intents:
                  1️⃣Buy:
                    phrases: ["buy it"]
                """,
            findings: [
                (
                    "1️⃣",
                    "warning: intent 'Buy' has no examples; add sentences people would say, so 'intents test' keeps them working"
                )
            ]),
        Case(
            name: "identical phrases on two intents",
            source: """
                app: Shop
                intents:
                  Buy:
                    phrases: [1️⃣"(buy|get) it now"]
                  Get:
                    phrases: [2️⃣"get it [now]"]
                """,
            findings: [
                ("2️⃣", "error: 'get it now' is a phrase of both 'Buy' and 'Get'"),
                ("1️⃣", "note: 'Shop.Buy' says it here"),
            ]),
        Case(
            name: "duplicate names",
            source: """
                app: Shop
                enums:
                  Size: { cases: { small: Small } }
                entities:
                  1️⃣Size:
                    properties: { name: string }
                """, findings: [("1️⃣", "error: duplicate type 'Size'"), ("note", "")]),
        Case(
            name: "phrase template syntax",
            source: """
                app: Shop
                intents:
                  Buy:
                    phrases: ["buy 1️⃣(it|that"]
                """, findings: [("1️⃣", "error: '(' is never closed")]),
        Case(
            name: "a second document",
            source: """
                app: Shop
                1️⃣---
                app: Other
                """,
            findings: [
                ("1️⃣", "error: a definition file holds one YAML document; found a second one here"), ("note", ""),
            ]),
    ]

    @Test(arguments: cases)
    func diagnoses(_ c: Case) {
        let marked = MarkedSource(c.source)
        let compilation = compile(marked.text)
        var found: [(line: Int, column: Int, text: String)] = []
        // Fixtures are small: the "no examples" warning is checked by its own case only.
        let listsNoExamples = c.findings.contains { $0.text.contains("has no examples") }
        for diagnostic in compilation.diagnostics
        where listsNoExamples || !diagnostic.message.text.contains("has no examples") {
            let start = diagnostic.location?.start
            found.append(
                (start?.line ?? 0, start?.column ?? 0, "\(diagnostic.severity.rawValue): \(diagnostic.message)"))
            for note in diagnostic.notes {
                found.append(
                    (note.location?.start.line ?? 0, note.location?.start.column ?? 0, "note: \(note.message)"))
            }
        }
        for finding in c.findings where finding.marker != "note" {
            guard let position = marked.positions[finding.marker] else {
                Issue.record("marker \(finding.marker) is not in the source")
                continue
            }
            let index = found.firstIndex {
                $0.line == position.line && $0.column == position.column && $0.text == finding.text
            }
            if let index {
                found.remove(at: index)
            } else {
                Issue.record("expected at \(position.line):\(position.column): \(finding.text)\nfound: \(found)")
            }
        }
        // "note" entries stand for notes whose place the case does not pin down.
        let looseNotes = c.findings.filter { $0.marker == "note" }.count
        let unlisted =
            found.filter { !$0.text.hasPrefix("note:") }
            + found.filter { $0.text.hasPrefix("note:") }.dropFirst(looseNotes)
        #expect(unlisted.isEmpty, "unlisted findings: \(unlisted)")
    }

    @Test func errorsWithholdTheGraphWarningsDoNot() {
        #expect(compile("app: Shop\nintents: { Buy: { titel: x } }\n").graph == nil)
        #expect(compile("app: Shop\nintents: { Buy: { title: x } }\n").graph != nil)
    }
}
