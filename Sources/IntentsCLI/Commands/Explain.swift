import ArgumentParser
import IntentEngine
import IntentLanguage
import IntentModel
import IntentProject
import IntentRuntime
import PhraseMatching

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Show how a sentence is matched: tokens, candidates, slots, scores.",
        discussion: """
            Candidates are ranked by their score parts in order: unresolved (entity slots naming no known \
            entity), unknown (words passed over), missing (small words left out), literal, edits, typed, \
            free, corrections, app, skipped.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(
        name: .customLong("store"),
        help: ArgumentHelp("Look entity names up in this store (read only), as say would.", valueName: "path"))
    var storePath: String?

    @Flag(help: "Print the explanation as one JSON object.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Also say whether, in this conversation (say --conversation ID), the sentence is a follow-up of the last request.",
            valueName: "id"))
    var conversation: String?

    @Option(help: "Only phrases of this language (en, de, …).")
    var lang: String?

    @Option(help: "How many candidates to show.")
    var top = 3

    @Argument(help: "The sentence, as a person would type it.")
    var sentence: [String]

    func validate() throws {
        guard (1...1_000).contains(top) else { throw ValidationError("--top must be from 1 to 1000, not \(top)") }
    }

    func run() throws {
        let (project, graph) = try global.loadGraph()
        try GlobalOptions.checkLanguage(lang, in: graph)
        var names: (any EntityNameLookup)?
        if let storePath {
            var options = StoreOptions()
            options.storePath = storePath
            let store = try options.openForReading(graph, clock: project.clock)
            do {
                names = try Session(graph: graph, store: store, index: project.index).names
            } catch {
                Terminal.standardError("error: \(error)\n")
                throw ExitCode(1)
            }
        }
        guard let matcher = project.matcher(entities: names) else { throw ExitCode(1) }
        let text = sentence.joined(separator: " ")
        let recognition = matcher.recognize(text, language: lang)
        let guess = learnedGuess(text, recognition, project: project, matcher: matcher)
        let revision = taggerRevision(recognition, project: project, matcher: matcher)
        if json {
            var report = ExplainReport(recognition, top: top)
            if guess != nil {
                report.stage = "learned"
            } else if case .noMatch = recognition.outcome {
                report.stage = "none"
            }
            report.learned = guess.map(ExplainReport.Learned.init)
            report.tagger =
                revision.map { ExplainReport.Tagger($0.reading, revision: $0) }
                ?? guess?.tagging.map { ExplainReport.Tagger($0) }
            try JSONEnvelope.write(report)
        } else {
            print(ExplainRenderer.render(recognition, top: top), terminator: "")
            print(ExplainRenderer.render(guess, recognition), terminator: "")
            print(ExplainRenderer.render(tagging: guess?.tagging, tokens: recognition.tokens), terminator: "")
            print(ExplainRenderer.render(revision, tokens: recognition.tokens), terminator: "")
            if let conversation {
                var options = StoreOptions()
                options.storePath = storePath
                let engine = try options.engine(global)
                let request = EngineRequest(conversation: ConversationID(conversation), language: lang)
                let sentence = sentence.joined(separator: " ")
                print(
                    engine.explainFollowUp(sentence, request).map { "in conversation \(conversation): \($0)" }
                        ?? "in conversation \(conversation): not a follow-up")
            }
        }
    }
}

enum ExplainRenderer {
    static func render(_ recognition: Recognition, top: Int) -> String {
        var out = "tokens: " + recognition.tokens.map(\.text).joined(separator: " | ") + "\n"
        switch recognition.outcome {
        case .match(let candidate): out += "result: \(candidate.intent)\n"
        case .ambiguous(let candidates):
            out += "result: ambiguous between \(candidates.map(\.intent.description).joined(separator: " and "))\n"
        case .noMatch(let suggestions):
            out += "result: no match\n"
            if !suggestions.isEmpty {
                out += "Did you mean: " + suggestions.map { "'\($0)'" }.joined(separator: ", ") + "?\n"
            }
        }
        for (rank, candidate) in recognition.candidates.prefix(top).enumerated() {
            out += "\n#\(rank + 1) \(candidate.intent)  [\(candidate.language)] \(candidate.template)\n"
            for slot in candidate.slots {
                let words = recognition.tokens[slot.span].map(\.raw).joined(separator: " ")
                out +=
                    "   \(slot.name) = \(slot.value)  ← \"\(words)\" (tokens \(slot.span.lowerBound)–\(slot.span.upperBound - 1), \(kind(of: slot, in: candidate)))\n"
            }
            for (name, value) in candidate.phraseValues.sorted(by: { $0.key < $1.key }) {
                out += "   \(name) = \(value)  ← set by the phrase\n"
            }
            if let app = candidate.namedApp { out += "   app named: \(app)\n" }
            out += "   score: \(candidate.score)\n"
            if rank > 0, let part = candidate.score.decidingPart(against: recognition.candidates[0].score) {
                out += "   lost to #1 on '\(part)'\n"
            }
        }
        return out
    }

    /// How a slot took its words; an entity slot naming nothing the store knows says so, as it is
    /// why the reading ranks last.
    static func kind(of slot: Candidate.Slot, in candidate: Candidate) -> String {
        if slot.typed { return "typed" }
        if slot.unknownName, candidate.score.unresolved > 0 { return "free text, resolves to no entity: would ask" }
        return "free text"
    }
}
