import Foundation
import IntentModel

/// Runs the `examples:` of the definitions: each sentence through the matcher, checked against
/// the expected intent and parameter values (parameters left out of a sentence take their defaults).
public struct ExampleRunner: Sendable {
    public struct Failure: Sendable {
        public var example: IntentGraph.Example
        public var reason: String
    }

    public struct Report: Sendable {
        public var passed: Int
        public var failures: [Failure]
    }

    public let matcher: Matcher
    /// What `say` does to an exact match before it runs (the slot tagger dividing free text anew,
    /// `LearnedStage.revise`), so that an example checks the values `say` would use.
    public var revise: (@Sendable (Candidate, String) -> Candidate)?

    public init(matcher: Matcher, revise: (@Sendable (Candidate, String) -> Candidate)? = nil) {
        self.matcher = matcher
        self.revise = revise
    }

    public var examples: [IntentGraph.Example] {
        matcher.index.graph.apps.flatMap { app in app.examples + app.intents.flatMap(\.examples) }
    }

    public func run() -> Report {
        var passed = 0
        var failures: [Failure] = []
        for example in examples {
            if let reason = check(example) {
                failures.append(Failure(example: example, reason: reason))
            } else {
                passed += 1
            }
        }
        return Report(passed: passed, failures: failures)
    }

    /// Nil when the example passes, else what went wrong.
    public func check(_ example: IntentGraph.Example) -> String? {
        let recognition = matcher.recognize(example.say, language: example.language)
        switch (example.expectation, recognition.outcome) {
        case (.noMatch, .noMatch):
            return nil
        case (.noMatch, .match(let candidate)):
            return "expected no match, got \(candidate.intent) (\(candidate.template))"
        case (.noMatch, .ambiguous(let candidates)):
            return "expected no match, got a choice of \(candidates.map(\.intent.description).joined(separator: ", "))"
        case (.match(let intent, _), .noMatch(let suggestions)):
            return "expected \(intent), got no match"
                + (suggestions.isEmpty ? "" : " (closest: \(suggestions.joined(separator: "; ")))")
        case (.match(let intent, _), .ambiguous(let candidates)):
            return "expected \(intent), got a choice of \(candidates.map(\.intent.description).joined(separator: ", "))"
        case (.match(let intent, let expected), .match(let matched)):
            let candidate = revise?(matched, example.say) ?? matched
            guard candidate.intent == intent else {
                return "expected \(intent), got \(candidate.intent) (\(candidate.template))"
            }
            let values = candidate.values
            let declared = matcher.index.graph.intent(intent)
            var problems: [String] = []
            for (name, want) in expected.sorted(by: { $0.key < $1.key }) {
                guard let got = values[name] ?? declared?.parameter(name)?.defaultValue else {
                    problems.append("\(name): expected \(want), got nothing")
                    continue
                }
                if !same(want, got) { problems.append("\(name): expected \(want), got \(got)") }
            }
            return problems.isEmpty ? nil : problems.joined(separator: "; ") + " (\(candidate.template))"
        }
    }

    /// Values compared as a person would: text without case or diacritics, numbers by value,
    /// relative dates resolved against the matcher's reference moment.
    func same(_ expected: Value, _ actual: Value) -> Bool {
        switch (expected, actual) {
        case (.string(let a), .string(let b)), (.url(let a), .url(let b)):
            return TextFolding.fold(a).trimmingCharacters(in: .punctuationCharacters)
                == TextFolding.fold(b).trimmingCharacters(in: .punctuationCharacters)
        case (.integer(let a), .integer(let b)): return a == b
        case (.integer(let a), .number(let b)), (.number(let b), .integer(let a)): return Double(a) == b
        case (.number(let a), .number(let b)): return abs(a - b) < 1e-9
        case (.date(let a), .date(let b)):
            let clock = matcher.clock
            return clock.resolve(a) == clock.resolve(b) || clock.resolve(a) == clock.startOfDay(clock.resolve(b))
        case (.string(let spoken), .date):
            // A date written as people say it ("next monday"), read like the sentence's own.
            let tokens = Normalizer.tokens(spoken)
            guard let parsed = DateParser(clock: matcher.clock).parse(tokens, at: 0), parsed.length == tokens.count
            else {
                return false
            }
            return same(.date(parsed.value(in: matcher.clock)), actual)
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy(same)
        default: return expected == actual
        }
    }
}
