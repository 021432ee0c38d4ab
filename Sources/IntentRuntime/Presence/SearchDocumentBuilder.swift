import Foundation
public import IntentModel
public import ModelStore

/// Renders records into search documents from their entity's `searchable:` declaration, with the
/// evaluator: the store calls it inside the transaction that writes each record.
public struct SearchDocumentBuilder: SearchIndexing {
    let graph: IntentGraph
    let clock: Clock
    public let signature: String

    public init(graph: IntentGraph, clock: Clock) {
        self.graph = graph
        self.clock = clock
        // Version 1 of the document layout, then each searchable entity's declaration.
        signature =
            (["search-v1"]
            + graph.entities.compactMap { entity in
                entity.searchable.map { "\(entity.name)=\($0.signature)" }
            }).joined(separator: "\n")
    }

    public func isSearchable(_ entity: QualifiedName) -> Bool {
        graph.entity(entity)?.searchable != nil
    }

    public func document(for record: Record, in transaction: StoreTransaction) throws -> SearchDocument? {
        guard let entity = graph.entity(record.entity), let searchable = entity.searchable else { return nil }
        let evaluator = Evaluator(graph: graph, clock: clock, app: entity.name.app, store: transaction)
        let scope = try evaluator.scope(of: record, over: [:])
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
        let subtitle = try entity.displaySubtitle.map { try evaluator.render($0, in: scope) } ?? description
        return SearchDocument(
            title: title, subtitle: subtitle, description: description, keywords: keywords,
            expires: searchable.expires.map { record.updatedAt.addingTimeInterval(TimeInterval($0)) })
    }
}
