import Foundation
import IntentModel
import ModelStore

extension Executor {
    /// Records the intent's activity (`activity:`), in the intent's own transaction.
    func recordActivity(
        of intent: IntentGraph.Intent, parameters: [String: Datum], scope: Evaluator.Scope, _ evaluator: Evaluator
    ) throws(RuntimeError) {
        guard let activity = intent.activity else { return }
        let title =
            try activity.title.map { template throws(RuntimeError) in try evaluator.render(template, in: scope) }
            ?? intent.title
        var json: [String: JSONValue] = [:]
        for (name, value) in parameters where !value.isNull { json[name] = evaluator.json(value) }
        let link =
            opens.first
            ?? intent.parameters.lazy.compactMap { parameter -> String? in
                guard case .entity(let record)? = parameters[parameter.name] else { return nil }
                return graph.canonicalLink(for: record.entity, id: record.id)
            }.first
        do {
            try store.recordActivity(
                type: activity.type, intent: intent.name, title: title, parameters: json,
                eligible: activity.eligible, keywords: activity.keywords, link: link, at: clock.now,
                expires: clock.now.addingTimeInterval(TimeInterval(activity.expiry)))
        } catch {
            throw .store("could not record the activity: \(error)")
        }
    }
}
