import Foundation
public import IntentModel
public import ModelStore

/// Spotlight for the terminal: entities from the store's full-text index and the apps' actions
/// (intents and app shortcuts) from the graph, ranked together by an explicit `SearchScore`.
///
/// Each query word must match (AND), as a word, the start of a word, its stem (light English and
/// German suffixes), or, when no indexed word starts with it, a word within one typo (two for
/// words of more than four letters) that starts with the same letter.
public struct SearchEngine: Sendable {
    let graph: IntentGraph
    let actions: [Action]
    let actionWords: Set<String>
    /// Entities by their qualified name as the index stores it (`App.Entity`): every hit row names one.
    let entitiesByName: [String: IntentGraph.Entity]

    /// How many words of a query count; the rest are ignored.
    public static let maximumWords = 8
    /// Longer words are cut to this many characters.
    public static let maximumWordLength = 64

    /// An intent as a search result, with the words that find it.
    struct Action: Sendable {
        let intent: IntentGraph.Intent
        let title: String
        let subtitle: String
        let image: String?
        let hasShortcut: Bool
        let titleWords: [String]
        let otherWords: [String]
    }

    public init(graph: IntentGraph) {
        self.graph = graph
        var actions: [Action] = []
        for app in graph.apps {
            for intent in app.intents {
                let shortcut = app.shortcuts.first { $0.intent == intent.name }
                let phrases = (shortcut?.phrases ?? []) + intent.phrases.prefix(3)
                let spoken = phrases.map { IntentGraph.speak($0.template, appName: app.name, rules: app.rules) }
                let subtitle =
                    shortcut?.phrases.first.map {
                        "“" + IntentGraph.speak($0.template, appName: app.name, rules: app.rules) + "”"
                    } ?? intent.description ?? ""
                actions.append(
                    Action(
                        intent: intent, title: intent.title, subtitle: subtitle, image: shortcut?.image,
                        hasShortcut: shortcut != nil,
                        titleWords: SearchText.words(intent.title + " " + (shortcut?.shortTitle ?? "")),
                        otherWords: SearchText.words(
                            ([intent.description ?? ""] + spoken).joined(separator: " ")
                                .replacingOccurrences(of: "<", with: " ").replacingOccurrences(of: ">", with: " "))))
            }
        }
        self.actions = actions
        actionWords = Set(actions.flatMap { $0.titleWords + $0.otherWords })
        // The first entity of each name, as `first(where:)` over the graph's entities found it.
        entitiesByName = Dictionary(
            graph.entities.map { ($0.name.description, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// A query word and the forms it may match in.
    public struct QueryWord: Sendable, Hashable {
        public let text: String
        /// Its stem when a suffix was taken off (`tasks` → `task`).
        public let stem: String?
        /// Indexed words one or two typos away, tried when no indexed word starts with it.
        public let corrections: [String]
    }

    /// The ranked hits for `text`: entities first by score, actions among them; at most `limit`.
    public func search(_ text: String, store: Store, now: Date, limit: Int = 10) throws -> SearchResult {
        let words = Array(
            Set(SearchText.words(text).map { String($0.prefix(Self.maximumWordLength)) }).sorted()
                .prefix(Self.maximumWords))
        guard !words.isEmpty, limit > 0 else { return SearchResult(query: text, words: [], hits: []) }
        // A read that keeps the statements prepared: a search runs a dozen to hundreds of them.
        return try store.read(indexed: true) { transaction in
            let queryWords = try words.map { word in try queryWord(word, transaction) }
            let groups = try queryWords.map { word in
                try ([word.text] + (word.stem.map { [$0] } ?? [])).flatMap {
                    try Self.terms(startingWith: $0, transaction)
                }
                    + word.corrections.map { SearchTerm($0, prefix: false) }
            }
            var hits: [SearchHit] = []
            for row in try transaction.searchIndex(groups, now: now, limit: max(limit * 4, 40)) {
                guard let entity = entitiesByName[row.entity] else { continue }
                let fields: [(SearchHit.Field, [String])] = [
                    (.title, row.titleWords), (.keywords, row.keywordWords), (.description, row.descriptionWords),
                ]
                guard let (wordScore, matches) = Self.score(queryWords, in: fields) else { continue }
                var score = wordScore
                score.bm25 = row.bm25
                hits.append(
                    SearchHit(
                        kind: .entity, app: entity.name.app, type: entity.name.name, title: row.title,
                        subtitle: row.subtitle, glyph: SymbolGlyph.glyph(for: entity.displayImage), record: row.record,
                        intent: nil, score: score, matches: matches, pending: row.pending))
            }
            for action in actions {
                let fields: [(SearchHit.Field, [String])] = [(.title, action.titleWords), (.phrase, action.otherWords)]
                guard let (wordScore, matches) = Self.score(queryWords, in: fields) else { continue }
                var score = wordScore
                score.shortcut = action.image != nil || action.hasShortcut ? 1 : 0
                hits.append(
                    SearchHit(
                        kind: .action, app: action.intent.name.app, type: "Action", title: action.title,
                        subtitle: action.subtitle, glyph: SymbolGlyph.glyph(for: action.image ?? "play"), record: nil,
                        intent: action.intent.name, score: score, matches: matches))
            }
            // NSUserActivity with isEligibleForSearch: what was used recently, found by its title and
            // keywords until it expires; the newest of each title once.
            var seenActivities: Set<String> = []
            for activity in try transaction.activities(
                at: now, eligible: .search, limit: 100)
            {
                let parts = activity.intent.split(separator: ".", maxSplits: 1).map(String.init)
                guard seenActivities.insert(activity.type + "\u{1F}" + activity.title).inserted, parts.count == 2
                else { continue }
                let intent = QualifiedName(app: parts[0], name: parts[1])
                let fields: [(SearchHit.Field, [String])] = [
                    (.title, SearchText.words(activity.title)),
                    (.keywords, activity.keywords.flatMap(SearchText.words)),
                ]
                guard let (score, matches) = Self.score(queryWords, in: fields) else { continue }
                hits.append(
                    SearchHit(
                        kind: .activity, app: intent.app, type: "Activity", title: activity.title,
                        subtitle: activity.link ?? activity.type, glyph: SymbolGlyph.glyph(for: "clock"), record: nil,
                        intent: intent, score: score, matches: matches))
            }
            hits.sort { lhs, rhs in
                if lhs.score != rhs.score { return lhs.score < rhs.score }
                if lhs.kind != rhs.kind { return lhs.kind == .action }
                return lhs.title < rhs.title
            }
            return SearchResult(query: text, words: queryWords, hits: Array(hits.prefix(limit)))
        }
    }

    private func queryWord(_ word: String, _ transaction: StoreTransaction) throws -> QueryWord {
        let stem = Self.stem(word)
        var corrections: [String] = []
        let known =
            try !transaction.searchVocabulary(prefix: stem ?? word, limit: 1).isEmpty
            || actionWords.contains { $0.hasPrefix(stem ?? word) }
        if !known, word.count >= 3 {
            let limit = word.count <= 4 ? 1 : 2
            var candidates: Set<String> = []
            for prefix in Self.typoPrefixes(word) {
                candidates.formUnion(try transaction.searchVocabulary(prefix: prefix, limit: 500))
            }
            candidates.formUnion(actionWords)
            var scored: [(String, Int)] = []
            for candidate in candidates where abs(candidate.count - word.count) <= limit {
                if let distance = EditDistance.within(word, candidate, limit: limit) {
                    scored.append((candidate, distance))
                }
            }
            corrections = scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(12).map(\.0)
        }
        return QueryWord(text: word, stem: stem, corrections: corrections)
    }

    /// Where the indexed words one typo away from `word` can start, as short prefixes to look up
    /// (instead of every word with its first letter): a typo after the third letter keeps the
    /// first three; one in the first three letters is an insertion, deletion, substitution or
    /// swap there, spelled out with every letter that may have been meant.
    static func typoPrefixes(_ word: String) -> Set<String> {
        let w = Array(word)
        guard w.count >= 3 else { return [word] }
        let letters = "abcdefghijklmnopqrstuvwxyzäöüß0123456789".map { $0 }
        var prefixes: Set<String> = [String(w[0...2])]
        if w.count >= 4 {
            prefixes.insert(String([w[0], w[1], w[3]]))  // third letter left out
            prefixes.insert(String([w[0], w[1], w[3], w[2]]))  // third and fourth swapped
        }
        for letter in letters {
            prefixes.insert(String([w[0], w[1], letter]))  // the third letter wrong, or one missing there
        }
        prefixes.insert(String([w[0], w[2]]))  // second letter left out, or first two swapped after it
        prefixes.insert(String([w[1], w[0], w[2]]))  // first two swapped
        prefixes.insert(String([w[0], w[2], w[1]]))  // second and third swapped
        prefixes.insert(String(w[1...2]))  // first letter extra
        for letter in letters {
            prefixes.insert(String([letter, w[0], w[1]]))  // a first letter missing
            prefixes.insert(String([letter, w[1], w[2]]))  // the first letter wrong
            prefixes.insert(String([w[0], letter, w[1]]))  // a second letter missing
            prefixes.insert(String([w[0], letter, w[2]]))  // the second letter wrong
        }
        return prefixes
    }

    /// The index's words that start with `prefix`, as exact terms when there are few (FTS5 reads a
    /// prefix query by merging every matching word's list), else the prefix itself.
    static func terms(startingWith prefix: String, _ transaction: StoreTransaction) throws -> [SearchTerm] {
        let words = try transaction.searchVocabulary(prefix: prefix, limit: 17)
        guard words.count <= 16 else { return [SearchTerm(prefix, prefix: true)] }
        // New words of pending documents are in the vocabulary too; the prefix stays for actions.
        return words.map { SearchTerm($0, prefix: false) } + (words.isEmpty ? [SearchTerm(prefix, prefix: true)] : [])
    }

    /// Light stemming for English and German: a plural or inflection suffix off, when at least
    /// three letters stay (`tasks` → `task`, `einkaufen` → `einkauf`, `notizen` → `notiz`).
    static func stem(_ word: String) -> String? {
        for suffix in ["ungen", "ies", "ing", "en", "er", "es", "ed", "e", "n", "s"]
        where word.hasSuffix(suffix) && word.count - suffix.count >= 3 {
            return String(word.dropLast(suffix.count)) + (suffix == "ies" ? "y" : "")
        }
        return nil
    }

    /// How every query word matches in `fields` (searched in order), or nil when one does not.
    static func score(_ words: [QueryWord], in fields: [(SearchHit.Field, [String])]) -> (
        SearchScore, [SearchHit.WordMatch]
    )? {
        var score = SearchScore()
        var matches: [SearchHit.WordMatch] = []
        for word in words {
            var best: SearchHit.WordMatch?
            for (field, indexed) in fields {
                for candidate in indexed {
                    let kind: SearchHit.MatchKind
                    if candidate == word.text {
                        kind = .exact
                    } else if candidate.hasPrefix(word.text) {
                        kind = .prefix
                    } else if let stem = word.stem, candidate.hasPrefix(stem) {
                        kind = .stem
                    } else if word.corrections.contains(candidate) {
                        kind = .typo
                    } else {
                        continue
                    }
                    if best == nil || kind < best!.kind {
                        best = SearchHit.WordMatch(query: word.text, word: candidate, kind: kind, field: field)
                    }
                }
                if best?.kind == .exact { break }
            }
            guard let best else { return nil }
            switch best.kind {
            case .typo: score.typos += 1
            case .prefix, .stem: score.partial += 1
            case .exact: break
            }
            if best.field == .title { score.inTitle += 1 }
            matches.append(best)
        }
        return (score, matches)
    }
}

/// The hits of one search, with the query words as they were understood.
public struct SearchResult: Sendable {
    public let query: String
    public let words: [SearchEngine.QueryWord]
    public let hits: [SearchHit]
}

/// One search result: a stored entity or an action (an intent, with its shortcut phrase).
public struct SearchHit: Sendable {
    public enum Kind: String, Sendable { case entity, action, activity }
    public enum Field: String, Sendable { case title, keywords, description, phrase }
    /// How a query word matched, best first.
    public enum MatchKind: Int, Sendable, Comparable, CustomStringConvertible {
        case exact, prefix, stem, typo

        public static func < (lhs: MatchKind, rhs: MatchKind) -> Bool { lhs.rawValue < rhs.rawValue }
        public var description: String {
            switch self {
            case .exact: "word"
            case .prefix: "prefix"
            case .stem: "stem"
            case .typo: "typo"
            }
        }
    }

    public struct WordMatch: Sendable {
        public let query: String
        public let word: String
        public let kind: MatchKind
        public let field: Field
    }

    public let kind: Kind
    public let app: String
    /// The entity's type, or `Action`.
    public let type: String
    public let title: String
    public let subtitle: String
    public let glyph: String
    /// The entity's id (entities).
    public let record: String?
    /// The intent (actions).
    public let intent: QualifiedName?
    public let score: SearchScore
    public let matches: [WordMatch]
    /// Not moved into the FTS5 table yet: its bm25 has no idf part.
    public var pending = false

    /// “milk” as typo of “mlk” in title, …: why it matched.
    public var why: String {
        matches.map { match in
            let how = match.kind == .exact ? "" : " (\(match.kind) of “\(match.query)”)"
            return "“\(match.word)”\(how) in \(match.field.rawValue)"
        }.joined(separator: ", ")
    }
}
