import Foundation
import IntentModel
import Testing

@testable import IntentLanguage

/// Issue 10: definitions that would overflow the stack, or take quadratic time, are diagnostics.
struct LimitsTests {
    static func intents(_ body: String) -> String {
        """
        app: Long
        intents:
        \(body)
        """
    }

    @Test(arguments: ["+", "&&", "||", "*", "??"])
    func aLongChainOfOperatorsIsADiagnostic(op: String) {
        let terms = Array(repeating: "1", count: 4_000).joined(separator: " \(op) ")
        let source = Self.intents(
            """
              Sum:
                phrases: { en: ["sum"] }
                result: { dialog: "${\(terms)}" }
            """)
        let compilation = compile(source)
        #expect(compilation.graph == nil)
        let messages = compilation.diagnostics.map(\.message.text)
        #expect(messages.contains { $0.contains("expression too long: more than 1000 tokens") }, "\(messages)")
        let diagnostic = compilation.diagnostics.first { $0.message.text.contains("expression too long") }
        #expect(diagnostic?.location?.start.line == 5)
    }

    @Test func aFilterWithThousandsOfTermsIsAnError() {
        let terms = Array(repeating: "1 == 1", count: 2_000).joined(separator: " && ")
        #expect(throws: (any Error).self) { try ExpressionParser.parse(terms) }
    }

    @Test("A chain of 850 intents each calling the next is a diagnostic, not a stack overflow")
    func aLongCallChainIsADiagnostic() {
        var body = ""
        for n in 0..<850 {
            body += "  I\(n):\n    phrases: { en: [\"step \(n)\"] }\n"
            if n < 849 { body += "    perform:\n      - call: I\(n + 1)\n" }
        }
        let compilation = compile(Self.intents(body))
        #expect(compilation.graph == nil)
        let messages = compilation.diagnostics.map(\.message.text)
        #expect(
            messages.contains { $0.contains("calls nest more than 16 intents deep here (I0 → I1 → I2 → …)") },
            "\(messages.prefix(3))")
    }

    @Test func sixteenNestedCallsCompile() {
        var body = ""
        for n in 0..<16 {
            body += "  I\(n):\n    phrases: { en: [\"step \(n)\"] }\n"
            if n < 15 { body += "    perform:\n      - call: I\(n + 1)\n" }
        }
        let compilation = compile(Self.intents(body))
        #expect(compilation.graph != nil, "\(compilation.diagnostics.map(\.message.text))")
    }
}
