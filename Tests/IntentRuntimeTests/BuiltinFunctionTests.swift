import Foundation
import IntentLanguage
import IntentModel
import TestSupport
import Testing

@testable import IntentRuntime

/// Every built-in function is known to the checker and to the evaluator: a call of each type-checks
/// against the bundled graph and evaluates to what its type says.
struct BuiltinFunctionTests {
    /// A call of each function and what it gives at `Bundled.now`. A function added to
    /// `BuiltinFunction` without a row here fails `everyFunctionHasACall`.
    static let calls: [BuiltinFunction: (source: String, value: Datum)] = [
        .count: ("count([1, 2, 3])", .integer(3)),
        .exists: ("exists([])", .boolean(false)),
        .first: ("first(['a', 'b'])", .string("a")),
        .now: ("now()", .date(Bundled.now)),
        .today: ("today()", .date(Bundled.now.addingTimeInterval(-10 * 3600))),
        .pick: ("pick(['a'], 'seed')", .string("a")),
        .percent: ("percent('leo', 'virgo') == percent('virgo', 'leo')", .boolean(true)),
        .lowercase: ("lowercase('ÉCLAIR')", .string("éclair")),
        .uppercase: ("uppercase('straße')", .string("STRASSE")),
        .capitalized: ("capitalized('buy milk')", .string("Buy milk")),
        .join: ("join(['a', 'b'], ' + ')", .string("a + b")),
        .minutes: ("minutes(25)", .duration(1500)),
        .hours: ("hours(1.5)", .duration(5400)),
        .days: ("days(2)", .duration(172_800)),
    ]

    @Test func everyFunctionHasACall() {
        let missing = BuiltinFunction.allCases.filter { Self.calls[$0] == nil }
        #expect(missing.isEmpty, "no call for \(missing)")
    }

    @Test(arguments: BuiltinFunction.allCases)
    func isCheckedAndEvaluated(_ function: BuiltinFunction) throws {
        let call = try #require(Self.calls[function])
        let checked = try Bundled.graph.expression(call.source, app: "FocusBlox")
        let evaluator = Evaluator(graph: Bundled.graph, clock: Bundled.clock, app: "FocusBlox", store: nil)
        #expect(try evaluator.evaluate(checked, in: [:]) == call.value)
    }

    @Test func anUnknownFunctionIsAnErrorNamingTheClosest() {
        #expect(throws: IntentGraph.FilterError.self) {
            try Bundled.graph.expression("lowercas('A')", app: "FocusBlox")
        }
        do {
            _ = try Bundled.graph.expression("lowercas('A')", app: "FocusBlox")
        } catch {
            #expect(error.message.contains("did you mean 'lowercase'"), "\(error.message)")
        }
    }
}
