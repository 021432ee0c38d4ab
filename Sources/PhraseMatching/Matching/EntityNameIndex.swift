import IntentLanguage

/// Entity names held in memory for matching, by entity type: exact look-ups by folded name, and
/// typo-tolerant ones through the names' words. The store fills one from its `matchBy` columns.
public struct EntityNameIndex: EntityNameLookup, Sendable {
    private struct Names: Sendable {
        var names: [String] = []
        /// Folded forms, position for position with `names`.
        var folded: [String] = []
        /// Folded name → position in `names`.
        var exact: [String: Int] = [:]
        /// Folded word → names containing it.
        var byWord: [String: [Int32]] = [:]
        /// How many records carry each folded name: a name leaves the index with its last record.
        var holders: [String: Int] = [:]
    }

    private var types: [QualifiedName: Names] = [:]

    public init() {}

    /// Adds the names of `entity` (its `matchBy` values).
    public mutating func add(_ names: some Sequence<String>, for entity: QualifiedName) {
        var table = types[entity] ?? Names()
        for name in names {
            let words = Normalizer.tokens(name).map(\.text)
            let key = words.joined(separator: " ")
            guard !key.isEmpty else { continue }
            table.holders[key, default: 0] += 1
            guard table.exact[key] == nil else { continue }
            let index = table.names.count
            table.names.append(name)
            table.folded.append(key)
            table.exact[key] = index
            for word in Set(words) { table.byWord[word, default: []].append(Int32(index)) }
        }
        types[entity] = table
    }

    /// Removes one holder of each name (a record deleted or renamed).
    public mutating func remove(_ names: some Sequence<String>, for entity: QualifiedName) {
        guard var table = types[entity] else { return }
        for name in names {
            let key = Normalizer.tokens(name).map(\.text).joined(separator: " ")
            guard let holders = table.holders[key] else { continue }
            if holders > 1 {
                table.holders[key] = holders - 1
            } else {
                table.holders[key] = nil
                table.exact[key] = nil
            }
        }
        types[entity] = table
    }

    public var count: Int { types.values.reduce(0) { $0 + $1.exact.count } }

    /// Names `text` (already folded words joined by spaces) could mean: the exact one, else those
    /// within a typo's reach (one edit per five letters, at most three).
    public func lookup(_ text: String, entity: QualifiedName) -> [(name: String, distance: Int)] {
        guard let table = types[entity] else { return [] }
        if let index = table.exact[text] { return [(table.names[index], 0)] }
        guard text.count >= 4 else { return [] }
        let allowance = min(3, text.count / 5 + 1)
        // Candidates share the rarest of the text's words that the index knows.
        let lists = text.split(separator: " ").compactMap { table.byWord[String($0)] }
        guard let candidates = lists.min(by: { $0.count < $1.count }), candidates.count <= 2_000 else { return [] }
        var hits: [(name: String, distance: Int)] = []
        for index in candidates {
            let folded = table.folded[Int(index)]
            guard table.exact[folded] == Int(index) else { continue }
            guard abs(folded.count - text.count) <= allowance else { continue }
            let distance = EditDistance.between(folded, text)
            if distance <= allowance { hits.append((table.names[Int(index)], distance)) }
        }
        return hits.sorted { $0.distance < $1.distance }
    }
}
