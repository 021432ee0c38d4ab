import Foundation
public import IntentModel
public import IntentRuntime
public import ModelStore

/// Search hits as the terminal shows them, and opened (an entity's details, an action's phrases).
public enum SearchRenderer {
    /// Numbered hits: glyph, title, app and type, the subtitle; with `explain` why each matched and its score.
    public static func render(_ result: SearchResult, explain: Bool) -> String {
        guard !result.hits.isEmpty else {
            return "Nothing found for “\(result.query.trimmed)”.\n"
        }
        var lines: [String] = []
        if explain {
            let words = result.words.map { word -> String in
                var forms = ["\(word.text)*"]
                if let stem = word.stem { forms.append("\(stem)*") }
                forms += word.corrections
                return word.text + " → " + forms.joined(separator: " | ")
            }
            lines.append("query: " + words.joined(separator: "; "))
        }
        for (index, hit) in result.hits.enumerated() {
            lines.append("\(String(index + 1).leftPadded(2)). \(hit.glyph) \(hit.title) — \(hit.app) · \(hit.type)")
            if !hit.subtitle.isEmpty { lines.append("      \(hit.subtitle)") }
            if explain {
                lines.append("      why: \(hit.why)")
                var score = "      score: \(hit.score)" + (hit.pending ? " (no idf yet)" : "")
                if index + 1 < result.hits.count {
                    let next = result.hits[index + 1].score
                    if let part = hit.score.decidingPart(against: next) {
                        score += " — above #\(index + 2) by \(part)"
                    } else {
                        score +=
                            " — ties #\(index + 2)"
                            + (hit.kind != result.hits[index + 1].kind ? " (actions first)" : " (by title)")
                    }
                }
                lines.append(score)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What opening a hit shows: an entity's properties, or an action's description and what to say.
    public static func details(of hit: SearchHit, graph: IntentGraph, store: Store) throws -> String {
        if hit.kind == .activity {
            var lines = ["\(hit.glyph) \(hit.title) — \(hit.app) · Activity", "  \(hit.subtitle)"]
            if let intent = hit.intent.flatMap(graph.intent) { lines.append("  intent: \(intent.title)") }
            lines.append("  carry it on: intents continue")
            return lines.joined(separator: "\n") + "\n"
        }
        if let name = hit.intent, let intent = graph.intent(name), let app = graph.app(named: name.app) {
            var lines = ["\(hit.glyph) \(intent.title) — \(app.name) · Action"]
            if let description = intent.description { lines.append(description) }
            let shortcut = app.shortcuts.first { $0.intent == name }
            let phrases = (shortcut?.phrases ?? []) + intent.phrases.prefix(2)
            for phrase in phrases {
                lines.append("  say “\(IntentGraph.speak(phrase.template, appName: app.name, rules: app.rules))”")
            }
            return lines.joined(separator: "\n") + "\n"
        }
        guard let id = hit.record,
            let entity = graph.entities.first(where: { $0.name.name == hit.type && $0.name.app == hit.app })
        else { return "\(hit.title)\n" }
        let clock = store.clock.frozen()
        return try store.read { transaction in
            guard let record = try transaction.record(entity.name, id: id) else {
                return "\(hit.title) is no longer in the store.\n"
            }
            let evaluator = Evaluator(graph: graph, clock: clock, app: entity.name.app, store: transaction)
            var lines = [
                "\(hit.glyph) \(evaluator.describe(.entity(record))) — \(entity.name.app) · \(entity.name.name)"
            ]
            for property in entity.properties where !property.isBuiltin {
                let value = try evaluator.member(.entity(record), property.name)
                guard !value.isNull, value != .list([]) else { continue }
                lines.append("  \(property.name): \(evaluator.describe(value))")
            }
            lines.append("  created: \(evaluator.describe(.date(record.createdAt)))")
            lines.append("  updated: \(evaluator.describe(.date(record.updatedAt)))")
            lines.append("  id: \(record.id)")
            if let link = graph.canonicalLink(for: entity.name, id: record.id) { lines.append("  link: \(link)") }
            return lines.joined(separator: "\n") + "\n"
        }
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
