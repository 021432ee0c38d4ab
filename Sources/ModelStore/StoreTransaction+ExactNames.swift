import GRDB
public import IntentModel

extension StoreTransaction {
    /// Records of `entity` one of whose `matchBy` names has exactly the words of `text`, in order
    /// (an FTS phrase query, not ranked prefixes), kept when `same` accepts the name as written.
    /// With 100,000 tasks the ranked search's first 20 may miss the one named exactly so.
    public func exactNameMatches(
        _ entity: QualifiedName, text: String, limit: Int = 50, same: (String) -> Bool
    ) throws -> [(record: Record, name: String)] {
        let words = text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        guard !words.isEmpty else { return [] }
        let rows: [SQLRow]
        if db.isPostgres {
            guard let phrase = PostgresText.phraseQuery(text) else { return [] }
            rows = try db.fetchAll(
                sql:
                    "SELECT record, name FROM _names WHERE words @@ to_tsquery('simple', ?) AND entity = ? ORDER BY id LIMIT ?",
                arguments: [phrase, entity.description, limit])
        } else {
            let phrase = "\"" + words.joined(separator: " ") + "\""
            rows = try db.fetchAll(
                sql: "SELECT record, name FROM _names WHERE _names MATCH ? AND entity = ? LIMIT ?",
                arguments: ["name: " + phrase, entity.description, limit])
        }
        var seen: Set<String> = []
        var results: [(Record, String)] = []
        for row in rows {
            let id: String = row["record"]
            let name: String = row["name"]
            guard same(name), seen.insert(id).inserted, let record = try record(entity, id: id) else { continue }
            results.append((record, name))
        }
        return results
    }
}

extension StoreTransaction {
    /// Up to `limit` names of `entity` that may begin with `prefix` (whole words, then the start of
    /// one), through the full-text index: for completing a name as it is typed, without reading
    /// every name. The caller checks each against what was typed.
    public func names(of entity: QualifiedName, beginningWith prefix: String, limit: Int) throws -> [String] {
        let words = prefix.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        guard !words.isEmpty else {
            return try db.fetchValues(
                String.self, sql: "SELECT name FROM _names WHERE entity = ? LIMIT ?",
                arguments: [entity.description, limit])
        }
        let open = prefix.last.map { $0.isLetter || $0.isNumber } ?? false
        if db.isPostgres {
            guard let query = PostgresText.phraseQuery(prefix, lastIsPrefix: open) else { return [] }
            return try db.fetchValues(
                String.self,
                sql:
                    "SELECT name FROM _names WHERE words @@ to_tsquery('simple', ?) AND entity = ? ORDER BY id LIMIT ?",
                arguments: [query, entity.description, limit])
        }
        let query = "name: ^ \"" + words.joined(separator: " ") + "\"" + (open ? " *" : "")
        return try db.fetchValues(
            String.self, sql: "SELECT name FROM _names WHERE _names MATCH ? AND entity = ? LIMIT ?",
            arguments: [query, entity.description, limit])
    }
}
