import IntentModel
import Testing

@testable import IntentLanguage

/// `searchable:`, `donate:`, `suggest:` and `tips:` in, diagnostics out, at their markers.
struct PresenceDiagnosticsTests {
    typealias Case = DiagnosticsTests.Case

    static let entity = """
        app: Shop
        entities:
          Item:
            properties: { name: string, tags: { type: "[string]", default: [] }, count: { type: integer, default: 0 }, done: { type: boolean, default: false } }
        """

    static let cases: [Case] = [
        Case(
            name: "searchable with an unknown property, a wrong keywords type and a bad expiry",
            source: entity + """

                    searchable:
                      title: "${1️⃣nam}"
                      keywords: 2️⃣"${count}"
                      where: "!done"
                      expires: 3️⃣30 days
                """,
            findings: [
                ("1️⃣", "error: unknown name 'nam'; did you mean 'name'?"),
                ("2️⃣", "error: 'keywords' is text or a list of strings, not integer"),
                (
                    "3️⃣",
                    "error: '30 days' is not a duration for 'expires'; write a whole number and a unit: 30d, 12h, 90m, 2w"
                ),
            ]),
        Case(
            name: "searchable without a title, with an unknown key",
            source: entity + """

                    searchable: 1️⃣{ 2️⃣titel: "${name}" }
                """,
            findings: [
                ("2️⃣", "error: unknown key 'titel'; did you mean 'title'?"),
                ("1️⃣", "error: missing 'title' in 'searchable'"),
            ]),
        Case(
            name: "a donated date warns",
            source: """
                app: Shop
                intents:
                  Remind:
                    parameters: { what: string, when: date }
                    phrases: ["remind me {what} {when}"]
                    result: { dialog: "${what} ${when}" }
                    donate: [what, 1️⃣when]
                    suggest: 2️⃣maybe
                    examples: [{ say: "remind me call tomorrow", expect: { what: call } }]
                """,
            findings: [
                ("1️⃣", "warning: 'when' is a date; donate stable parameters, never timestamps"),
                ("2️⃣", "error: expected true or false for 'suggest'"),
            ]),
        Case(
            name: "tips: unknown intent, no shortcut, unknown placement",
            source: """
                app: Shop
                intents:
                  Buy:
                    phrases: ["buy"]
                    examples: [{ say: "buy" }]
                  Sell:
                    phrases: ["sell"]
                    examples: [{ say: "sell" }]
                shortcuts:
                  - { intent: Buy, phrases: ["Buy in {app}"] }
                tips:
                  - { intent: 1️⃣Buyy }
                  - { intent: 2️⃣Sell }
                  - { intent: Buy, placement: 3️⃣after-longway }
                """,
            findings: [
                ("1️⃣", "error: unknown intent 'Buyy'; did you mean 'Buy'?"),
                ("2️⃣", "error: intent 'Sell' has no app shortcut; a tip teaches a shortcut's phrase"),
                ("3️⃣", "error: unknown placement 'after-longway'; did you mean 'after-long-way'?"),
            ]),
    ]

    @Test(arguments: cases)
    func diagnoses(_ c: Case) {
        DiagnosticsTests().diagnoses(c)
    }

    @Test func compilesSearchableAndTips() throws {
        let compilation = IntentCompiler.compile(
            files: [
                (
                    path: "t/app.yaml",
                    bytes: Array(
                        (Self.entity + """

                                searchable: { title: "${name}", keywords: "${tags}", where: "!done", expires: 2w }
                            intents:
                              Buy:
                                phrases: ["buy"]
                                suggest: false
                                examples: [{ say: "buy" }]
                            shortcuts:
                              - { intent: Buy, phrases: ["Buy in {app}"], image: cart }
                            tips:
                              - { intent: Buy, when: "count(Item where !done) == 0" }
                            """).utf8)
                )
            ], root: "t")
        let graph = try #require(compilation.graph, "\(compilation.diagnostics.map(\.message.text))")
        let item = try #require(graph.entities.first?.searchable)
        #expect(item.expires == 14 * 86_400)
        #expect(graph.intents.first?.suggests == false)
        let tips = graph.apps[0].tips.map { "\($0.placement.rawValue) \($0.text)\($0.declared ? "" : " (derived)")" }
        #expect(
            tips == [
                "start Say “Buy in Shop”", "after-long-way Say “Buy in Shop” (derived)",
                "after-near-miss Say “Buy in Shop” (derived)",
            ])
    }
}
