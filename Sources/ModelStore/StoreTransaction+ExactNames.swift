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
        let phrase = "\"" + words.joined(separator: " ") + "\""
        let rows = try Row.fetchAll(
            db, sql: "SELECT record, name FROM _names WHERE _names MATCH ? AND entity = ? LIMIT ?",
            arguments: ["name: " + phrase, entity.description, limit])
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
