import Foundation
public import IntentModel
public import ModelStore

/// Renders records into search documents from their entity's `searchable:` declaration, with the
/// evaluator: the store calls it inside the transaction that writes each record.
///
/// It runs on every write of a searchable record, so each entity's plan is worked out once: the
/// names its templates and filter read, and their types; a record's scope holds only those.
public struct SearchDocumentBuilder: SearchIndexing {
    let graph: IntentGraph
    let clock: Clock
    public let signature: String
    private let plans: [QualifiedName: Plan]

    struct Plan: Sendable {
        let entity: IntentGraph.Entity
        let searchable: IntentGraph.Searchable
        /// Properties the templates and the filter read, with their types.
        let names: [(name: String, type: ValueType, isEntity: Bool)]
    }

    public init(graph: IntentGraph, clock: Clock) {
        self.graph = graph
        self.clock = clock
        // Version 2 of the document layout, then each searchable entity's declaration.
        signature =
            (["search-v2"]
            + graph.entities.compactMap { entity in
                entity.searchable.map { "\(entity.name)=\($0.signature)" }
            }).joined(separator: "\n")
        var plans: [QualifiedName: Plan] = [:]
        for entity in graph.entities {
            guard let searchable = entity.searchable else { continue }
            let templates = [searchable.title, searchable.description, searchable.keywords, entity.displaySubtitle]
            let expressions = templates.compactMap { $0 }.flatMap(\.expressions) + [searchable.filter].compactMap { $0 }
            var seen: Set<String> = []
            var names: [(String, ValueType, Bool)] = []
            for name in expressions.flatMap(\.names) where seen.insert(name).inserted {
                let type = entity.property(name)?.type ?? IntentGraph.BuiltinProperty(rawValue: name)?.type
                guard let type else { continue }
                names.append((name, type, (type.element ?? type).entityName != nil))
            }
            plans[entity.name] = Plan(entity: entity, searchable: searchable, names: names)
        }
        self.plans = plans
    }

    public func isSearchable(_ entity: QualifiedName) -> Bool {
        plans[entity] != nil
    }

    public func document(for record: Record, in transaction: StoreTransaction) throws -> SearchDocument? {
        guard let plan = plans[record.entity] else { return nil }
        let evaluator = Evaluator(graph: graph, clock: clock, app: plan.entity.name.app, store: transaction)
        var scope: Evaluator.Scope = [:]
        for (name, type, isEntity) in plan.names {
            if isEntity {
                scope[name] = try evaluator.member(.entity(record), name)
            } else {
                scope[name] = record[name].map { evaluator.values.datum($0, as: type) } ?? .null
            }
        }
        let searchable = plan.searchable
        if let filter = searchable.filter, !(try evaluator.evaluate(filter, in: scope)).truthy { return nil }
        let title = try evaluator.render(searchable.title, in: scope)
        let description = try searchable.description.map { try evaluator.render($0, in: scope) } ?? ""
        var keywords: [String] = []
        if let template = searchable.keywords {
            switch try evaluator.value(of: template, in: scope) {
            case .list(let items): keywords = items.map(evaluator.describe).filter { !$0.isEmpty }
            case .null: break
            case let datum: keywords = [evaluator.describe(datum)].filter { !$0.isEmpty }
            }
        }
        let subtitle = try plan.entity.displaySubtitle.map { try evaluator.render($0, in: scope) } ?? description
        return SearchDocument(
            title: title, subtitle: subtitle, description: description, keywords: keywords,
            expires: searchable.expires.map { record.updatedAt.addingTimeInterval(TimeInterval($0)) })
    }
}
