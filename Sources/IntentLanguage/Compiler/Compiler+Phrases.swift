import IntentModel
import YAML

extension Diagnostic.Message {
    static func tooManySentences(total: Int, phrase: Int) -> Self {
        let adds = phrase > Compiler.maximumSentences ? "more than \(Compiler.maximumSentences)" : "\(phrase)"
        return
            "the phrases expand to more than \(Compiler.maximumSentences) sentences in all: \(total) before this one, which adds \(adds); write fewer optional parts or split the alternatives into phrases of their own"
    }
}

extension Compiler {
    mutating func compilePhrases(
        _ definitions: [PhraseDefinition], parameters: [IntentGraph.Parameter], app: AppDeclaration
    ) -> [IntentGraph.Phrase] {
        var phrases: [IntentGraph.Phrase] = []
        for definition in definitions {
            let language = definition.language?.value ?? app.languages[0]
            if let lang = definition.language, !app.languages.contains(lang.value) {
                diagnostics.error(
                    "language '\(lang.value)' is not one of the app's languages (\(app.languages.joined(separator: ", ")))",
                    at: lang.range)
            }
            guard let template = parsePhrase(definition.text) else { continue }
            // A phrase names a few slots: a list scanned is cheaper than a set hashed.
            var seen: [String] = []
            for slot in template.slots {
                var range: SourceRange { locate(definition.text, slot.offset..<(slot.offset + slot.name.count)) }
                if silentNames.contains(slot.name) { continue }
                if !parameters.contains(where: { $0.name == slot.name }) {
                    diagnostics.unknown("slot", slot.name, at: range, known: parameters.map(\.name))
                } else if seen.contains(slot.name) {
                    if !Self.inDifferentBranches(slot.name, template.items) {
                        diagnostics.error("slot '\(slot.name)' appears twice in one phrase", at: range)
                    }
                } else {
                    seen.append(slot.name)
                }
            }
            for rule in template.rules where app.rules[rule.name] == nil {
                diagnostics.unknown(
                    "rule", rule.name, at: locate(definition.text, rule.offset..<(rule.offset + rule.name.count)),
                    known: app.rules.keys.sorted())
            }
            guard withinSentenceBudget(template, rules: app.rules, at: definition.text.range) else { continue }
            var phrase = IntentGraph.Phrase(language: language, template: template, location: definition.text.range)
            phrase.values = phraseValues(definition, template: template, parameters: parameters)
            phrases.append(phrase)
        }
        return phrases
    }

    /// The most sentences all phrases together may expand to: the matcher's index, the conflict
    /// check and the learned stage each read every sentence, so time and memory grow with it (500
    /// phrases of 12 optional words each, 2 million sentences, took 21 s and 1 GB to check). The
    /// largest generated load the benchmarks compile (5,000 templates) expands to about 100,000.
    static let maximumSentences = 250_000

    /// Counts the template's sentences (without expanding it) into the total; past
    /// `maximumSentences` the phrase is an error and left out, and so is every phrase after it.
    mutating func withinSentenceBudget(
        _ template: PhraseTemplate, rules: [String: PhraseTemplate], at range: SourceRange?
    ) -> Bool {
        guard !sentencesExceeded else { return false }
        // A template past the index's own limit is skipped with a warning, after as much work.
        let count = template.sentenceCount(rules: rules, cap: Self.maximumSentences + 1)
        let cost = min(count, 4097)
        guard expandedSentences + cost > Self.maximumSentences else {
            expandedSentences += cost
            return true
        }
        sentencesExceeded = true
        diagnostics.error(.tooManySentences(total: expandedSentences, phrase: count), at: range)
        return false
    }

    /// Whether every use of a slot sits in a different branch of one alternative (`({a} x|y {a})`).
    private static func inDifferentBranches(_ slot: String, _ items: [PhraseTemplate.Item]) -> Bool {
        let holding = items.filter { !PhraseTemplate.slots(in: [$0]).filter { $0.name == slot }.isEmpty }
        guard holding.count == 1, case .alternatives(let branches) = holding[0] else { return false }
        return branches.allSatisfy { branch in PhraseTemplate.slots(in: branch).filter { $0.name == slot }.count <= 1 }
    }

    mutating func compileShortcut(_ definition: ShortcutDefinition, app: AppDeclaration) -> IntentGraph.AppShortcut? {
        let parts = definition.intent.value.split(separator: ".", maxSplits: 1).map(String.init)
        let name =
            parts.count == 2
            ? QualifiedName(app: parts[0], name: parts[1]) : QualifiedName(app: app.name, name: definition.intent.value)
        guard name.app == app.name, let intent = intents[name] else {
            if name.app != app.name {
                diagnostics.error("an app shortcut runs an intent of its own app", at: definition.intent.range)
            } else if app.intentDefinitions[name.name] == nil {
                diagnostics.unknown(
                    "intent", definition.intent.value, at: definition.intent.range,
                    known: app.intentDefinitions.keys.sorted())
            }
            return nil
        }
        if definition.phrases.isEmpty {
            diagnostics.error("an app shortcut needs at least one phrase", at: definition.range)
        }
        let phrases = compilePhrases(definition.phrases, parameters: intent.parameters, app: app)
        for (phrase, source) in zip(phrases, definition.phrases) where !phrase.template.mentionsApp(rules: app.rules) {
            diagnostics.warning("an app shortcut phrase should say the app's name with {app}", at: source.text.range)
        }
        return IntentGraph.AppShortcut(
            intent: name, phrases: phrases, shortTitle: definition.shortTitle?.value ?? intent.title,
            image: definition.image?.value, location: definition.range)
    }

    /// Two intents that can be said with the same words are an error: the sentence would be a coin toss.
    /// Sentences are compared by hash (folded words, slot types, the app, the language), and a hit
    /// is confirmed on the sentences themselves before it is reported.
    mutating func checkPhraseConflicts(_ apps: [IntentGraph.App]) {
        /// A phrase and where it belongs, by position in `apps`: an intent or an app is a large value,
        /// and copying one per phrase (with its arrays retained) was a sixth of this check.
        struct Owner {
            var app: Int
            var intent: Int
            var phrase: IntentGraph.Phrase
        }
        var ids: [String: UInt64] = [:]
        var foldedIDs: [String: UInt64] = [:]
        var slotIDs: [String: UInt64] = [:]
        var appIDs: [Int: UInt64] = [:]
        var slotsOf: (app: Int, intent: Int)?
        func intern(_ key: String) -> UInt64 {
            if let id = ids[key] { return id }
            let id = UInt64(ids.count + 1)
            ids[key] = id
            return id
        }
        func pieceID(_ piece: PhraseTemplate.Piece, app: Int, intent: Int) -> UInt64 {
            switch piece {
            case .word(let word):
                // A word already folded (ASCII without capitals or spaces, as nearly every word is
                // written) is its own key: interned at once, not looked up by its spelling first and
                // remembered under it after (most words are new: each an intent's own verb).
                if Self.isFolded(word) { return intern(word) }
                if let id = foldedIDs[word] { return id }
                let id = intern(TextFolding.foldPhrase(word))
                foldedIDs[word] = id
                return id
            case .app:
                if let id = appIDs[app] { return id }
                let id = intern("{app:\(apps[app].name)}")
                appIDs[app] = id
                return id
            case .slot(let slot):
                // A slot says its parameter's type; the intent's phrases name the same slots again and again.
                if slotsOf?.app != app || slotsOf?.intent != intent {
                    slotsOf = (app, intent)
                    slotIDs.removeAll(keepingCapacity: true)
                }
                if let id = slotIDs[slot] { return id }
                // The parameter found in place: `parameter(_:)` on the intent copied the intent (and
                // each parameter it passed) for every slot.
                var type: String?
                let parameters = apps[app].intents[intent].parameters
                for index in parameters.indices where parameters[index].name == slot {
                    type = parameters[index].type.description
                    break
                }
                let id = intern("{\(type ?? slot)}")
                slotIDs[slot] = id
                return id
            }
        }

        // Every sentence's hash with the phrase that says it; sorting brings equal sentences together.
        var claimed: [Owner] = []
        var sentences: [(key: PhraseTemplate.SentenceHash, owner: Int32)] = []
        for a in apps.indices {
            var sources: [(intent: Int, phrase: IntentGraph.Phrase)] = []
            for i in apps[a].intents.indices {
                for phrase in apps[a].intents[i].phrases { sources.append((i, phrase)) }
            }
            for shortcut in apps[a].shortcuts {
                guard let i = apps[a].intents.firstIndex(where: { $0.name == shortcut.intent }) else { continue }
                for phrase in shortcut.phrases { sources.append((i, phrase)) }
            }
            for (i, phrase) in sources {
                let language = PhraseTemplate.SentenceHash(
                    hash: intern("lang:" + phrase.language), power: PhraseTemplate.SentenceHash.base)
                guard
                    let hashes = phrase.template.sentenceHashes(
                        rules: apps[a].rules, { pieceID($0, app: a, intent: i) })
                else { continue }
                let owner = Int32(claimed.count)
                claimed.append(Owner(app: a, intent: i, phrase: phrase))
                for hash in hashes { sentences.append((language.appending(hash), owner)) }
            }
        }
        // Only a sentence said more than once can clash: the rest leave before the sort, which
        // was a third of this check (the runs of equal sentences, and so the reports, come out as
        // they did when every sentence was sorted).
        sentences = Self.repeated(sentences)
        // Stable: within a run of equal sentences the first phrase read owns it.
        sentences.sort { ($0.key.hash, $0.key.power, $0.owner) < ($1.key.hash, $1.key.power, $1.owner) }
        var reported: Set<Int32> = []
        var start = 0
        while start < sentences.count {
            var end = start + 1
            while end < sentences.count, sentences[end].key == sentences[start].key { end += 1 }
            let owner = claimed[Int(sentences[start].owner)]
            for index in (start + 1)..<end {
                let claimantIndex = sentences[index].owner
                let claimant = claimed[Int(claimantIndex)]
                guard claimant.app != owner.app || claimant.intent != owner.intent, !reported.contains(claimantIndex),
                    let words = sharedSentence(owner, claimant)
                else { continue }
                reported.insert(claimantIndex)
                let ownerName = apps[owner.app].intents[owner.intent].name
                let claimantName = apps[claimant.app].intents[claimant.intent].name
                let note = [Diagnostic.Note("'\(ownerName)' says it here", at: owner.phrase.location)]
                if ownerName.app == claimantName.app {
                    diagnostics.error(
                        "'\(words)' is a phrase of both '\(ownerName.name)' and '\(claimantName.name)'",
                        at: claimant.phrase.location, notes: note)
                } else {
                    diagnostics.warning(
                        "'\(words)' is a phrase of both '\(ownerName)' and '\(claimantName)'; people will have to name the app",
                        at: claimant.phrase.location, notes: note)
                }
            }
            start = end
        }

        /// A sentence both phrases produce, as the second one writes it; nil on a mere hash collision.
        func sharedSentence(_ a: Owner, _ b: Owner) -> String? {
            guard a.phrase.language == b.phrase.language,
                let first = a.phrase.template.expansions(
                    rules: apps[a.app].rules, limit: 4096, { pieceID($0, app: a.app, intent: a.intent) }),
                let second = b.phrase.template.expansions(rules: apps[b.app].rules, limit: 4096),
                let index = second.firstIndex(where: { sentence in
                    Set(first).contains(sentence.map { pieceID($0, app: b.app, intent: b.intent) })
                })
            else { return nil }
            return second[index].map { piece -> String in
                switch piece {
                case .word(let word): word
                case .app: apps[b.app].name
                case .slot(let slot): "{\(slot)}"
                }
            }.joined(separator: " ")
        }
    }
}

extension Compiler {
    /// Whether `TextFolding.foldPhrase(word)` is `word` itself, decided on its bytes: ASCII with no
    /// capital letter and no whitespace (what `foldASCIIPhrase` hands back unchanged).
    static func isFolded(_ word: String) -> Bool {
        word.utf8.allSatisfy { byte in
            byte < 0x80 && !(byte >= 0x41 && byte <= 0x5A) && !((byte >= 0x09 && byte <= 0x0D) || byte == 0x20)
        }
    }

    /// The sentences whose hash occurs more than once, in their order. Counted in an open-addressed
    /// table of the hashes themselves (they are hashes already: no hashing again, no allocation per
    /// sentence).
    static func repeated(
        _ sentences: [(key: PhraseTemplate.SentenceHash, owner: Int32)]
    ) -> [(key: PhraseTemplate.SentenceHash, owner: Int32)] {
        guard sentences.count > 1 else { return [] }
        var capacity = 16
        while capacity < sentences.count * 2 { capacity <<= 1 }
        let mask = capacity - 1
        // A slot: the key and how often it came (0: empty).
        var hashes = [UInt64](repeating: 0, count: capacity)
        var powers = [UInt64](repeating: 0, count: capacity)
        var counts = [UInt8](repeating: 0, count: capacity)
        func slot(_ key: PhraseTemplate.SentenceHash) -> Int {
            var index = Int(truncatingIfNeeded: (key.hash ^ (key.power &* 0x9E37_79B9_7F4A_7C15)) >> 7) & mask
            while counts[index] != 0, hashes[index] != key.hash || powers[index] != key.power {
                index = (index + 1) & mask
            }
            return index
        }
        var repeats = 0
        for sentence in sentences {
            let index = slot(sentence.key)
            if counts[index] == 0 {
                hashes[index] = sentence.key.hash
                powers[index] = sentence.key.power
                counts[index] = 1
            } else {
                if counts[index] == 1 { repeats += 1 }
                counts[index] = 2
            }
        }
        var result: [(key: PhraseTemplate.SentenceHash, owner: Int32)] = []
        guard repeats > 0 else { return result }
        for sentence in sentences where counts[slot(sentence.key)] > 1 { result.append(sentence) }
        return result
    }
}

extension PhraseTemplate {
    /// Whether every sentence of the template names the app.
    func mentionsApp(rules: [String: PhraseTemplate]) -> Bool {
        func mentions(_ items: [Item]) -> Bool {
            items.contains { item in
                switch item {
                case .app: true
                case .rule(let name, _): rules[name].map { mentions($0.items) } ?? false
                case .alternatives(let branches): branches.allSatisfy(mentions)
                default: false
                }
            }
        }
        return mentions(items)
    }
}
