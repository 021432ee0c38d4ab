import Foundation

/// A parsed phrase template: words, `(a|b)`, `[optional]`, `{slot}`, `{app}`, `<rule>`.
public struct PhraseTemplate: Sendable, Hashable {
    /// Not `indirect`: the nested cases hold arrays, which are references already, and an indirect
    /// enum boxed every word on the heap.
    public enum Item: Sendable, Hashable {
        case word(String)
        /// A parameter slot; `offset` is where its name starts in the source.
        case slot(String, offset: Int)
        /// The app's name or one of its synonyms.
        case app
        /// A reusable fragment from the app's `rules:`.
        case rule(String, offset: Int)
        case alternatives([[Item]])
        case optional([[Item]])
    }

    public var items: [Item]
    public var source: String

    public init(items: [Item], source: String) {
        self.items = items
        self.source = source
    }

    /// Every slot with its offset, in order of appearance.
    public var slots: [(name: String, offset: Int)] {
        Self.slots(in: items)
    }

    public var rules: [(name: String, offset: Int)] {
        Self.rules(in: items)
    }

    package static func slots(in items: [Item]) -> [(name: String, offset: Int)] {
        var found: [(name: String, offset: Int)] = []
        collect(items, rules: false, into: &found)
        return found
    }

    package static func rules(in items: [Item]) -> [(name: String, offset: Int)] {
        var found: [(name: String, offset: Int)] = []
        collect(items, rules: true, into: &found)
        return found
    }

    /// Slots (or rules) in order of appearance, into one array: a `flatMap` per level made an array
    /// per item.
    private static func collect(_ items: [Item], rules: Bool, into found: inout [(name: String, offset: Int)]) {
        for item in items {
            switch item {
            case .slot(let name, let offset) where !rules: found.append((name, offset))
            case .rule(let name, let offset) where rules: found.append((name, offset))
            case .alternatives(let branches), .optional(let branches):
                for branch in branches { collect(branch, rules: rules, into: &found) }
            default: break
            }
        }
    }

    /// One element of an expanded sentence.
    public enum Piece: Sendable, Hashable {
        case word(String)
        case slot(String)
        case app
    }

    /// The sentence to show a person for this template, the one they would say: each `(a|b)` its
    /// first branch, rules substituted, and each `[optional]` of words taken where something the
    /// template requires stands on both sides of it. "(start|begin) [a] focus block [for] {minutes}
    /// minutes [on|for] {title}" is "start a focus block for {minutes} minutes on {title}", not the
    /// shortest sentence "start focus block {minutes} minutes {title}", which no one says; "[please]
    /// add {title} [please]" is "add {title}". An optional that holds a slot is taken when each of
    /// its slots is in `keeping` (values a sentence said), else left out. Nil for a rule that is
    /// missing or nested past the depth `expansions` reads.
    public func sayableSentence(rules: [String: PhraseTemplate], keeping: Set<String> = []) -> [Piece]? {
        var pieces: [(piece: Piece, optional: Bool)] = []
        guard Self.sayable(items, rules: rules, keeping: keeping, depth: 0, optional: false, into: &pieces) else {
            return nil
        }
        guard let first = pieces.firstIndex(where: { !$0.optional }),
            let last = pieces.lastIndex(where: { !$0.optional })
        else { return pieces.map(\.piece) }
        return pieces[first...last].map(\.piece)
    }

    private static func sayable(
        _ items: [Item], rules: [String: PhraseTemplate], keeping: Set<String>, depth: Int, optional: Bool,
        into pieces: inout [(piece: Piece, optional: Bool)]
    ) -> Bool {
        guard depth < 16 else { return false }
        for item in items {
            switch item {
            case .word(let word): pieces.append((.word(word), optional))
            case .slot(let name, _): pieces.append((.slot(name), optional))
            case .app: pieces.append((.app, optional))
            case .rule(let name, _):
                guard let rule = rules[name],
                    sayable(
                        rule.items, rules: rules, keeping: keeping, depth: depth + 1, optional: optional, into: &pieces)
                else { return false }
            case .alternatives(let branches):
                guard let branch = branches.first,
                    sayable(branch, rules: rules, keeping: keeping, depth: depth + 1, optional: optional, into: &pieces)
                else { return false }
            case .optional(let branches):
                guard let branch = branches.first else { continue }
                var taken: [(piece: Piece, optional: Bool)] = []
                guard sayable(branch, rules: rules, keeping: keeping, depth: depth + 1, optional: true, into: &taken)
                else { return false }
                let slots = taken.compactMap { if case .slot(let name) = $0.piece { name } else { nil } }
                if slots.isEmpty {
                    pieces += taken
                } else if slots.allSatisfy(keeping.contains) {
                    // A value said is kept with its words, wherever the group stands.
                    pieces += taken.map { (piece: $0.piece, optional: optional) }
                }
            }
        }
        return true
    }

    /// Every sentence the template can produce, rules substituted, up to `limit` sentences;
    /// nil when there would be more.
    public func expansions(rules: [String: PhraseTemplate], limit: Int = 512) -> [[Piece]]? {
        expansions(rules: rules, limit: limit) { $0 }
    }

    /// The same, each piece turned into `T` once per template item rather than once per sentence.
    public func expansions<T>(rules: [String: PhraseTemplate], limit: Int = 512, _ transform: (Piece) -> T) -> [[T]]? {
        var budget = limit
        return Self.expand(
            items, rules: rules, budget: &budget, depth: 0, empty: [], leaf: { [transform($0)] }, concat: +)
    }

    /// How many sentences the template produces, counted without producing them (rules
    /// substituted); at most `cap`, which it returns for anything larger, and for rules nested
    /// past the depth `expansions` reads.
    public func sentenceCount(rules: [String: PhraseTemplate], cap: Int) -> Int {
        Self.count(items, rules: rules, cap: cap, depth: 0)
    }

    private static func count(_ items: [Item], rules: [String: PhraseTemplate], cap: Int, depth: Int) -> Int {
        guard depth < 16 else { return cap }
        var total = 1
        for item in items {
            let options: Int
            switch item {
            case .word, .slot, .app: options = 1
            case .rule(let name, _):
                guard let rule = rules[name] else { return cap }
                options = count(rule.items, rules: rules, cap: cap, depth: depth + 1)
            case .alternatives(let branches), .optional(let branches):
                var sum = 0
                if case .optional = item { sum = 1 }
                for branch in branches { sum = min(cap, sum + count(branch, rules: rules, cap: cap, depth: depth + 1)) }
                options = sum
            }
            let (product, overflow) = total.multipliedReportingOverflow(by: options)
            total = overflow ? cap : min(cap, product)
        }
        return total
    }

    /// A sentence reduced to a polynomial hash: `hash` of its pieces and `power` = base^length,
    /// so two sentences concatenate in O(1).
    public struct SentenceHash: Hashable, Sendable {
        public var hash: UInt64
        public var power: UInt64
        package static let base: UInt64 = 0x100_0000_01B3
        static let empty = SentenceHash(hash: 0, power: 1)

        package init(hash: UInt64, power: UInt64) {
            self.hash = hash
            self.power = power
        }

        package func appending(_ other: SentenceHash) -> SentenceHash {
            SentenceHash(hash: hash &* other.power &+ other.hash, power: power &* other.power)
        }
    }

    /// The hash of every sentence the template can produce (nil past `limit`): a cheap way to find
    /// sentences two templates share, to be confirmed with `expansions`.
    public func sentenceHashes(rules: [String: PhraseTemplate], limit: Int = 512, _ id: (Piece) -> UInt64)
        -> [SentenceHash]?
    {
        var budget = limit
        return Self.expand(
            items, rules: rules, budget: &budget, depth: 0, empty: .empty,
            leaf: { SentenceHash(hash: id($0) &+ 1, power: SentenceHash.base) }, concat: { $0.appending($1) })
    }

    /// Expands items into sentences of any representation: arrays of pieces, or hashes.
    private static func expand<S>(
        _ items: [Item], rules: [String: PhraseTemplate], budget: inout Int, depth: Int,
        empty: S, leaf: (Piece) -> S, concat: (S, S) -> S
    ) -> [S]? {
        guard depth < 16 else { return nil }
        var sentences: [S] = [empty]
        /// A word, slot or app: one option, added to every sentence without an array of options.
        func append(_ piece: Piece) -> Bool {
            guard sentences.count <= budget else { return false }
            let option = leaf(piece)
            for index in sentences.indices { sentences[index] = concat(sentences[index], option) }
            return true
        }
        for item in items {
            let options: [S]
            switch item {
            case .word(let word):
                guard append(.word(word)) else { return nil }
                continue
            case .slot(let name, _):
                guard append(.slot(name)) else { return nil }
                continue
            case .app:
                guard append(.app) else { return nil }
                continue
            case .rule(let name, _):
                guard let rule = rules[name],
                    let expanded = expand(
                        rule.items, rules: rules, budget: &budget, depth: depth + 1, empty: empty, leaf: leaf,
                        concat: concat)
                else { return nil }
                options = expanded
            case .alternatives(let branches), .optional(let branches):
                var collected: [S] = []
                if case .optional = item { collected.append(empty) }
                for branch in branches {
                    guard
                        let expanded = expand(
                            branch, rules: rules, budget: &budget, depth: depth + 1, empty: empty, leaf: leaf,
                            concat: concat)
                    else { return nil }
                    collected += expanded
                }
                options = collected
            }
            guard sentences.count * options.count <= budget else { return nil }
            if options.count == 1 {
                for index in sentences.indices { sentences[index] = concat(sentences[index], options[0]) }
            } else {
                var next: [S] = []
                next.reserveCapacity(sentences.count * options.count)
                for prefix in sentences { for option in options { next.append(concat(prefix, option)) } }
                sentences = next
            }
        }
        return sentences
    }
}
