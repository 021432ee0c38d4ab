import Foundation

/// A parsed phrase template: words, `(a|b)`, `[optional]`, `{slot}`, `{app}`, `<rule>`.
public struct PhraseTemplate: Sendable, Hashable {
    public indirect enum Item: Sendable, Hashable {
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

    static func slots(in items: [Item]) -> [(name: String, offset: Int)] {
        items.flatMap { item -> [(name: String, offset: Int)] in
            switch item {
            case .slot(let name, let offset): [(name, offset)]
            case .alternatives(let branches), .optional(let branches): branches.flatMap { slots(in: $0) }
            default: []
            }
        }
    }

    static func rules(in items: [Item]) -> [(name: String, offset: Int)] {
        items.flatMap { item -> [(name: String, offset: Int)] in
            switch item {
            case .rule(let name, let offset): [(name, offset)]
            case .alternatives(let branches), .optional(let branches): branches.flatMap { rules(in: $0) }
            default: []
            }
        }
    }

    /// One element of an expanded sentence.
    public enum Piece: Sendable, Hashable {
        case word(String)
        case slot(String)
        case app
    }

    /// Every sentence the template can produce, rules substituted, up to `limit` sentences;
    /// nil when there would be more.
    public func expansions(rules: [String: PhraseTemplate], limit: Int = 512) -> [[Piece]]? {
        expansions(rules: rules, limit: limit) { $0 }
    }

    /// The same, each piece turned into `T` once per template item rather than once per sentence.
    public func expansions<T>(rules: [String: PhraseTemplate], limit: Int = 512, _ transform: (Piece) -> T) -> [[T]]? {
        var budget = limit
        return Self.expand(items, rules: rules, budget: &budget, depth: 0, empty: [], leaf: { [transform($0)] }, concat: +)
    }

    /// A sentence reduced to a polynomial hash: `hash` of its pieces and `power` = base^length,
    /// so two sentences concatenate in O(1).
    public struct SentenceHash: Hashable, Sendable {
        public var hash: UInt64
        public var power: UInt64
        static let base: UInt64 = 0x100_0000_01B3
        static let empty = SentenceHash(hash: 0, power: 1)

        func appending(_ other: SentenceHash) -> SentenceHash {
            SentenceHash(hash: hash &* other.power &+ other.hash, power: power &* other.power)
        }
    }

    /// The hash of every sentence the template can produce (nil past `limit`): a cheap way to find
    /// sentences two templates share, to be confirmed with `expansions`.
    public func sentenceHashes(rules: [String: PhraseTemplate], limit: Int = 512, _ id: (Piece) -> UInt64) -> [SentenceHash]? {
        var budget = limit
        return Self.expand(items, rules: rules, budget: &budget, depth: 0, empty: .empty,
                           leaf: { SentenceHash(hash: id($0) &+ 1, power: SentenceHash.base) }, concat: { $0.appending($1) })
    }

    /// Expands items into sentences of any representation: arrays of pieces, or hashes.
    private static func expand<S>(_ items: [Item], rules: [String: PhraseTemplate], budget: inout Int, depth: Int,
                                  empty: S, leaf: (Piece) -> S, concat: (S, S) -> S) -> [S]? {
        guard depth < 16 else { return nil }
        var sentences: [S] = [empty]
        for item in items {
            let options: [S]
            switch item {
            case .word(let word): options = [leaf(.word(word))]
            case .slot(let name, _): options = [leaf(.slot(name))]
            case .app: options = [leaf(.app)]
            case .rule(let name, _):
                guard let rule = rules[name],
                      let expanded = expand(rule.items, rules: rules, budget: &budget, depth: depth + 1, empty: empty, leaf: leaf, concat: concat)
                else { return nil }
                options = expanded
            case .alternatives(let branches), .optional(let branches):
                var collected: [S] = []
                if case .optional = item { collected.append(empty) }
                for branch in branches {
                    guard let expanded = expand(branch, rules: rules, budget: &budget, depth: depth + 1, empty: empty, leaf: leaf, concat: concat)
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

/// Parses phrase templates. Errors carry the character offset they were found at.
enum PhraseTemplateParser {
    static let specials: Set<Unicode.Scalar> = ["(", ")", "[", "]", "{", "}", "<", ">", "|"]

    static func parse(_ source: String) throws(ExpressionSyntaxError) -> PhraseTemplate {
        var parser = State(characters: Array(source.unicodeScalars))
        let branches = try parser.parseAlternatives(closing: nil, depth: 0)
        guard branches.count == 1 else {
            throw ExpressionSyntaxError(message: "put alternatives in parentheses: '(a|b)'", offset: parser.firstBar ?? 0)
        }
        let items = branches[0]
        guard !items.isEmpty else { throw ExpressionSyntaxError(message: "empty phrase", offset: 0) }
        return PhraseTemplate(items: items, source: source)
    }

    private struct State {
        let characters: [Unicode.Scalar]
        var i = 0
        var firstBar: Int?

        mutating func parseAlternatives(closing: Unicode.Scalar?, depth: Int) throws(ExpressionSyntaxError) -> [[PhraseTemplate.Item]] {
            guard depth < 32 else { throw ExpressionSyntaxError(message: "phrase nested too deeply", offset: i) }
            var branches: [[PhraseTemplate.Item]] = [[]]
            while i < characters.count {
                let c = characters[i]
                if c.isSpace {
                    i += 1
                } else if c == "|" {
                    if firstBar == nil { firstBar = i }
                    branches.append([])
                    i += 1
                } else if c == ")" || c == "]" {
                    guard c == closing else {
                        throw ExpressionSyntaxError(message: "unexpected '\(c)'", offset: i)
                    }
                    return branches
                } else if c == "(" || c == "[" {
                    let open = i
                    i += 1
                    let inner = try parseAlternatives(closing: c == "(" ? ")" : "]", depth: depth + 1)
                    guard i < characters.count else {
                        throw ExpressionSyntaxError(message: "'\(c)' is never closed", offset: open)
                    }
                    i += 1
                    if inner.contains(where: \.isEmpty), c == "(" {
                        throw ExpressionSyntaxError(message: "empty alternative; use [optional] for words that may be left out", offset: open)
                    }
                    if inner.allSatisfy(\.isEmpty) {
                        throw ExpressionSyntaxError(message: "empty '\(c)\(c == "(" ? ")" : "]")'", offset: open)
                    }
                    branches[branches.count - 1].append(c == "(" ? .alternatives(inner) : .optional(inner))
                } else if c == "{" || c == "<" {
                    let close: Unicode.Scalar = c == "{" ? "}" : ">"
                    let open = i
                    i += 1
                    var name = ""
                    while i < characters.count, characters[i] != close {
                        guard !PhraseTemplateParser.specials.contains(characters[i]) else {
                            throw ExpressionSyntaxError(message: "'\(c)' is never closed with '\(close)'", offset: open)
                        }
                        name.unicodeScalars.append(characters[i])
                        i += 1
                    }
                    guard i < characters.count else {
                        throw ExpressionSyntaxError(message: "'\(c)' is never closed with '\(close)'", offset: open)
                    }
                    i += 1
                    name = name.trimmed
                    guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                        throw ExpressionSyntaxError(message: "'\(c)\(name)\(close)' is not a valid \(c == "{" ? "slot" : "rule") name", offset: open)
                    }
                    if c == "<" {
                        branches[branches.count - 1].append(.rule(name, offset: open + 1))
                    } else {
                        branches[branches.count - 1].append(name == "app" ? .app : .slot(name, offset: open + 1))
                    }
                } else if c == "}" || c == ">" {
                    throw ExpressionSyntaxError(message: "unexpected '\(c)'", offset: i)
                } else {
                    var word = ""
                    while i < characters.count, !characters[i].isSpace, !PhraseTemplateParser.specials.contains(characters[i]) {
                        word.unicodeScalars.append(characters[i])
                        i += 1
                    }
                    branches[branches.count - 1].append(.word(word))
                }
            }
            return branches
        }
    }
}
