import IntentModel

extension Matcher {
    /// What the classifier reads for a word that is a record's name: no word it knows.
    static let recordNameWord = "\u{2026}"

    /// The positions of `words` that say a record's name exactly ("rust" when a radar is called so),
    /// longest names first. They are values: the classifier learnt values as words it does not know
    /// (training reads a record's name as free text), but a name can be a word the definitions have
    /// ("rust" is a topic in Create Radar's `training:` sentences), which then spoke for that intent
    /// ("how is rust doing" leant towards tracking rust anew).
    func recordNames(in words: [String]) -> Set<Int> {
        guard let entities, !words.isEmpty else { return [] }
        let lookup = entities.forPhrase()
        let types = index.graph.entities.map(\.name)
        var named: Set<Int> = []
        var start = 0
        while start < words.count {
            var length = min(4, words.count - start)
            while length > 0 {
                let text = words[start..<(start + length)].joined(separator: " ")
                if text.count > 2,
                    types.contains(where: { type in
                        lookup.lookup(text, entity: type).contains { $0.distance == 0 && $0.name.lowercased() == text }
                    })
                {
                    break
                }
                length -= 1
            }
            if length > 0 {
                named.formUnion(start..<(start + length))
                start += length
            } else {
                start += 1
            }
        }
        return named
    }

    /// The learned stage's reading of `text`, for when `recognize` found nothing: the closest
    /// intent, its calibrated confidence and what to do with it (act, ask, nothing), with slot
    /// values found by matching the sentence with one unknown word left out, else by aligning its
    /// words with the intent's phrases and parsing what is left as the intent's slots.
    /// nil when no word of the sentence is known at all.
    public func guess(
        _ text: String, language: String? = nil, model: LearnedModel,
        thresholds: (String) -> LearnedThresholds = { _ in .standard },
        phrasesOf: ((QualifiedName) -> PhraseIndex?)? = nil,
        trainingOf: ((QualifiedName) -> PhraseIndex?)? = nil, wordingOf: ((String) -> Set<String>)? = nil,
        tagger: (() -> SlotTagger)? = nil,
        choosing: QualifiedName? = nil
    ) -> LearnedGuess? {
        let tokens = Normalizer.tokens(text)
        guard !tokens.isEmpty, tokens.count <= Normalizer.maximumTokens else { return nil }
        let kept = tokens.indices.filter { !Matcher.fillers.contains(tokens[$0].text) }
        let words = kept.map { tokens[$0].text }
        let named = recordNames(in: words)
        let evidence = model.evidence(
            named.isEmpty ? words : words.indices.map { named.contains($0) ? Self.recordNameWord : words[$0] },
            choosing: choosing.flatMap { model.intents.firstIndex(of: $0) }.map(Int32.init))
        guard evidence.best >= 0 else { return nil }
        let intentName = model.intents[Int(model.classIntent[Int(evidence.best)])]
        guard let intent = index.graph.intent(intentName) else { return nil }
        let limits = thresholds(intentName.app)
        var confidence = model.confidence(evidence)
        // The sentence less one word no phrase has, matched exactly by the same intent: an inserted
        // word ("what's my fortune today in fortune"). As sure as a typo the exact matcher corrects.
        let (ids, _) = model.ids(words)
        let unknown = zip(kept, ids).filter { $0.1 < 0 }.map(\.0)
        // The definitions' words that WordNet linked the sentence's own words to ("erase" → "delete").
        let linked = Set(evidence.links.flatMap(\.known).compactMap { model.wordIDs[$0] })
        // Each try searches the intent's own phrases (a trie of its own, when the stage keeps one),
        // and only for sentences the model finds plausible at all.
        let narrow = phrasesOf?(intentName).map { Matcher(index: $0, entities: entities, clock: clock) } ?? self
        // The sentence is a `training:` sentence's wording with other values ("take buy stamps off
        // my list" for "take [mow the lawn](task) off my list"): the author's own example of a request,
        // as plain as a phrase (the exact matcher reads phrases only). Searched in the intent's own
        // trie of them (`LearnedStage.frames(of:)`). The sentence as said, not less a word: an
        // example is one way to say it, not its wording.
        var framed: String?
        var aligned: (slots: [Candidate.Slot], dropped: Int)?
        if confidence >= Self.alignmentFloor, let frames = trainingOf?(intentName),
            let whole = Matcher(index: frames, entities: entities, clock: clock).matchWhole(tokens, intent: intentName)
        {
            aligned = (whole.slots, -1)
            framed = whole.template
        }
        if aligned == nil, confidence >= Self.alignmentFloor {
            aligned = narrow.dropOne(tokens, candidates: Array(unknown.prefix(3)), intent: intentName)
        }
        var restored: String?
        var tagging: TaggerReading?
        // Or a phrase of it with a word WordNet linked read as the word it stands for ("erase my rust
        // radar" as "delete my rust radar"): the values are the sentence's own words, as said.
        var substituted: (said: String, word: String)?
        if aligned == nil, confidence >= Self.alignmentFloor, !evidence.links.isEmpty {
            if let found = narrow.substituteOne(tokens, kept: kept, links: evidence.links, intent: intentName) {
                aligned = (found.slots, -1)
                substituted = (found.said, found.word)
            }
        }
        // Or a phrase of it but for one article, possessive or preposition the phrase needs
        // ("add milk my tasks"): the words that say what is meant are all there.
        if aligned == nil, confidence >= Self.alignmentFloor, unknown.isEmpty || tokens.count <= 12 {
            let missing = model.functionWords(of: evidence.best).filter { !ids.contains($0) }
            if let found = narrow.insertOne(tokens, words: missing.map { model.words[Int($0)] }, intent: intentName) {
                aligned = (found.slots, -1)
                restored = found.word
            }
        }
        if aligned != nil { confidence = max(confidence, Self.alignedConfidence) }
        var decision: LearnedGuess.Decision =
            confidence >= limits.act ? .act : confidence >= limits.ask ? .ask : .none
        // Why a guess was worth a step less than its confidence (for `explain`).
        var demoted: String?
        // Whether the values said made it a step more (for `explain`).
        var promoted = false
        let template = model.classTemplate[Int(evidence.best)]
        // Answered in the language asked for, else the one the sentence's own words are in ("set buy
        // milk to urgent" is English even when its closest phrase is "setz {title} auf die liste"),
        // else the closest phrase's.
        let language =
            language ?? self.language(of: tokens) ?? intent.phrases.first { $0.template.source == template }?.language
            ?? "en"
        var candidate = Candidate(
            intent: intentName, template: template, language: language, slots: [], score: Score(), namedApp: nil,
            isNegative: false)
        // The slot tagger's reading of the sentence as this intent, its values widened; nil when
        // there is no tagger.
        func taggedSlots() -> [Candidate.Slot]? {
            tagging = tagger.flatMap { $0().reading(tokens, intent: intent, matcher: self) }
            return tagging.map {
                widened(
                    $0.slots, tokens: tokens, unknown: Set(unknown), intent: intent,
                    appWording: wordingOf?(intentName.app))
            }
        }
        if let aligned, framed != nil {
            // Which words are values the tagger reads best: a training sentence is one example of
            // the wording, and others of the same shape name other slots ("i need a table for
            // {party_size_number}" and "… for {restaurant_name}").
            candidate.slots = taggedSlots() ?? aligned.slots
        } else if let aligned {
            candidate.slots = aligned.slots
        } else if decision != .none {
            // The tagger fills the slots when there is one (`Tagging/`); the alignment below otherwise.
            let alignment = narrow.slots(
                tokens, kept: kept, model: model, cls: evidence.best, intent: intent, links: evidence.links)
            candidate.slots = taggedSlots() ?? alignment
            // Values made only of words no phrase has, and the phrase's most telling word missing
            // ("open the camera" for "open the radar on {radar}", "open settings"): another app's
            // request in this one's words, perhaps. Unless the tagger, reading the sentence as this
            // intent, finds the values where the unknown words are (the classifier and the tagger
            // agree), a guess the classifier is not sure of asks rather than act. A plausible guess
            // still asks: between the thresholds is what "Did you mean …?" is for.
            if decision == .act, confidence < Self.sure(limits), !alignment.isEmpty,
                alignment.allSatisfy({ !$0.typed }),
                let telling = model.tellingWord(of: evidence.best), !ids.contains(telling), !linked.contains(telling),
                !Self.agrees(tagging, unknown: unknown)
            {
                decision = .ask
                demoted = "its values are words no phrase has, and its telling word is not said"
            }
        }
        // Carried by small words alone: every word of the sentence the definitions know is an
        // article, a pronoun, a preposition, a verb or noun that means too many things, or a date or
        // number by itself, and WordNet linked none ("put on a jazz record" for "put {topic} on my
        // radar", "what's the weather like today" for "what's my fortune for today"): another app's
        // request in this one's small words, perhaps, however sure the classifier is of them, when
        // the phrase's most telling word is not said either. Such a guess is worth a step less: it
        // asks rather than act, and says nothing rather than ask.
        if decision != .none, aligned == nil, evidence.links.isEmpty,
            let telling = model.tellingWord(of: evidence.best), !ids.contains(telling),
            !zip(kept, ids).contains(where: { position, id in
                id >= 0 && Self.saysWhatIsMeant(model.words[Int(id)]) && !isValue(tokens[position])
            })
        {
            decision = decision == .act ? .ask : .none
            demoted = "carried by small words alone"
        }
        // Said backwards: more of its neighbouring words stand the other way round in the intent's
        // phrases than in their order, the sentence's edges counted when it starts with a word its
        // phrases end with and neither they nor its `training:` sentences start with, or ends with
        // one they start with ("compatibility libra and capricorn" for "capricorn and libra
        // compatibility"; `LearnedModel.readsBackwards`).
        // Ask rather than act.
        // Or its words, said in the other order, are one of the intent's phrases ("career for
        // horoscope" for "horoscope for career": "for" is a filler, which the classifier and the
        // word order above never see), or of another intent's: "urgent fence garden task the make"
        // is "make the task garden fence urgent" backwards, no new task however its values fit one.
        // A value of the intent's (a zodiac sign, "money") is no word of its wording: which phrase a
        // sampled value happened to start or end says nothing of the order ("leo and scorpio, good
        // match?" starts with a sign as no phrase's sample does).
        let valuePositions = enumValuePositions(in: tokens, intent: intent)
        let wordIDs = zip(kept, ids).map { valuePositions.contains($0.0) ? LearnedModel.valueMarker : $0.1 }
        // An intent of `LearnedModel.orderJudgedFrom` phrases or more is left to the classifier,
        // which learnt each of them said backwards as none's: over so many phrases some word ends one
        // and starts none.
        // Never a sentence that says its closest phrase or `training:` sentence in that sentence's
        // own order ("don't let me forget to book the flights", a training sentence word for word).
        let saidBackwards =
            decision != .none && evidence.pairCoverage < Self.inItsOrder
            && model.phraseClasses(of: evidence.best).count < LearnedModel.orderJudgedFrom
            && (model.readsBackwards(wordIDs, cls: evidence.best) || isPhraseBackwards(tokens))
        if decision == .act, saidBackwards {
            decision = .ask
            demoted = "its phrase said backwards"
        }
        // About the app itself: every phrase of the intent names its app ("open the radar settings",
        // "my radar profile"). Said without the app's name ("open settings", "show me the settings")
        // the request is about something else, the phone's settings or another app's: no guess.
        if decision != .none, phrasesAllName(intent), !saysAppName(tokens, app: intentName.app) {
            decision = .none
            demoted = "every phrase of it names its app, and the sentence does not"
        }
        // Another app named outside the values ("add a sidebar task to call the bank" guessed as
        // FocusBlox's Create Task): the sentence says which app it is for, and the guess is not
        // that app's. Asked about, never acted on.
        if decision == .act, let other = otherAppNamed(tokens, besides: intentName.app, slots: candidate.slots) {
            decision = .ask
            demoted = "the sentence names another app, \(other)"
        }
        // A sentence that says not to do something ("don't delete the rust radar", "never start a
        // focus block") asks for nothing, however close its other words are to a phrase, unless the
        // intent's own phrases or `training:` sentences start so ("don't let me forget to …").
        // Not to forget (or miss) something is to be reminded of it: "don't forget to buy milk" asks.
        if decision != .none, let verb = Self.saysNotTo(tokens.map(\.text)),
            !Self.remindingVerbs.contains(verb),
            !startsSaying(notTo: verb, intent)
        {
            decision = .none
            demoted = "the sentence says not to do it"
        }
        // A word that turns a request around ("stop", "cancel", "end"), said outside the values of a
        // request (not a question) where neither the intent's phrases nor its `training:` sentences
        // have it: "stop showing my fortune on the lock screen" is no "show my fortune on the lock
        // screen", however close its words. Asked about, never acted on, however sure the classifier
        // is; the intent after it that says that word ("stop" for Stop Fortune Tracking, 0.17) is
        // asked about instead.
        if decision != .none, choosing == nil,
            let word = reversingWord(in: tokens, slots: candidate.slots, intent: intent)
        {
            for (other, probability) in evidence.ranking.dropFirst()
            where probability >= Self.reversedRunnerUpFloor {
                let name = model.intents[Int(other)]
                guard let otherIntent = index.graph.intent(name),
                    reversingWord(in: tokens, slots: [], intent: otherIntent) == nil,
                    var instead = guess(
                        text, language: language, model: model, thresholds: thresholds, phrasesOf: phrasesOf,
                        trainingOf: trainingOf, wordingOf: wordingOf, tagger: tagger, choosing: name),
                    instead.decision == .ask || instead.demotedBecause == nil
                else { continue }
                instead.decision = .ask
                instead.demotedBecause =
                    "asked instead of \(intent.title), whose phrases never say \"\(word)\""
                return instead
            }
            if decision == .act {
                decision = .ask
                demoted = "\"\(word)\" turns the request around, and no phrase of it says so"
            }
        }
        // The classifier learnt such sentences as none's: only a guess it is not sure of is checked so.
        let sure = confidence >= Self.sure(limits)
        // A word no phrase has between a determiner and the phrase's word the sentence ends with says
        // which thing is meant, and the phrase does not ("what's on my shopping list" for "what's on
        // my list"): another thing than the phrase's, perhaps. Worth a step less: it asks rather than
        // act, and says nothing rather than ask ("put eggs on the shopping list" is no "put {topic}
        // on my watch list").
        func inPhrase(_ word: String) -> Bool {
            model.wordIDs[word].map { model.weight(of: $0, in: evidence.best) > 0 } ?? false
        }
        // A word known only through WordNet is no phrase's either, however sure the classifier is:
        // it never saw that word ("put eggs on the grocery list", "grocery" read as "market", a word
        // of a topic in a `training:` sentence, was 0.96 sure of Create Radar).
        let linkedOnly = evidence.links.flatMap { $0.span.map { kept[$0] } }
        let modified =
            aligned == nil
            && ((!sure ? unknown : []) + linkedOnly).contains(where: {
                Matcher.modifiesLast(tokens, at: $0) && inPhrase(tokens[$0 + 1].text)
            })
        if decision != .none, modified {
            decision = decision == .act ? .ask : .none
            demoted = "a word no phrase has says which thing is meant"
        }
        candidate.slots = candidate.slots.map { slot in
            let type = intent.parameters.first { $0.name == slot.name }.flatMap { parameter in
                if case .entity(let entity) = parameter.type { entity.name.lowercased() } else { nil }
            }
            return Self.trimmed(slot, tokens: tokens, typeName: type)
        }
        let intentClass = model.classIntent[Int(evidence.best)]
        let templates = Set(intent.phrases.map(\.template.source))
        func phraseHas(_ position: Int) -> Bool {
            guard let id = model.wordIDs[tokens[position].text] else { return false }
            return model.classIntent.indices.contains {
                model.classIntent[$0] == intentClass && templates.contains(model.classTemplate[$0])
                    && model.weight(of: id, in: Int32($0)) > 0
            }
        }
        // A plausible guess whose sentence names values of the intent's own enums, each taken by one
        // of its slots ("gemini and aries, do they match", "any luck with money today?"): the values
        // say which intent is meant as much as its words do. It acts rather than ask "Did you mean …?".
        // And a word of its own besides the values says what is meant ("luck", "match"): "I love you"
        // names a fortune type and nothing else of the fortune's.
        let saysMore = zip(kept, ids).contains { position, id in
            id >= 0 && !valuePositions.contains(position) && Self.saysWhatIsMeant(model.words[Int(id)])
                && inPhrase(model.words[Int(id)]) && !isValue(tokens[position])
        }
        if decision == .ask, demoted == nil, !saidBackwards, !modified, saysMore, !valuePositions.isEmpty {
            let filled = candidate.slots + valueSlots(in: tokens, intent: intent, besides: candidate.slots)
            // Every value word in a slot, or a word of the intent's own phrases ("today" in "any luck
            // with money today?"), and one at least in a slot that the phrases do not have as their
            // own: "today" alone says nothing of the intent ("what's the news today" is no fortune).
            let inSlot = valuePositions.filter { position in
                filled.contains { $0.typed && $0.span.contains(position) }
            }
            let wording = literalWords(of: intent)
            if inSlot.contains(where: { !wording.contains(tokens[$0].text) }),
                valuePositions.allSatisfy({ inSlot.contains($0) || wording.contains(tokens[$0].text) })
            {
                decision = .act
                promoted = true
            }
        }
        // A value of the one parameter of its type no slot has, said anywhere, fills that slot
        // rather than make a sure guess ask about it.
        if decision == .act {
            candidate.slots = (candidate.slots + valueSlots(in: tokens, intent: intent, besides: candidate.slots))
                .sorted { $0.span.lowerBound < $1.span.lowerBound }
        }
        candidate.slots = Self.inAuthorsOrder(candidate.slots, intent: intent)
        // A word naming a value no slot took is never dropped in silence: asked about instead.
        // Decided here, with the rest, so that `say`, `explain` and the question's "yes" agree.
        // A word the intent's own phrase templates have outside their slots is the phrase's, not a
        // value ("today" in "how's my {fortuneType} luck [today]"): the author placed it there. Not
        // a `training:` sentence's word: those are examples, not the intent's wording.
        if decision == .act, let word = droppedValueWord(in: tokens, candidate, besides: phraseHas) {
            decision = .ask
            demoted = "\"\(word)\" names a value no slot took"
        }
        let total = evidence.carried.reduce(Float(0)) { $0 + $1.weight }
        var guess = LearnedGuess(
            candidate: candidate, confidence: confidence, decision: decision, thresholds: limits, template: template,
            runnerUp: evidence.ranking.count > 1
                ? (model.intents[Int(evidence.ranking[1].intent)], evidence.ranking[1].probability) : nil,
            similarity: Double(evidence.bestScore), pairCoverage: Double(evidence.pairCoverage),
            known: Double(evidence.known),
            alignedLeavingOut: aligned.flatMap { $0.dropped >= 0 ? tokens[$0.dropped].raw : nil },
            alignedAdding: restored, alignedTraining: framed,
            carriedBy: evidence.carried.prefix(4).map {
                (
                    Self.describe($0.feature, links: evidence.links, words: words, ids: ids, model: model),
                    total > 0 ? Double($0.weight / total) : 0
                )
            }, tagging: tagging)
        guess.readAs =
            substituted.map { [($0.said, [$0.word])] }
            ?? evidence.links.map { link in (link.span.map { words[$0] }.joined(separator: " "), link.known) }
        guess.ranking = evidence.ranking.map { (model.intents[Int($0.intent)], $0.probability) }
        guess.noneProbability = evidence.noneProbability
        guess.demotedBecause = demoted
        guess.promotedByValues = promoted
        return guess
    }

    /// A classifier feature as a person reads it; a word the sentence has only through a WordNet link
    /// says so: `"erase" as "delete"`.
    static func describe(
        _ feature: String, links: [LearnedModel.Link], words: [String], ids: [Int32], model: LearnedModel
    ) -> String {
        guard feature.hasPrefix("w:") else { return LearnedClassifier.describe(feature) }
        let word = String(feature.dropFirst(2))
        guard !ids.contains(where: { $0 >= 0 && model.words[Int($0)] == word }),
            let link = links.first(where: { $0.known.contains(word) })
        else { return LearnedClassifier.describe(feature) }
        return "\"" + link.span.map { words[$0] }.joined(separator: " ") + "\" as \"" + word + "\""
    }

    /// Whether the sentence's words (`tokens`; the two halves of a contraction one word), said in the
    /// other order, are exactly a phrase, of any intent.
    fileprivate func isPhraseBackwards(_ tokens: [Token]) -> Bool {
        var words: [[Token]] = []
        for token in tokens {
            if let source = token.source, let last = words.last?.last?.source, last == source {
                words[words.count - 1].append(token)
            } else {
                words.append([token])
            }
        }
        guard words.count >= 2 else { return false }
        var search = Search(matcher: self, tokens: Array(words.reversed().joined()), language: nil)
        search.run(.exact)
        return search.found.contains { !$0.isNegative && $0.score.literalWords >= 2 }
    }

    /// Whether every phrase of `intent` has its app's name outside any group and slot.
    func phrasesAllName(_ intent: IntentGraph.Intent) -> Bool {
        let names = index.appNames.filter { $0.app == intent.name.app }.map(\.tokens)
        guard !names.isEmpty, !intent.phrases.isEmpty else { return false }
        return intent.phrases.allSatisfy { phrase in
            var depth = 0
            var plain = ""
            for character in phrase.template.source {
                switch character {
                case "(", "[", "{", "<": depth += 1
                case ")", "]", "}", ">": depth = max(0, depth - 1)
                default: if depth == 0 { plain.append(character) }
                }
            }
            let words = Normalizer.tokens(plain).map(\.text)
            return names.contains { name in Self.contains(words, name) }
        }
    }

    /// Verbs that, said not to do, ask to be reminded: "don't forget to buy milk".
    static let remindingVerbs: Set<String> = ["forget", "miss", "vergessen"]

    /// The word after "don't", "do not", "never" or "nicht" when `words` start so, after fillers
    /// ("" when nothing follows); nil when they do not.
    static func saysNotTo(_ words: [String]) -> String? {
        let said = words.drop { Matcher.fillers.contains($0) }
        guard let first = said.first else { return nil }
        let rest = said.dropFirst()
        // "never mind, …" takes back what was said before; it says not to do nothing.
        if first == "never", rest.first == "mind" { return nil }
        if first == "dont" || first == "never" || first == "nicht" { return rest.first ?? "" }
        if first == "do", rest.first == "not" { return rest.dropFirst().first ?? "" }
        return nil
    }

    /// Whether a phrase template or `training:` sentence of `intent` starts by saying not to do
    /// what `verb` says ("don't let me forget to …" asks for a task; "don't add …" does not).
    func startsSaying(notTo verb: String, _ intent: IntentGraph.Intent) -> Bool {
        intent.training.contains { Self.saysNotTo(Normalizer.tokens($0).map(\.text)) == verb }
            || intent.phrases.contains { phrase in
                let source = phrase.template.source.drop { "[(".contains($0) }
                return Self.saysNotTo(Normalizer.tokens(String(source.prefix(24))).map(\.text)) == verb
            }
    }

    /// A word of the sentence, outside `slots`, that turns a request around (`LearnedWords.reversing`)
    /// and that neither `intent`'s phrases nor its `training:` sentences have; nil when there is none
    /// or the sentence is a question.
    func reversingWord(in tokens: [Token], slots: [Candidate.Slot], intent: IntentGraph.Intent) -> String? {
        // A question asks about what it names: "when does my focus block end" ends nothing.
        if let first = tokens.first(where: { !Matcher.fillers.contains($0.text) })?.text,
            Matcher.questionWords.contains(first) || LearnedWords.questionStarts.contains(first)
        {
            return nil
        }
        let said = tokens.indices.filter { position in
            LearnedWords.reversing.contains(tokens[position].text) && !slots.contains { $0.span.contains(position) }
        }
        guard !said.isEmpty else { return nil }
        var wording = literalWords(of: intent)
        for sentence in intent.training { wording.formUnion(Normalizer.tokens(sentence).map(\.text)) }
        return said.first { !wording.contains(tokens[$0].text) }.map { tokens[$0].raw }
    }

    /// The words the phrase templates of `intent` spell out, outside their slots ("today" in
    /// "what does the future hold [for me] [today]"): its wording, not values.
    func literalWords(of intent: IntentGraph.Intent) -> Set<String> {
        var words: Set<String> = []
        for phrase in intent.phrases {
            var depth = 0
            var plain = ""
            for character in phrase.template.source {
                switch character {
                case "{", "<": depth += 1
                case "}", ">": depth = max(0, depth - 1)
                case "(", ")", "[", "]", "|": plain.append(" ")
                default: if depth == 0 { plain.append(character) }
                }
            }
            words.formUnion(Normalizer.tokens(plain).map(\.text))
        }
        return words
    }

    /// Whether the sentence says one of `app`'s names.
    func saysAppName(_ tokens: [Token], app: String) -> Bool {
        let words = tokens.map(\.text)
        return index.appNames.contains { $0.app == app && Self.contains(words, $0.tokens) }
    }

    /// An app other than `app` that the sentence names outside `slots` (a value may hold an app's
    /// name: "the fortune cookie task"), unless it names `app` too; nil when there is none.
    func otherAppNamed(_ tokens: [Token], besides app: String, slots: [Candidate.Slot]) -> String? {
        let words = tokens.indices.map { position in
            slots.contains { $0.span.contains(position) } ? "" : tokens[position].text
        }
        let named = Set(index.appNames.filter { Self.contains(words, $0.tokens) }.map(\.app))
        guard !named.contains(app) else { return nil }
        return named.sorted().first
    }

    static func contains(_ words: [String], _ run: [String]) -> Bool {
        guard !run.isEmpty, run.count <= words.count else { return false }
        return (0...(words.count - run.count)).contains { Array(words[$0..<($0 + run.count)]) == run }
    }

    /// Whether a known word says what is meant: not an article, pronoun or preposition, nor an
    /// everyday verb or noun that means too many things ("put", "get", "thing").
    static func saysWhatIsMeant(_ word: String) -> Bool {
        !LearnedWords.functionWords.contains(word) && !LearnedWords.lightWords.contains(word)
    }

    /// Whether a word is a date, a duration or a number by itself ("today", "five"): a value, which
    /// says nothing of which intent is meant.
    fileprivate func isValue(_ token: Token) -> Bool {
        [ValueType.date, .duration, .number].contains { type in
            SlotParser.options(for: type, tokens: [token], at: 0, matcher: self).contains { $0.typed && $0.length == 1 }
        }
    }

    /// Whether the tagger's reading backs a guess: it found values, every one parses, and every word
    /// the model does not know (at `unknown`) is inside one of them, so no word is left unexplained.
    static func agrees(_ reading: TaggerReading?, unknown: [Int]) -> Bool {
        guard let reading, !reading.slots.isEmpty, reading.rejected.isEmpty,
            reading.slots.allSatisfy({ $0.problem == nil })
        else { return false }
        return unknown.allSatisfy { position in reading.slots.contains { $0.span.contains(position) } }
    }

    /// Two values of one enum in the order the author always says them: when every phrase template
    /// and `training:` sentence of the intent that has both slots puts `yourSign` before
    /// `theirSign`, a guess that read them the other way round ("check how a gemini gets along with
    /// a capricorn" with your sign capricorn) has them swapped back: the first said is the first.
    /// Only enums: their words fit either slot, where free text's words say which slot they are.
    static func inAuthorsOrder(_ slots: [Candidate.Slot], intent: IntentGraph.Intent) -> [Candidate.Slot] {
        guard slots.count >= 2 else { return slots }
        var orders: [[String]] = intent.phrases.map { phrase in
            let source = phrase.template.source
            var names: [String] = []
            var rest = source[...]
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                names.append(String(rest[rest.index(after: open)..<close]))
                rest = rest[rest.index(after: close)...]
            }
            return names
        }
        orders += intent.trainingSentences.map { $0.pieces.compactMap(\.slot) }
        var slots = slots
        for i in slots.indices {
            for j in slots.indices where j != i {
                let first = slots[i].name, second = slots[j].name
                guard slots[i].span.lowerBound > slots[j].span.lowerBound,
                    let a = intent.parameters.first(where: { $0.name == first }),
                    let b = intent.parameters.first(where: { $0.name == second }), a.type == b.type,
                    case .enumeration = a.type
                else { continue }
                let both = orders.filter { $0.contains(first) && $0.contains(second) }
                guard !both.isEmpty,
                    both.allSatisfy({ $0.firstIndex(of: first)! < $0.firstIndex(of: second)! })
                else { continue }
                (slots[i].name, slots[j].name) = (second, first)
            }
        }
        return slots
    }

    /// The tagger's free-text and name values widened over the words next to them that no phrase
    /// or `training:` sentence has ("the chip shortage" for "the chip" in "anything new on the chip
    /// shortage"): a word the definitions never saw says no part of the request's wording, and
    /// dropped it changes the value in silence. Not over another value, nor over a misspelling of
    /// the intent's own wording ("radr").
    /// Nor, before a value, over a word the definitions know from another app's wording only
    /// (`appWording`, the words of the intent's app) when it says something ("self" in "add self
    /// driving cars to my radar", known from Side Bar's "note to self"): to this app it is a word no
    /// phrase has, and a word before a name is its modifier more often than a word after it, which
    /// is more often the sentence going on ("seven wants to eat").
    func widened(
        _ slots: [Candidate.Slot], tokens: [Token], unknown: Set<Int>, intent: IntentGraph.Intent,
        appWording: Set<String>? = nil
    ) -> [Candidate.Slot] {
        guard slots.contains(where: { !$0.typed }) else { return slots }
        let wording = literalWords(of: intent)
        func isValueWord(_ position: Int, before: Bool = false) -> Bool {
            guard !slots.contains(where: { $0.span.contains(position) }) else { return false }
            let word = tokens[position].text
            guard unknown.contains(position) else {
                guard before, let appWording else { return false }
                return word.utf8.count >= 3 && !Self.smallWords.contains(word) && !appWording.contains(word)
                    && !isValue(tokens[position])
            }
            return word.utf8.count < 4
                || !wording.contains { $0.utf8.count >= 4 && EditDistance.within($0, word, limit: 1) != nil }
        }
        return slots.map { slot in
            guard !slot.typed, slot.problem == nil, slot.span.upperBound <= tokens.count else { return slot }
            var span = slot.span
            while span.upperBound < tokens.count, isValueWord(span.upperBound) {
                span = span.lowerBound..<(span.upperBound + 1)
            }
            while span.lowerBound > 0, isValueWord(span.lowerBound - 1, before: true) {
                span = (span.lowerBound - 1)..<span.upperBound
            }
            guard span != slot.span else { return slot }
            var slot = slot
            slot.span = span
            slot.value = .string(tokens.originalText(from: span.lowerBound, through: span.upperBound - 1))
            return slot
        }
    }

    /// Words that never widen a value: articles, prepositions, fillers, question words, pronouns and
    /// the verbs that hold a sentence together.
    static let smallWords: Set<String> =
        determiners.union(PhraseIndex.prepositions).union(introducingWords).union(closingWords).union(fillers)
        .union(questionWords).union(negations).union([
            "and", "or", "but", "not", "its", "is", "am", "are", "was", "were", "be", "been", "it", "they", "them",
            "she", "him", "we", "us", "one", "ones", "any", "all", "some", "every", "too", "also", "very", "really",
            "und", "oder", "aber", "ist", "sind", "bin", "es", "sie", "wir",
        ])

    /// A guessed entity name without the words that introduced it ("about groceries" for "delete the
    /// task about groceries", "the laundry" for "i finished the laundry"): names do not start so, and
    /// no template placed those words; nor with the words after it that say what kind of thing it is
    /// or when ("bike" for "the bike task is finished", "nuclear fusion" for "how do i feel about
    /// nuclear fusion again"): `typeName` is the entity's name ("task"), said after a record's name
    /// as people do. Free text keeps them (SNIPS's times are "at 7 pm", "in 2 hours").
    static func trimmed(_ slot: Candidate.Slot, tokens: [Token], typeName: String? = nil) -> Candidate.Slot {
        guard slot.entity, !slot.typed, slot.span.upperBound <= tokens.count else { return slot }
        var start = slot.span.lowerBound
        while slot.span.upperBound - start > 1,
            introducingWords.contains(tokens[start].text) || determiners.contains(tokens[start].text)
        {
            start += 1
        }
        var end = slot.span.upperBound
        while end - start > 1 {
            let word = tokens[end - 1].text
            // A closing word, the kind of thing named, or a preposition ("pumps in" of "… in radar").
            guard
                closingWords.contains(word) || PhraseIndex.prepositions.contains(word)
                    || (typeName.map { word == $0 || word == $0 + "s" } ?? false)
            else {
                break
            }
            end -= 1
        }
        guard start > slot.span.lowerBound || end < slot.span.upperBound else { return slot }
        var slot = slot
        slot.span = start..<end
        slot.value = .string(tokens.originalText(from: start, through: end - 1))
        return slot
    }

    /// How likely an intent after the classifier's first must be to be asked about instead, when the
    /// first never says a word of the sentence that turns a request around.
    static let reversedRunnerUpFloor = 0.05

    /// From this confidence on the classifier's guess is not second-guessed by the checks on telling
    /// words and modifiers (which it was trained on: substituted sentences are none's).
    /// Halfway from `act` to certainty: 0.9 with the default thresholds; an app that guesses boldly
    /// (a low `act`) trusts the classifier sooner.
    static func sure(_ limits: LearnedThresholds) -> Double { (1 + limits.act) / 2 }
    /// From this share of its neighbouring words (and its first and last) in the order of the closest
    /// phrase or `training:` sentence, a sentence is said in that order, not backwards.
    static let inItsOrder: Float = 0.8
    /// The confidence of a sentence that is a phrase of the guessed intent but for one unknown word.
    static let alignedConfidence = 0.9
    /// Below this confidence the sentence is not tried without its unknown words.
    static let alignmentFloor = 0.03

    /// The slots of `intent`'s best exact match of `tokens` with one of `candidates` left out, or nil.
    fileprivate func dropOne(_ tokens: [Token], candidates: [Int], intent: QualifiedName)
        -> (slots: [Candidate.Slot], dropped: Int)?
    {
        // Not a word between a determiner and the word the sentence ends with: it says which thing
        // is meant ("add milk to my shopping list" is not "add milk to my list").
        for dropped in candidates where !Matcher.modifiesLast(tokens, at: dropped) {
            if let slots = matchLeavingOut(tokens, dropped, intent: intent) { return (slots, dropped) }
        }
        return nil
    }

    /// The slots of `intent`'s best exact match of `tokens` with one linked word or phrase (`links`,
    /// over the `kept` words) read as a word it stands for, spans back on the sentence as said; nil
    /// when none matches or a value would hold the linked words.
    fileprivate func substituteOne(_ tokens: [Token], kept: [Int], links: [LearnedModel.Link], intent: QualifiedName)
        -> (slots: [Candidate.Slot], said: String, word: String)?
    {
        var budget = 6
        for link in links.prefix(3) where link.span.upperBound <= kept.count {
            let first = kept[link.span.lowerBound], last = kept[link.span.upperBound - 1]
            for word in link.known.prefix(3) {
                budget -= 1
                if budget < 0 { return nil }
                var changed = tokens
                changed.replaceSubrange(first...last, with: [Token(text: word, raw: word)])
                var search = Search(matcher: self, tokens: changed, language: nil)
                search.run(.exact)
                let own = search.found.filter { $0.intent == intent && !$0.isNegative }
                guard let best = own.max(by: { $0.score < $1.score }),
                    best.score.literalWords >= 2, best.score.freeWords <= best.score.literalWords
                else { continue }
                let shift = last - first
                let slots = best.slots.compactMap { slot -> Candidate.Slot? in
                    guard !slot.span.contains(first) else { return nil }
                    var slot = slot
                    let lower = slot.span.lowerBound > first ? slot.span.lowerBound + shift : slot.span.lowerBound
                    let upper = slot.span.upperBound > first ? slot.span.upperBound + shift : slot.span.upperBound
                    slot.span = lower..<upper
                    return slot
                }
                guard slots.count == best.slots.count else { continue }
                return (slots, tokens.originalText(from: first, through: last), word)
            }
        }
        return nil
    }

    /// The slots of `intent`'s best exact match of `tokens` with one of `words` put in somewhere.
    fileprivate func insertOne(_ tokens: [Token], words: [String], intent: QualifiedName)
        -> (slots: [Candidate.Slot], word: String)?
    {
        // At most a dozen searches: the two heaviest such words, where a small word can go (not
        // before itself, not after the last word unless the phrase ends so).
        var budget = 12
        for word in words.prefix(2) {
            for position in 0...tokens.count where position == tokens.count || tokens[position].text != word {
                budget -= 1
                if budget < 0 { return nil }
                var longer = tokens
                longer.insert(Token(text: word, raw: word), at: position)
                var search = Search(matcher: self, tokens: longer, language: nil)
                search.run(.exact)
                let own = search.found.filter { $0.intent == intent && !$0.isNegative }
                guard let best = own.max(by: { $0.score < $1.score }),
                    best.score.literalWords >= 2, best.score.freeWords <= best.score.literalWords
                else { continue }
                // Spans back onto the sentence as said: the inserted word is in no value.
                let slots = best.slots.compactMap { slot -> Candidate.Slot? in
                    guard !slot.span.contains(position) else { return nil }
                    var slot = slot
                    let lower = slot.span.lowerBound > position ? slot.span.lowerBound - 1 : slot.span.lowerBound
                    let upper = slot.span.upperBound > position ? slot.span.upperBound - 1 : slot.span.upperBound
                    slot.span = lower..<upper
                    return slot
                }
                guard slots.count == best.slots.count else { continue }
                return (slots, word)
            }
        }
        return nil
    }

    /// The slots and template of `intent`'s best exact match of the whole sentence, when its template
    /// words say more than its values (at least two of them, more than the values' words: "how's the
    /// stock market doing" says no more of Radar's "how is {radar} doing" than of any other question).
    fileprivate func matchWhole(_ tokens: [Token], intent: QualifiedName)
        -> (slots: [Candidate.Slot], template: String)?
    {
        var search = Search(matcher: self, tokens: tokens, language: nil)
        search.run(.exact)
        let own = search.found.filter { $0.intent == intent && !$0.isNegative }
        guard let best = own.max(by: { $0.score < $1.score }),
            best.score.literalWords >= 2, best.score.freeWords < best.score.literalWords
        else { return nil }
        return (best.slots, best.template)
    }

    private func matchLeavingOut(_ tokens: [Token], _ dropped: Int, intent: QualifiedName) -> [Candidate.Slot]? {
        var reduced = tokens
        reduced.remove(at: dropped)
        guard !reduced.isEmpty else { return nil }
        // Exact words only: the typo pass over a whole trie is what makes a search slow, and a
        // sentence with a typo besides the unknown word is left to the alignment below.
        var search = Search(matcher: self, tokens: reduced, language: nil)
        search.run(.exact)
        let own = search.found.filter { $0.intent == intent && !$0.isNegative }
        // A reading mostly of free text says little ("open the camera" as the radar named "camera").
        guard let best = own.max(by: { $0.score < $1.score }),
            best.score.literalWords >= 2, best.score.freeWords <= best.score.literalWords
        else { return nil }
        return best.slots.map { slot in
            var slot = slot
            let lower = slot.span.lowerBound >= dropped ? slot.span.lowerBound + 1 : slot.span.lowerBound
            let upper = slot.span.upperBound > dropped ? slot.span.upperBound + 1 : slot.span.upperBound
            slot.span = lower..<upper
            return slot
        }
    }

    /// Slot values for `intent` in `tokens`.
    fileprivate func slots(
        _ tokens: [Token], kept: [Int], model: LearnedModel, cls: Int32, intent: IntentGraph.Intent,
        links: [LearnedModel.Link] = []
    ) -> [Candidate.Slot] {
        // 1. The exact matcher on the sentence less one known word (unknown ones were tried before).
        let (ids, _) = model.ids(kept.map { tokens[$0].text })
        let unknown = zip(kept, ids).filter { $0.1 < 0 }.map(\.0)
        let others = kept.filter { !unknown.contains($0) }
        if let found = dropOne(tokens, candidates: Array(others.prefix(3)), intent: intent.name) { return found.slots }
        // 2. Alignment: words the phrase knows are its own; runs of other words are values, typed
        // slots parsed first, free-text slots taking what is left in order.
        var isAnchor = [Bool](repeating: true, count: tokens.count)
        for (position, id) in zip(kept, ids) where id < 0 || model.weight(of: id, in: cls) == 0 {
            isAnchor[position] = false
        }
        // A word WordNet linked to a word of the phrase stands where that word stands: not a value.
        for link in links
        where link.known.contains(where: { model.wordIDs[$0].map { model.weight(of: $0, in: cls) > 0 } ?? false }) {
            for at in link.span where at < kept.count { isAnchor[kept[at]] = true }
        }
        var runs: [Range<Int>] = []
        var position = 0
        while position < tokens.count {
            guard !isAnchor[position] else {
                position += 1
                continue
            }
            let start = position
            while position < tokens.count, !isAnchor[position] { position += 1 }
            runs.append(start..<position)
        }
        var slotNames: [String] = []
        for phrase in intent.phrases {
            for slot in phrase.template.slots where !slotNames.contains(slot.name) { slotNames.append(slot.name) }
        }
        let parameters = slotNames.compactMap { intent.parameter($0) }
        var result: [Candidate.Slot] = []
        func isFree(_ type: ValueType) -> Bool {
            switch type {
            case .string, .entity, .array(.string), .array(.entity): true
            default: false
            }
        }
        for parameter in parameters where !isFree(parameter.type) {
            search: for (r, run) in runs.enumerated() {
                for start in run {
                    let options = SlotParser.options(for: parameter.type, tokens: tokens, at: start, matcher: self)
                    guard
                        let option = options.filter({ $0.typed && start + $0.length <= run.upperBound })
                            .max(by: { $0.length < $1.length })
                    else { continue }
                    let span = start..<(start + option.length)
                    result.append(
                        Candidate.Slot(
                            name: parameter.name, value: option.value, span: span, typed: true,
                            problem: option.problem))
                    runs.remove(at: r)
                    if span.upperBound < run.upperBound { runs.insert(span.upperBound..<run.upperBound, at: r) }
                    if run.lowerBound < span.lowerBound { runs.insert(run.lowerBound..<span.lowerBound, at: r) }
                    break search
                }
            }
        }
        for parameter in parameters where isFree(parameter.type) {
            guard !runs.isEmpty else { break }
            let run = runs.removeFirst()
            let text = tokens.originalText(from: run.lowerBound, through: run.upperBound - 1)
            result.append(
                Candidate.Slot(
                    name: parameter.name, value: .string(text), span: run, typed: false,
                    entity: parameter.type.entityName != nil))
        }
        return result.sorted { $0.span.lowerBound < $1.span.lowerBound }
    }
}
