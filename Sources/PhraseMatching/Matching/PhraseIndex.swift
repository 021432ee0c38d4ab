import IntentModel

/// Every phrase template of every loaded app merged into one token trie with slot and app edges,
/// built once at load. Matching walks it; it never loops over templates.
public struct PhraseIndex: Sendable {
    struct SlotEdge: Sendable {
        var name: String
        var type: ValueType
        var child: Int32
    }

    /// A sentence the trie can end on: which intent, from which phrase.
    public struct Entry: Sendable {
        public var intent: QualifiedName
        public var app: String
        public var template: String
        public var language: String
        /// The template names the app with {app}, but this variant leaves it (and its preposition) out.
        public var appLeftOut: Bool
        public var isNegative: Bool
        public var isShortcut: Bool
        /// Parameter values the phrase fixes (`set:`).
        public var values: [String: Value] = [:]
    }

    /// The trie of every sentence, flat (`PhraseIndex+Trie.swift`).
    var trie = Trie([BuildNode()])
    var nodes: Nodes { Nodes(trie: trie) }
    public internal(set) var entries: [Entry] = []
    /// Spoken app names (tokens) → app.
    var appNames: [(tokens: [String], app: String)] = []
    /// Enum terms (tokens) → case, by enum.
    var enumTerms: [QualifiedName: [(tokens: [String], id: String)]] = [:]
    public let graph: IntentGraph
    /// Every phrase spoken (the first sentence of its template), with how many distinct words it
    /// has, for "did you mean …?". Its intent and phrase in the graph: `spokenSource(_:)`.
    var spokenPhrases: [(text: String, wordCount: Int, isShortcut: Bool, language: String)] = []
    /// Folded word → the spoken phrases that contain it.
    var spokenByWord: [String: [Int]] = [:]
    /// Spoken words of four letters or more by first byte and length, for near misses in suggestions.
    var spokenWordsByShape: [WordShape: [String]] = [:]

    struct WordShape: Hashable, Sendable {
        var first: UInt8
        var length: Int
    }
    /// Templates that expand to too many sentences to index; `intents check` warns about them.
    public internal(set) var skippedTemplates: [(intent: QualifiedName, phrase: IntentGraph.Phrase)] = []

    /// Every template word of four letters or more by length, with its letters' mask
    /// (`EntityNameIndex.mask`): where the typo pass looks for the words a misspelt one may be.
    var wordsByLength: [Int: [(word: String, mask: UInt64)]] = [:]
    /// Every template word of four letters or more.
    var vocabulary: Set<String> = []

    static let prepositions: Set<String> = [
        "in", "on", "with", "using", "from", "to", "at", "via", "im", "mit", "bei", "auf", "an", "über", "uber",
    ]
    static let expansionLimit = 4096
    /// The types a value may be said anywhere in a sentence as, outside any slot: dates, durations,
    /// numbers and enums some parameter takes (`Matcher` reads them where no template has a slot).
    public internal(set) var anywhereTypes: [ValueType] = []
    /// The terms of the enums in `anywhereTypes` by their first word: values said anywhere are
    /// looked up here, exactly, instead of trying every term at every position.
    var anywhereTerms: [String: [(type: ValueType, tokens: [String], id: String)]] = [:]

    static func anywhereTerms(
        _ types: [ValueType], _ enumTerms: [QualifiedName: [(tokens: [String], id: String)]]
    ) -> [String: [(type: ValueType, tokens: [String], id: String)]] {
        var terms: [String: [(type: ValueType, tokens: [String], id: String)]] = [:]
        for type in types {
            guard case .enumeration(let name) = type else { continue }
            for term in enumTerms[name] ?? [] {
                guard let first = term.tokens.first else { continue }
                terms[first, default: []].append((type, term.tokens, term.id))
            }
        }
        return terms
    }

    /// The intent and phrase of the spoken phrase at `position`, in the order `spokenPhrases` lists
    /// them (per app, shortcuts first): looked up in the graph when a suggestion asks, not kept
    /// (a list of them cost every cold start 3 % over 5,000 templates).
    func spokenSource(_ position: Int) -> (intent: QualifiedName, phrase: IntentGraph.Phrase)? {
        guard position >= 0 else { return nil }
        var rest = position
        let apps = graph.apps
        for app in apps.indices {
            for shortcut in apps[app].shortcuts.indices {
                let count = apps[app].shortcuts[shortcut].phrases.count
                if rest < count {
                    return (apps[app].shortcuts[shortcut].intent, apps[app].shortcuts[shortcut].phrases[rest])
                }
                rest -= count
            }
            for intent in apps[app].intents.indices {
                let count = apps[app].intents[intent].phrases.count
                if rest < count { return (apps[app].intents[intent].name, apps[app].intents[intent].phrases[rest]) }
                rest -= count
            }
        }
        return nil
    }

    /// How many phrases `spokenSource(_:)` has (by position: no app or intent copied).
    static func spokenCount(in graph: IntentGraph) -> Int {
        var count = 0
        let apps = graph.apps
        for app in apps.indices {
            for shortcut in apps[app].shortcuts.indices { count += apps[app].shortcuts[shortcut].phrases.count }
            for intent in apps[app].intents.indices { count += apps[app].intents[intent].phrases.count }
        }
        return count
    }

    static func anywhereTypes(in graph: IntentGraph) -> [ValueType] {
        var types: [ValueType] = []
        // By position, not `graph.intents` (every intent copied): this runs at every cold start.
        for app in graph.apps.indices {
            for intent in graph.apps[app].intents.indices {
                for parameter in graph.apps[app].intents[intent].parameters {
                    switch parameter.type {
                    case .date, .duration, .integer, .number, .enumeration:
                        if !types.contains(parameter.type) { types.append(parameter.type) }
                    default: break
                    }
                }
            }
        }
        return types
    }

    public init(graph: IntentGraph) {
        self.graph = graph
        anywhereTypes = Self.anywhereTypes(in: graph)
        // Each template word's tokens, worked out once: the same words recur in every expanded sentence.
        var tokens: [String: [String]] = [:]
        var nodes = [BuildNode()]
        for app in graph.apps {
            for name in [app.name] + app.synonyms {
                appNames.append((Normalizer.tokens(name).map(\.text), app.name))
            }
            for enumeration in app.enums {
                var terms: [(tokens: [String], id: String)] = []
                for c in enumeration.cases {
                    for term in [c.id.replacingOccurrences(of: "_", with: " "), c.title] + c.synonyms {
                        terms.append((Normalizer.tokens(term).map(\.text), c.id))
                    }
                }
                // Plurals of every term, unless a case already says that word.
                let written = Set(terms.map(\.tokens))
                var plurals: [(tokens: [String], id: String)] = []
                for term in terms {
                    for form in Plurals.forms(of: term.tokens, languages: app.languages)
                    where !written.contains(form) && !plurals.contains(where: { $0.tokens == form }) {
                        plurals.append((form, term.id))
                    }
                }
                terms += plurals
                // Inflected forms ("dringende" for "dringend"), unless a case already says that word.
                let known = Set(terms.map(\.tokens))
                var inflected: [(tokens: [String], id: String)] = []
                for term in terms {
                    for form in Inflections.forms(of: term.tokens, languages: app.languages)
                    where !known.contains(form) && !inflected.contains(where: { $0.tokens == form }) {
                        inflected.append((form, term.id))
                    }
                }
                terms += inflected
                enumTerms[enumeration.name] = terms.sorted { $0.tokens.count > $1.tokens.count }
            }
            for intent in app.intents {
                for phrase in intent.phrases {
                    insert(
                        phrase, intent: intent, app: app, negative: false, shortcut: false, tokens: &tokens,
                        nodes: &nodes)
                }
                for phrase in intent.negativePhrases {
                    insert(
                        phrase, intent: intent, app: app, negative: true, shortcut: false, tokens: &tokens,
                        nodes: &nodes)
                }
            }
            for shortcut in app.shortcuts {
                guard let intent = app.intents.first(where: { $0.name == shortcut.intent }) else { continue }
                for phrase in shortcut.phrases {
                    insert(
                        phrase, intent: intent, app: app, negative: false, shortcut: true, tokens: &tokens,
                        nodes: &nodes)
                }
            }
        }
        trie = Trie(nodes)
        appNames.sort { $0.tokens.count > $1.tokens.count }
        anywhereTerms = Self.anywhereTerms(anywhereTypes, enumTerms)
        for app in graph.apps {
            let phrases =
                app.shortcuts.flatMap(\.phrases).map { ($0, true) } + app.intents.flatMap(\.phrases).map { ($0, false) }
            for (phrase, isShortcut) in phrases {
                let spoken = IntentGraph.speak(phrase.template, appName: app.name, rules: app.rules)
                let words = Set(Normalizer.tokens(spoken).map(\.text).filter { !$0.hasPrefix("<") })
                spokenPhrases.append((spoken, words.count, isShortcut, phrase.language))
                for word in words { spokenByWord[word, default: []].append(spokenPhrases.count - 1) }
            }
        }
        for word in spokenByWord.keys where word.utf8.count >= 4 {
            spokenWordsByShape[WordShape(first: word.utf8.first!, length: word.utf8.count), default: []].append(word)
        }
    }

    public var nodeCount: Int { trie.count }

    private mutating func insert(
        _ phrase: IntentGraph.Phrase, intent: IntentGraph.Intent, app: IntentGraph.App, negative: Bool, shortcut: Bool,
        tokens: inout [String: [String]], nodes: inout [BuildNode]
    ) {
        guard let sentences = phrase.template.expansions(rules: app.rules, limit: Self.expansionLimit) else {
            skippedTemplates.append((intent.name, phrase))
            return
        }
        for sentence in sentences {
            insert(
                sentence, phrase: phrase, intent: intent, app: app, negative: negative, shortcut: shortcut,
                leaveOutApp: false, tokens: &tokens, nodes: &nodes)
            if sentence.contains(.app) {
                insert(
                    sentence, phrase: phrase, intent: intent, app: app, negative: negative, shortcut: shortcut,
                    leaveOutApp: true, tokens: &tokens, nodes: &nodes)
            }
        }
    }

    private mutating func insert(
        _ sentence: [PhraseTemplate.Piece], phrase: IntentGraph.Phrase, intent: IntentGraph.Intent,
        app: IntentGraph.App, negative: Bool, shortcut: Bool, leaveOutApp: Bool, tokens: inout [String: [String]],
        nodes: inout [BuildNode]
    ) {
        var pieces = sentence
        if leaveOutApp {
            var kept: [PhraseTemplate.Piece] = []
            for piece in pieces {
                if piece == .app {
                    if case .word(let word)? = kept.last, Self.prepositions.contains(TextFolding.fold(word)) {
                        kept.removeLast()
                    }
                    continue
                }
                kept.append(piece)
            }
            pieces = kept
        }
        guard !pieces.isEmpty else { return }
        var node: Int32 = 0
        for piece in pieces {
            switch piece {
            case .word(let word):
                let texts: [String]
                if let known = tokens[word] {
                    texts = known
                } else {
                    texts = Normalizer.tokens(word).map(\.text)
                    tokens[word] = texts
                }
                for text in texts {
                    node = child(of: node, word: text, nodes: &nodes)
                }
            case .app:
                if let next = nodes[Int(node)].apps[app.name] {
                    node = next
                } else {
                    let next = Self.newNode(&nodes)
                    nodes[Int(node)].apps[app.name] = next
                    node = next
                }
            case .slot(let name):
                guard let type = intent.parameter(name)?.type else { return }
                if let edge = nodes[Int(node)].slots.first(where: { $0.name == name && $0.type == type }) {
                    node = edge.child
                } else {
                    let next = Self.newNode(&nodes)
                    nodes[Int(node)].slots.append(SlotEdge(name: name, type: type, child: next))
                    node = next
                }
            }
        }
        let entry = Entry(
            intent: intent.name, app: app.name, template: phrase.template.source, language: phrase.language,
            appLeftOut: leaveOutApp, isNegative: negative, isShortcut: shortcut, values: phrase.values)
        let duplicate = nodes[Int(node)].entries.contains { existing in
            let e = entries[Int(existing)]
            return e.intent == entry.intent && e.isNegative == entry.isNegative && e.appLeftOut == entry.appLeftOut
                && e.values == entry.values
        }
        guard !duplicate else { return }
        entries.append(entry)
        nodes[Int(node)].entries.append(Int32(entries.count - 1))
    }

    private mutating func child(of node: Int32, word: String, nodes: inout [BuildNode]) -> Int32 {
        if let next = nodes[Int(node)].words[word] { return next }
        let next = Self.newNode(&nodes)
        nodes[Int(node)].words[word] = next
        if Matcher.optionalTemplateWords.contains(word) { nodes[Int(node)].optionalWords.append((word, next)) }
        if word.utf8.count >= 4, vocabulary.insert(word).inserted {
            wordsByLength[word.utf8.count, default: []].append((word, EntityNameIndex.mask(word)))
        }
        return next
    }

    private static func newNode(_ nodes: inout [BuildNode]) -> Int32 {
        nodes.append(BuildNode())
        return Int32(nodes.count - 1)
    }
}
