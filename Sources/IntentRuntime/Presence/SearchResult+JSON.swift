public import IntentModel

extension SearchResult {
    /// The result as the server and `search --json` give it: `{query, hits: [{app, type, title,
    /// subtitle, glyph, id|intent, link, score, matches}]}`; `link` is an entity's canonical deep
    /// link, when its app routes one.
    public func json(graph: IntentGraph) -> JSONValue {
        .object([
            "query": .string(query),
            "hits": .array(
                hits.map { hit in
                    var fields: [String: JSONValue] = [
                        "kind": .string(hit.kind.rawValue), "app": .string(hit.app), "type": .string(hit.type),
                        "title": .string(hit.title), "subtitle": .string(hit.subtitle), "glyph": .string(hit.glyph),
                        "score": .object([
                            "typos": .integer(hit.score.typos), "partial": .integer(hit.score.partial),
                            "inTitle": .integer(hit.score.inTitle), "bm25": .number(hit.score.bm25),
                        ]),
                        "matches": .array(
                            hit.matches.map {
                                .object([
                                    "query": .string($0.query), "word": .string($0.word),
                                    "kind": .string($0.kind.description), "field": .string($0.field.rawValue),
                                ])
                            }),
                    ]
                    if let record = hit.record {
                        fields["id"] = .string(record)
                        let entity = QualifiedName(app: hit.app, name: hit.type)
                        if let link = graph.canonicalLink(for: entity, id: record) { fields["link"] = .string(link) }
                    }
                    if let intent = hit.intent { fields["intent"] = .string(intent.description) }
                    return .object(fields)
                }),
        ])
    }
}
