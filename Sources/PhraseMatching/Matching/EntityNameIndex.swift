import IntentModel

/// Entity names held in memory for matching, by entity type: exact look-ups by folded name, and
/// typo-tolerant ones through the names' words. The store fills one from its `matchBy` columns.
public struct EntityNameIndex: EntityNameLookup, Sendable {
    private struct Names: Sendable {
        var names: [String] = []
        /// Folded forms, position for position with `names`.
        var folded: [String] = []
        /// Which characters each folded form holds (`EntityNameIndex.mask`), position for position.
        var masks: [UInt64] = []
        /// Each folded form's length in characters, position for position: a one-word typo is
        /// compared only with names about as long, without counting every name's characters.
        var lengths: [Int32] = []
        /// Positions by folded length, in order: a one-word typo is compared only with the names of
        /// about its length, not tested against every name (most names are longer than one word).
        var byLength: [Int32: [Int32]] = [:]
        /// Whether each position still holds a name (`exact[folded[i]] == i`): removed names stay in
        /// the arrays, and a typo's candidates are told apart by this instead of hashing each name.
        var live: [Bool] = []
        /// Folded name → position in `names`.
        var exact: [String: Int] = [:]
        /// Folded word → (length of the folded name → names containing the word): a typo's
        /// candidates are only the names of about the right length. One hash of the word, then the
        /// lengths near the text's, instead of a hash of the word for each length.
        var byWord: [String: [Int32: [Int32]]] = [:]
        /// How many records carry each folded name: a name leaves the index with its last record.
        var holders: [String: Int] = [:]
        /// The fewest and most characters of a folded name added (removed ones' included).
        var lengthRange: ClosedRange<Int>?

        mutating func add(_ names: some Sequence<String>) {
            for name in names {
                let words = Normalizer.tokens(name).map(\.text)
                let key = words.joined(separator: " ")
                guard !key.isEmpty else { continue }
                holders[key, default: 0] += 1
                guard exact[key] == nil else { continue }
                let index = self.names.count
                self.names.append(name)
                folded.append(key)
                masks.append(EntityNameIndex.mask(key))
                let length = Int32(key.count)
                lengths.append(length)
                lengthRange =
                    lengthRange.map { min($0.lowerBound, Int(length))...max($0.upperBound, Int(length)) }
                    ?? Int(length)...Int(length)
                byLength[length, default: []].append(Int32(index))
                live.append(true)
                exact[key] = index
                for word in Set(words) {
                    byWord[word, default: [:]][length, default: []].append(Int32(index))
                }
            }
        }

        mutating func remove(_ names: some Sequence<String>) {
            for name in names {
                let key = Normalizer.tokens(name).map(\.text).joined(separator: " ")
                guard let count = holders[key] else { continue }
                if count > 1 {
                    holders[key] = count - 1
                } else {
                    holders[key] = nil
                    if let index = exact[key] { live[index] = false }
                    exact[key] = nil
                }
            }
        }
    }

    private var types: [QualifiedName: Names] = [:]
    static let maximumCandidates = EntityNameKey.maximumCandidates

    /// One bit per letter and digit (`EntityNameKey.mask`).
    static func mask(_ text: String) -> UInt64 { EntityNameKey.mask(text) }

    public init() {}

    /// Adds the names of `entity` (its `matchBy` values).
    public mutating func add(_ names: some Sequence<String>, for entity: QualifiedName) {
        // In place: copying the table out and back would copy every name on each add.
        types[entity, default: Names()].add(names)
    }

    /// Removes one holder of each name (a record deleted or renamed).
    public mutating func remove(_ names: some Sequence<String>, for entity: QualifiedName) {
        guard types[entity] != nil else { return }
        types[entity]!.remove(names)
    }

    public var count: Int { types.values.reduce(0) { $0 + $1.exact.count } }

    /// What `lookup` needs to find a name of `entity` (`EntityNameBounds`): the names' lengths and
    /// words, removed names' included (they stay in the tables; the test only rules spans out).
    public func bounds(of entity: QualifiedName) -> EntityNameBounds? {
        guard let table = types[entity] else { return EntityNameBounds(lengths: nil) { _ in false } }
        let words = table.byWord
        return EntityNameBounds(lengths: table.lengthRange) { words[$0] != nil }
    }

    /// Names `text` (already folded words joined by spaces) could mean: the exact one, else those
    /// within a typo's reach (one edit per five letters, at most three).
    public func lookup(_ text: String, entity: QualifiedName) -> [(name: String, distance: Int)] {
        guard let table = types[entity] else { return [] }
        if let index = table.exact[text] { return [(table.names[index], 0)] }
        // Characters, counted by bytes for ASCII text (counting characters cost a tenth of a look-up).
        let length = text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) ? text.utf8.count : text.count
        guard length >= 4 else { return [] }
        let allowance = min(3, length / 5 + 1)
        // Candidates share the text's rarest known word and are about as long as it.
        var best: [[Int32]]?
        var bestCount = Int.max
        // Word by word at the space's byte: the text is folded words joined by spaces, and splitting
        // by characters (or into an array) cost more than the rest of the look-up.
        let utf8 = text.utf8
        var wordStart = utf8.startIndex
        var hasSpace = false
        while wordStart < utf8.endIndex {
            let wordEnd = utf8[wordStart...].firstIndex(of: UInt8(ascii: " ")) ?? utf8.endIndex
            defer { wordStart = wordEnd < utf8.endIndex ? utf8.index(after: wordEnd) : wordEnd }
            if wordEnd < utf8.endIndex { hasSpace = true }
            guard wordEnd > wordStart, let byLength = table.byWord[String(Substring(utf8[wordStart..<wordEnd]))] else {
                continue
            }
            var lists: [[Int32]] = []
            var count = 0
            for candidateLength in (length - allowance)...(length + allowance) {
                if let list = byLength[Int32(candidateLength)] {
                    lists.append(list)
                    count += list.count
                }
            }
            if !lists.isEmpty, count < bestCount {
                best = lists
                bestCount = count
            }
        }
        // One misspelt word shares no known word ("landry"): compare it with every name about as
        // long (a mask test first, so 100,000 names take a millisecond).
        if best == nil, !hasSpace {
            return oneWordTypos(text, table: table, allowance: allowance)
        }
        // Text whose every word is common among names this long is too vague to be a typo of one.
        guard let best, bestCount <= Self.maximumCandidates else { return [] }
        var hits: [(name: String, distance: Int)] = []
        let textMask = Self.mask(text)
        for list in best {
            for index in list {
                guard (table.masks[Int(index)] ^ textMask).nonzeroBitCount <= allowance * 2 else { continue }
                guard table.live[Int(index)] else { continue }
                if let distance = EditDistance.within(table.folded[Int(index)], text, limit: allowance) {
                    hits.append((table.names[Int(index)], distance))
                }
            }
        }
        return hits.sorted { $0.distance < $1.distance }
    }

    private func oneWordTypos(_ text: String, table: Names, allowance: Int) -> [(name: String, distance: Int)] {
        let textMask = Self.mask(text)
        let length = text.count
        var hits: [(name: String, distance: Int)] = []
        // The names of each length near the text's, in the order they were added (as a scan of all
        // names meets them: hits of equal distance keep that order).
        var near: [Int32] = []
        var buckets = 0
        for candidateLength in (length - allowance)...(length + allowance) {
            guard let list = table.byLength[Int32(candidateLength)] else { continue }
            near += list
            buckets += 1
        }
        if buckets > 1 { near.sort() }
        for position in near {
            let index = Int(position)
            guard abs(Int(table.lengths[index]) - length) <= allowance,
                (table.masks[index] ^ textMask).nonzeroBitCount <= allowance * 2
            else { continue }
            guard table.live[index],
                let distance = EditDistance.within(table.folded[index], text, limit: allowance)
            else { continue }
            hits.append((table.names[index], distance))
        }
        return hits.sorted { $0.distance < $1.distance }.prefix(Self.maximumCandidates).map { $0 }
    }
}
