import Foundation
import IntentEngine
import IntentModel
import IntentRendering
import IntentRuntime
import ModelStore

/// The prompt's proactive side: `:search` / `? TEXT`, suggestions at start and after an intent
/// completes (accepted by number), and Siri tips at start, after the long way and after a near miss.
final class ReplPresence {
    let session: Session
    let language: String?
    private let engine: SearchEngine
    private let model: SuggestionModel
    private let tips: TipBoard
    /// Numbered things the next bare number picks.
    private enum Choices {
        case hits([SearchHit])
        case suggestions([Suggestion])
    }
    private var choices: Choices?
    /// Questions answered since the last intent started; whether it was reached through search.
    private var questions = 0
    private var throughSearch = false
    /// The tip shown last, for `:dismiss`.
    private var lastTip: IntentGraph.Tip?
    /// The suggestions shown on their own last time: not repeated until they change.
    private var lastShown: [String] = []

    /// Suggestions appear on their own only when this sure (softmax share) and seen this often.
    static let threshold = 0.4
    static let minimumDonations = 3

    static let commands = [":search ", ":suggest", ":tips", ":dismiss"]
    static let help = """
          :search TEXT      find entities and actions (also: ? TEXT); a number opens a hit
          :suggest          what you may want to do now; a number runs one
          :tips off|on      turn Siri tips off or on; :dismiss hides the last tip for good
        """

    init(session: Session, language: String?) {
        self.session = session
        self.language = language
        engine = SearchEngine(graph: session.graph)
        model = SuggestionModel(graph: session.graph)
        tips = TipBoard(graph: session.graph)
    }

    /// What the prompt shows as it starts: a start tip and the suggestions that clear the threshold.
    func atStart() -> String? {
        var lines: [String] = []
        if let tip = take(.start) { lines.append("Tip: \(tip.text)") }
        if let shown = suggestions(forced: false) { lines.append(shown) }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    /// Handles a line that belongs to search, suggestions or tips; nil when it is not one.
    func handle(_ line: String, waiting: Bool, engine: IntentEngine, request: EngineRequest) -> String? {
        if !waiting, let number = Int(line), let choices {
            self.choices = nil
            switch choices {
            case .hits(let hits) where hits.indices.contains(number - 1):
                return open(hits[number - 1], engine: engine, request: request)
            case .suggestions(let suggestions) where suggestions.indices.contains(number - 1):
                questions = 0
                throughSearch = false
                let answer = engine.accept(suggestions[number - 1], request)
                return answer.text + (after(answer).map { "\n" + $0 } ?? "")
            default:
                return nil
            }
        }
        let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
        let argument = parts.count > 1 ? parts[1].trimmed : ""
        switch parts.first {
        case "?" where !argument.isEmpty, ":search":
            guard !argument.isEmpty else { return "Usage: :search TEXT (or ? TEXT)" }
            return search(argument)
        case ":suggest":
            return suggestions(forced: true)
                ?? "No suggestions yet: intents that declare donate: are learned from as they run."
        case ":tips":
            guard argument == "off" || argument == "on" else { return "Usage: :tips off|on" }
            do {
                try session.store.write { try $0.setTipsOff(argument == "off") }
            } catch { return "error: \(error)" }
            return argument == "off" ? "Tips are off." : "Tips are on."
        case ":dismiss":
            guard let tip = lastTip else { return "There is no tip to dismiss." }
            do { try session.store.write { try $0.dismissTip(tip.key) } } catch { return "error: \(error)" }
            lastTip = nil
            return "This tip will not be shown again."
        default:
            return nil
        }
    }

    /// After an answer: counts questions; when an intent completed, a tip for the long way and the
    /// suggestions that clear the threshold; after a near miss, a tip for the intent it came close to.
    func after(_ answer: Answer) -> String? {
        if answer.isQuestion {
            questions += 1
            return nil
        }
        var lines: [String] = []
        if answer.status == .done, let intent = answer.intent {
            if questions >= 3 || throughSearch, let tip = take(.afterLongWay, intent: intent) {
                lines.append(tip.language == "de" ? "Nächstes Mal: \(tip.text)." : "Next time, say “\(tip.phrase)”.")
            }
            if let shown = suggestions(forced: false, after: intent) { lines.append(shown) }
        } else if answer.status == .noMatch, let intent = nearMiss(answer.suggestions),
            let tip = take(.afterNearMiss, intent: intent)
        {
            lines.append("Tip: \(tip.text)")
        }
        questions = 0
        throughSearch = false
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    private func search(_ text: String) -> String {
        do {
            let result = try engine.search(text, store: session.store, now: session.clock.now, limit: 9)
            choices = result.hits.isEmpty ? nil : .hits(result.hits)
            return SearchRenderer.render(result, explain: false).trimmingCharacters(in: .newlines)
                + (result.hits.isEmpty ? "" : "\nType a number to open it.")
        } catch {
            return "error: \(error)"
        }
    }

    private func open(_ hit: SearchHit, engine: IntentEngine, request: EngineRequest) -> String {
        if let name = hit.intent, let intent = session.graph.intent(name) {
            questions = 0
            throughSearch = true
            let answer = engine.perform(intent, arguments: [:], request)
            if answer.isQuestion { return answer.text }
            return answer.text + (after(answer).map { "\n" + $0 } ?? "")
        }
        do {
            return try SearchRenderer.details(of: hit, graph: session.graph, store: session.store)
                .trimmingCharacters(in: .newlines)
        } catch {
            return "error: \(error)"
        }
    }

    /// The suggestions to show: all (`:suggest`), or those that clear the threshold, are not the
    /// intent that just ran, and were not shown just before. A store that cannot be read is said.
    private func suggestions(forced: Bool, after intent: QualifiedName? = nil) -> String? {
        let found: [Suggestion]
        let counts: [String: [String: Int]]
        do {
            found = try model.suggest(store: session.store, now: session.clock.now, limit: 3)
            guard !found.isEmpty else { return nil }
            counts =
                forced
                ? [:]
                : try session.store.read {
                    try $0.suggestionCounts(intents: model.candidates, now: session.clock.now)
                }
        } catch {
            return "error: the suggestions cannot be read from the store: \(error)"
        }
        let shown: [Suggestion]
        if forced {
            shown = found
        } else {
            shown = found.filter {
                $0.confidence >= Self.threshold && (counts[$0.intent.description]?["n"] ?? 0) >= Self.minimumDonations
                    && $0.intent != intent
            }
            if shown.map(\.text) == lastShown { return nil }
            lastShown = shown.map(\.text)
        }
        guard !shown.isEmpty else { return nil }
        choices = .suggestions(shown)
        let items = shown.enumerated().map { "  \($0.offset + 1). \($0.element.text)" }
        return (["Suggestions (type a number to run one):"] + items).joined(separator: "\n")
    }

    private func take(_ placement: IntentGraph.TipPlacement, intent: QualifiedName? = nil) -> IntentGraph.Tip? {
        let taken: IntentGraph.Tip?
        do {
            taken = try tips.take(placement, intent: intent, language: language, store: session.store)
        } catch {
            Terminal.standardError("error: the tips cannot be read from the store: \(error)\n")
            return nil
        }
        guard let tip = taken else { return nil }
        lastTip = tip
        return tip
    }

    /// The intent whose phrase a no-match answer offered first.
    private func nearMiss(_ suggestions: [String]) -> QualifiedName? {
        let index = session.index
        return suggestions.lazy.compactMap { index.intent(suggested: $0) }.first
    }
}
