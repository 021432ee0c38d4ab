import Foundation
public import IntentModel
public import ModelStore

/// Records as `intents store list` shows them: a line each, or JSON.
public enum Listing {
    public struct Item {
        /// `buy milk — urgency: Urgent, isCompleted: no (id 3f2a1b2c)`.
        public let line: String
        /// The record as exported, with its display title.
        public let json: [String: JSONValue]
        /// The record's canonical link, when its entity has one (`radar://open/<id>`).
        public var link: String? = nil
    }

    public static func records(
        of entity: IntentGraph.Entity, where filter: IntentModel.Expression?, graph: IntentGraph, store: Store
    ) throws -> [Item] {
        let clock = store.clock.frozen()
        return try store.read { transaction in
            let evaluator = Evaluator(graph: graph, clock: clock, app: entity.name.app, store: transaction)
            let createdAt = IntentGraph.BuiltinProperty.createdAt.rawValue
            let oldestFirst = IntentGraph.SortKey(property: createdAt, descending: false)
            let query = IntentGraph.Query(entity: entity.name, filter: filter, sort: [oldestFirst], limit: nil)
            let records = try evaluator.query(query, in: [:])
            return try records.map { record in
                let title = evaluator.describe(.entity(record))
                let properties = try entity.properties.filter { !$0.isBuiltin }.compactMap { property -> String? in
                    let value = try evaluator.member(.entity(record), property.name)
                    guard !value.isNull, value != .list([]),
                        !(entity.matchBy.contains(property.name) && evaluator.describe(value) == title)
                    else { return nil }
                    return "\(property.name): \(evaluator.describe(value))"
                }
                var json = try transaction.json(record)
                json["title"] = .string(title)
                let line =
                    "\(title)" + (properties.isEmpty ? "" : " — " + properties.joined(separator: ", "))
                    + " (id \(record.id.prefix(8)))"
                return Item(line: line, json: json, link: graph.canonicalLink(for: entity.name, id: record.id))
            }
        }
    }
}
