import Foundation
import IntentModel
import IntentRuntime
import PhraseMatching

/// `check --json`: the diagnostics, each with its place, and how many errors and warnings.
struct CheckReport: Encodable {
    struct Place: Encodable {
        var file: String?
        var line: Int?
        var column: Int?
    }

    struct Note: Encodable {
        var message: String
        var file: String?
        var line: Int?
        var column: Int?
    }

    struct Entry: Encodable {
        var severity: String
        var message: String
        var file: String?
        var line: Int?
        var column: Int?
        var notes: [Note]?
        var fixIt: String?
    }

    var errors: Int
    var warnings: Int
    var diagnostics: [Entry]

    init(_ diagnostics: [Diagnostic]) {
        errors = diagnostics.filter { $0.severity == .error }.count
        warnings = diagnostics.filter { $0.severity == .warning }.count
        self.diagnostics = diagnostics.map { diagnostic in
            let start = diagnostic.location?.start
            let notes = diagnostic.notes.map {
                Note(
                    message: $0.message.text, file: $0.location?.start.file, line: $0.location?.start.line,
                    column: $0.location?.start.column)
            }
            return Entry(
                severity: diagnostic.severity.rawValue, message: diagnostic.message.text, file: start?.file,
                line: start?.line, column: start?.column, notes: notes.isEmpty ? nil : notes,
                fixIt: diagnostic.fixIt?.replacement)
        }
    }
}

/// `explain --json`: the tokens, the outcome, and each candidate with its slots and score parts.
struct ExplainReport: Encodable {
    struct Slot: Encodable {
        var name: String
        var value: String
        var words: String
        var typed: Bool
    }

    struct Candidate: Encodable {
        var intent: String
        var language: String
        var template: String
        var slots: [Slot]
        /// Score parts, larger is better, compared in the order of `order`.
        var score: [String: Int]
        var order: [String]
        var appNamed: String?
        /// The score part it lost to the first candidate on.
        var lostOn: String?
    }

    var tokens: [String]
    /// The intent matched, `ambiguous` or `no_match`.
    var result: String
    var ambiguousBetween: [String]?
    /// The slot tagger's labels and values (`Explain+Tagger.swift`), when it read the sentence.
    var tagger: Tagger?
    var suggestions: [String]?
    var candidates: [Candidate]
    /// Which stage answered: `exact`, or `learned` when the exact matcher found nothing.
    var stage = "exact"
    var learned: Learned?

    init(_ recognition: Recognition, top: Int) {
        tokens = recognition.tokens.map(\.text)
        switch recognition.outcome {
        case .match(let candidate): result = candidate.intent.description
        case .ambiguous(let candidates):
            result = "ambiguous"
            ambiguousBetween = candidates.map(\.intent.description)
        case .noMatch(let suggestions):
            result = "no_match"
            self.suggestions = suggestions
        }
        candidates = recognition.candidates.prefix(top).enumerated().map { rank, candidate in
            Candidate(
                intent: candidate.intent.description, language: candidate.language, template: candidate.template,
                slots: candidate.slots.map { slot in
                    Slot(
                        name: slot.name, value: slot.value.description,
                        words: recognition.tokens[slot.span].map(\.raw).joined(separator: " "), typed: slot.typed)
                },
                score: Dictionary(candidate.score.parts.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a }),
                order: candidate.score.parts.map(\.name), appNamed: candidate.namedApp,
                lostOn: rank > 0 ? candidate.score.decidingPart(against: recognition.candidates[0].score) : nil)
        }
    }
}

/// `batch --json`: every phrase's answer with its line, and the counts.
struct BatchReport: Encodable {
    struct Line: Encodable {
        var line: Int
        var phrase: String
        var answer: Answer.JSONObject
    }

    var done = 0
    var failed = 0
    var notRun = 0
    var rolledBack = false
    var answers: [Line] = []
}
