import IntentModel
import Testing

@testable import IntentLanguage

/// `training:` sentences and `understanding:` thresholds in, diagnostics out (checked like `DiagnosticsTests`).
struct TrainingDiagnosticsTests {
    static let cases: [DiagnosticsTests.Case] = [
        DiagnosticsTests.Case(
            name: "a training sentence marking an unknown slot",
            source: """
                app: Dining
                intents:
                  BookTable:
                    parameters: { partySize: integer, city: string }
                    phrases: ["book a table for {partySize} in {city}"]
                    result: { dialog: "${partySize} ${city}" }
                    training:
                      - "reserve a table for [four](partySize) in [paris](1️⃣cty)"
                """, findings: [("1️⃣", "error: unknown slot 'cty'; did you mean 'city'?")]),
        DiagnosticsTests.Case(
            name: "a training mark left open",
            source: """
                app: Dining
                intents:
                  BookTable:
                    parameters: { city: string }
                    phrases: ["book a table in {city}"]
                    result: { dialog: "${city}" }
                    training: ["a table in 1️⃣[paris(city)"]
                """, findings: [("1️⃣", "error: a value in a training sentence is marked [words](slot)")]),
        DiagnosticsTests.Case(
            name: "thresholds out of range, unknown, or in the wrong order",
            source: """
                app: Dining
                understanding: { act: 0.4, ask: 2️⃣1.5, 1️⃣acts: 0.9 }
                intents:
                  BookTable:
                    parameters: { city: string }
                    phrases: ["book a table in {city}"]
                    result: { dialog: "${city}" }
                """,
            findings: [
                ("2️⃣", "error: 'ask' is a confidence from 0 to 1"),
                ("1️⃣", "error: unknown threshold 'acts'; did you mean 'act'?"),
            ]),
    ]

    @Test(arguments: cases)
    func diagnoses(_ c: DiagnosticsTests.Case) {
        DiagnosticsTests().diagnoses(c)
    }

    @Test("Training sentences reach the graph as words; thresholds as numbers")
    func compiles() throws {
        let source = """
            app: Dining
            understanding: { act: 0.9, ask: 0.6 }
            intents:
              BookTable:
                parameters: { partySize: integer, city: string }
                phrases: ["book a table for {partySize} in {city}"]
                result: { dialog: "${partySize} ${city}" }
                training: ["book a table for [four](partySize) in [paris](city)"]
            """
        let compilation = IntentCompiler.compile(files: [(path: "d/app.yaml", bytes: Array(source.utf8))], root: "d")
        let graph = try #require(compilation.graph)
        #expect(
            graph.intent(QualifiedName(app: "Dining", name: "BookTable"))?.training == [
                "book a table for four in paris"
            ])
        #expect(graph.app(named: "Dining")?.understanding == IntentGraph.Understanding(act: 0.9, ask: 0.6))
    }
}
