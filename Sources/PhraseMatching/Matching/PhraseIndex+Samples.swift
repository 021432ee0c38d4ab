import IntentModel

extension PhraseIndex {
    /// Sentences to offer someone who asks what they can say: per app, the first phrases of up to
    /// `perApp` intents in `language` (any language when nil), shortcuts first, each said with
    /// example values: "Add buy milk to my tasks in FocusBlox".
    public func helpSentences(language: String?, perApp: Int = 2, only: String? = nil) -> [String] {
        var sentences: [String] = []
        var position = 0  // in `spokenPhrases`' order: per app, its shortcuts' phrases, then its intents'
        for app in graph.apps {
            let limit = only == nil || only == app.name ? perApp : 0
            let phrases =
                app.shortcuts.flatMap { shortcut in shortcut.phrases.map { (shortcut.intent, $0) } }
                + app.intents.flatMap { intent in intent.phrases.map { (intent.name, $0) } }
            var taken: Set<QualifiedName> = []
            for (intent, phrase) in phrases {
                defer { position += 1 }
                guard taken.count < limit, language == nil || phrase.language == language,
                    taken.insert(intent).inserted
                else { continue }
                sentences.append(sampleSentence(position))
            }
        }
        return sentences
    }

    /// The spoken phrase at `position` as a person would say it: its sayable sentence
    /// (`PhraseTemplate.sayableSentence`) with an example value in each slot ("Add buy milk to my
    /// tasks"), never template syntax.
    func sampleSentence(_ position: Int) -> String {
        let fallback = spokenPhrases[position].text
        guard let source = spokenSource(position), let app = graph.app(named: source.intent.app),
            let intent = app.intents.first(where: { $0.name == source.intent }),
            let sentence = source.phrase.template.sayableSentence(rules: app.rules)
        else { return fallback }
        let words = sentence.map { piece -> String in
            switch piece {
            case .word(let word): word
            case .app: app.name
            case .slot(let slot):
                intent.parameter(slot).map { exampleValue($0, of: intent, language: source.phrase.language) } ?? slot
            }
        }
        guard let first = words.first else { return fallback }
        return ([first.prefix(1).uppercased() + first.dropFirst()] + words.dropFirst()).joined(separator: " ")
    }

    /// A value to say for `parameter`: one the intent's examples give (in `language` first), else
    /// its default, else one of its type.
    func exampleValue(_ parameter: IntentGraph.Parameter, of intent: IntentGraph.Intent, language: String) -> String {
        let examples =
            intent.examples.filter { $0.language == language } + intent.examples.filter { $0.language != language }
        for example in examples {
            guard case .match(_, let values) = example.expectation, let value = values[parameter.name],
                let text = spoken(value, type: parameter.type)
            else { continue }
            return text
        }
        if let value = parameter.defaultValue, let text = spoken(value, type: parameter.type) { return text }
        let german = language == "de"
        switch parameter.type {
        case .date: return german ? "morgen" : "tomorrow"
        case .duration: return german ? "zehn Minuten" : "ten minutes"
        case .integer, .number: return "5"
        case .boolean: return german ? "an" : "on"
        case .url: return "example.com"
        case .enumeration(let name):
            return graph.enumeration(name)?.cases.first?.title ?? parameter.title.lowercased()
        case .string, .entity, .array: return parameter.title.lowercased()
        }
    }

    /// How `value` is said, when it can be said in words.
    private func spoken(_ value: Value, type: ValueType) -> String? {
        switch (value, type) {
        case (.enumCase(let id), .enumeration(let name)):
            return graph.enumeration(name)?.cases.first { $0.id == id }?.title
        case (.string(let text), _) where !text.isEmpty: return text
        case (.integer(let number), _): return String(number)
        case (.array(let items), .array(let element)):
            let said = items.compactMap { spoken($0, type: element) }
            return said.isEmpty ? nil : said.joined(separator: " and ")
        default: return nil
        }
    }
}

extension PhraseIndex {
    /// The intent whose phrase a no-match suggestion says (as `Recognition` words them), if any: the
    /// prompt's tip after a near miss is for that intent.
    public func intent(suggested sentence: String) -> QualifiedName? {
        spokenPhrases.indices.first { sampleSentence($0) == sentence }.flatMap { spokenSource($0)?.intent }
    }
}

extension PhraseIndex {
    /// `candidate` as a person would say it, for a "Did you mean …?": the shortest sayable sentence
    /// (`PhraseTemplate.sayableSentence`) of one of its intent's phrases (in `language`, else in
    /// any) that has a slot for every value found, else the shortest sentence that has, each
    /// value in the words it was said with (`tokens` are the sentence's), and "…" for a slot the
    /// sentence did not say, only at its end ("Focus for 50 minutes on …", "Neue aufgabe …"); among
    /// sentences as short, one of the phrase the sentence was closest to (`closest`, its template's
    /// source). Nil when no phrase has a slot for every value, or none leaves the unsaid ones last.
    public func spokenSentence(
        for candidate: Candidate, tokens: [Token], language: String?, closest: String? = nil
    ) -> String? {
        guard let app = graph.app(named: candidate.intent.app),
            let intent = app.intents.first(where: { $0.name == candidate.intent })
        else { return nil }
        let said = Set(candidate.slots.map(\.name))
        let sources = spokenSources(of: candidate.intent)
        let inLanguage = sources.filter { $0.phrase.language == (language ?? candidate.language) }
        var best: (key: [Int], pieces: [PhraseTemplate.Piece])?
        func consider(_ pieces: [PhraseTemplate.Piece], sayable: Bool, isClosest: Int, order: Int) {
            var slots: Set<String> = []
            for case .slot(let name) in pieces { slots.insert(name) }
            guard said.isSubset(of: slots) else { return }
            // A slot not said goes last, where "…" reads as trailing off ("Focus for 50 minutes on
            // …"); one mid-sentence ("Focus on … for 50 minutes") is no sentence to say.
            guard
                let lastSaid = pieces.lastIndex(where: { piece in
                    if case .slot(let name) = piece { !said.contains(name) } else { true }
                }),
                !pieces[..<lastSaid].contains(where: { piece in
                    if case .slot(let name) = piece { !said.contains(name) } else { false }
                })
            else { return }
            let key = [slots.count - said.count, sayable ? 0 : 1, pieces.count, isClosest, order]
            if best.map({ key.lexicographicallyPrecedes($0.key) }) ?? true { best = (key, pieces) }
        }
        for (order, source) in (inLanguage.isEmpty ? sources : inLanguage).enumerated() {
            let template = source.phrase.template
            let isClosest = template.source == closest ? 0 : 1
            // The phrase's sayable sentence with the values said ("Start a focus block for … on
            // deep work"); a shortest expansion only where that sentence has no slot for one of them.
            if let pieces = template.sayableSentence(rules: app.rules, keeping: said),
                said.allSatisfy({ name in pieces.contains(.slot(name)) })
            {
                consider(pieces, sayable: true, isClosest: isClosest, order: order)
                continue
            }
            for pieces in template.expansions(rules: app.rules, limit: Self.expansionLimit) ?? [] {
                consider(pieces, sayable: false, isClosest: isClosest, order: order)
            }
        }
        guard let pieces = best?.pieces else { return nil }
        let words = pieces.map { piece -> String in
            switch piece {
            case .word(let word): return word
            case .app: return app.name
            case .slot(let name):
                guard let slot = candidate.slots.first(where: { $0.name == name }) else { return "…" }
                if case .string(let text) = slot.value { return text }
                if tokens.indices.contains(slot.span.lowerBound), slot.span.upperBound <= tokens.count,
                    !slot.span.isEmpty
                {
                    return tokens[slot.span].map(\.raw).joined(separator: " ")
                }
                return intent.parameter(name).flatMap { spoken(slot.value, type: $0.type) } ?? slot.value.description
            }
        }
        guard let first = words.first else { return nil }
        return ([first.prefix(1).uppercased() + first.dropFirst()] + words.dropFirst()).joined(separator: " ")
    }
}

extension PhraseIndex {
    /// The phrases that say `name`, in the order `spokenSource(_:)` counts them: shortcut phrases
    /// first, then the intent's own, app by app. Listed from the graph when a suggestion asks,
    /// so that loading keeps only the count.
    func spokenSources(of name: QualifiedName) -> [(intent: QualifiedName, phrase: IntentGraph.Phrase)] {
        var sources: [(intent: QualifiedName, phrase: IntentGraph.Phrase)] = []
        for app in graph.apps {
            for shortcut in app.shortcuts where shortcut.intent == name {
                sources += shortcut.phrases.map { (shortcut.intent, $0) }
            }
            for intent in app.intents where intent.name == name { sources += intent.phrases.map { (name, $0) } }
        }
        return sources
    }
}
