public import IntentModel
public import ModelStore
import PhraseMatching

extension Listing {
    /// The records of `entity` that `text` names (its id; else exactly its name; else the names that
    /// contain its words), with their display titles and canonical links.
    public static func links(
        of entity: IntentGraph.Entity, named text: String, graph: IntentGraph, store: Store
    ) throws -> [(title: String, link: String?)] {
        let clock = store.clock.frozen()
        return try store.read { transaction in
            let evaluator = Evaluator(graph: graph, clock: clock, app: entity.name.app, store: transaction)
            var records: [Record] = []
            if let record = try transaction.record(entity.name, id: text) {
                records = [record]
            } else {
                let hits = try transaction.search(entity.name, text: text, limit: 20)
                let folded = Normalizer.foldedWords(text)
                let exact = hits.filter { Normalizer.foldedWords($0.name) == folded }.map(\.record)
                records = exact.isEmpty ? hits.map(\.record) : exact
            }
            return records.map { record in
                (evaluator.describe(.entity(record)), graph.canonicalLink(for: entity.name, id: record.id))
            }
        }
    }
}

extension Listing.Item {
    /// The item as `store list --links` shows it: the line followed by the link, `link` in the JSON.
    public var showingLink: Listing.Item {
        guard let link else { return self }
        var json = self.json
        json["link"] = .string(link)
        return Listing.Item(line: line + "  → " + link, json: json, link: link)
    }
}
