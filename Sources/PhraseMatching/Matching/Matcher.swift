import Foundation
import IntentModel

/// Matches sentences against a `PhraseIndex`. Returns data; acting on it is the caller's business.
public struct Matcher: Sendable {
    public let index: PhraseIndex
    public var entities: (any EntityNameLookup)?
    /// Where relative dates count from ("tomorrow at 9"): frozen, so one sentence reads one moment.
    public var clock: Clock

    public init(index: PhraseIndex, entities: (any EntityNameLookup)? = nil, clock: Clock) {
        self.index = index
        self.entities = entities
        self.clock = clock.frozen()
    }

    static let fillers: Set<String> = [
        "hey", "hi", "hello", "ok", "okay", "um", "umm", "uh", "uhm", "er", "erm", "hmm", "please", "pls", "kindly",
        "just",
        "so", "well", "can", "could", "would", "will", "you", "for", "me", "now", "quickly", "siri", "oh",
        "bitte", "mal", "doch", "kannst", "konntest", "du", "ah", "ahm", "also", "hallo", "hej",
    ]
    /// Words the matcher skips only before certain words: "for" in "… for me" ("set a timer for
    /// me"). Alone "for" is no filler to the matcher: it says which way round a request goes
    /// ("horoscope for career" is a request, "career for horoscope" is not), and a reading that
    /// skipped it read both alike. (`fillers` still has it: the learned stage's features leave it
    /// out, and their owner decides that; BENCHMARKS.md, 2026-11-26, "Word order".)
    static let fillersBefore: [String: Set<String>] = ["for": ["me", "us"]]
    /// Fillers that are pronouns: skipped in "show me my tasks" or "can you add …", but the object of
    /// the words before them when those are free text ("stand by me", "call you back"): never
    /// skipped right after free text.
    static let pronounFillers: Set<String> = ["me", "you", "du"]

    /// Whether the matcher skips the word at `position` as filler: a word of `fillersBefore` before
    /// one of its words, else one of `fillers`.
    static func isFiller(_ tokens: [Token], at position: Int) -> Bool {
        let word = tokens[position].text
        guard let following = fillersBefore[word] else { return fillers.contains(word) }
        return position + 1 < tokens.count && following.contains(tokens[position + 1].text)
    }

    /// Words a template may contain that a person may leave out: politeness, never content
    /// ("can you set a timer" is also "set a timer").
    static let optionalTemplateWords: Set<String> = [
        "please", "can", "could", "would", "will", "you", "kindly", "just", "hey", "ok", "okay",
        "bitte", "mal", "doch", "kannst", "konntest", "du",
    ]
    /// Template words another word may stand for in the last-resort pass: how a value is introduced
    /// ("on", "for", "called"), never what is done.
    static let replaceableTemplateWords: Set<String> = [
        "on", "for", "in", "to", "at", "with", "about", "of", "a", "an", "the", "my", "called", "named", "titled",
        "auf", "fur", "zu", "im", "mit", "uber", "ein", "eine", "einen", "der", "die", "das", "mein", "meine",
    ]
    /// Words that introduce a value and may stand for a template's own ("called deep work" for
    /// "on deep work").
    static let introducingWords: Set<String> = [
        "called", "named", "titled", "about", "regarding", "re", "on", "for", "with", "in", "to", "at", "of",
        "namens", "genannt", "uber", "zu", "fur", "mit", "auf", "im",
    ]
    /// Words besides `introducingWords` after which a value follows ("mark chess as …").
    static let valueIntroducers: Set<String> = ["as", "als", "by", "until", "till", "bis"]
    /// Words that introduce a name: "called" in "a task called book flights" is not the title's.
    static let namingWords: Set<String> = ["called", "named", "titled", "namens", "genannt"]
    /// Words that say not to do something: never passed over as one word too many.
    static let negations: Set<String> = ["not", "never", "dont", "nicht", "nie", "niemals", "kein", "keine"]
    /// Words that end a request after a thing's name rather than belong to it ("… again").
    static let closingWords: Set<String> = ["again", "now", "anymore", "already", "too"]
    /// Question words: alone, never a record's name ("what is due monday" is no task called "what").
    static let questionWords: Set<String> = [
        "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "was", "welche", "welcher",
        "welches", "wer", "wann", "wo", "warum", "wie",
    ]
    /// Articles, possessives and demonstratives, folded: a word between one of them and a noun
    /// modifies the noun ("my shopping list" is not "my list"). The conversation's references and
    /// searches pass over them too ("complete the task", "find my notes about stamps").
    package static let determiners: Set<String> = [
        "a", "an", "the", "my", "your", "our", "his", "her", "their", "its", "this", "that", "these", "those",
        "mein", "meine", "meinen", "meinem", "dein", "deine", "der", "die", "das", "den", "dem", "ein", "eine", "einen",
    ]

    /// Whether the word at `position` stands between a determiner and another word, modifying it.
    /// Whether the word at `position` stands between a determiner and the word the sentence ends
    /// with: it says which thing the sentence is about ("add milk to my shopping list" is not about
    /// "my list"), so no reading may pass it over. Inside a sentence such a word is taken for noise.
    static func modifiesLast(_ tokens: [Token], at position: Int) -> Bool {
        position > 0 && position + 2 == tokens.count && determiners.contains(tokens[position - 1].text)
    }

    /// Template words a sentence may leave out in the last-resort pass: articles, possessives,
    /// prepositions and the words that introduce a name, never the words that say what is done or to
    /// what ("refresh radars" is "refresh my radars", "rename invoice taxes" is "rename invoice called
    /// taxes"; "take a photo" is not "take a note photo").
    static let leaveOutWords: Set<String> = [
        "a", "an", "the", "my", "your", "me", "to", "of", "in", "on", "at", "for", "with", "about", "from", "by",
        "as", "into", "onto", "called", "named", "titled", "namens", "genannt", "der", "die", "das", "den", "dem",
        "ein", "eine", "einen", "mein", "meine", "meinen", "mir", "mich", "zu", "zum", "zur", "auf", "fur", "mit",
        "im", "von", "vom", "als",
    ]

    /// What people say before a request and no template spells out, read past at the sentence's
    /// start only ("i want to track rust" is "track rust", "i'd like to observe remote work" is
    /// "observe remote work"), contractions already expanded; each word counts as skipped.
    static let preambles: [[String]] = [
        "i want to", "i wanna", "i would like to", "i would love to", "i want you to", "i would like you to",
        "i need you to", "i need to", "let me", "help me", "go ahead and", "i am going to", "i am gonna",
    ].map { $0.split(separator: " ").map(String.init) }
    /// The words a preamble starts with: most sentences start with none, and are not compared with
    /// every preamble (the check runs at the start of every pass of every sentence).
    static let preambleStarts: Set<String> = Set(preambles.compactMap(\.first))

    static let maximumFreeWords = 24
    /// Values one reading may take where no template has a slot.
    static let maximumValuesAnywhere = 2
    /// Template words a reading must match to pass a word over.
    static let literalWordsAroundUnknown = 3

    /// Determiners that name no one thing: possessives and the indefinite article ("my list", "a task";
    /// "the task" may be a record's name).
    static let unspecificDeterminers: Set<String> = [
        "a", "an", "my", "your", "our", "mein", "meine", "meinen", "meinem", "ein", "eine", "einen",
    ]

    /// Whether the words at `position` speak of every record rather than name one: "everything",
    /// "every …", "each …", "all" alone or before "of", "them" or a determiner ("all my radars").
    static func saysEvery(_ tokens: [Token], at position: Int) -> Bool {
        switch tokens[position].text {
        case "everything", "every", "each": return true
        case "all":
            guard position + 1 < tokens.count else { return true }
            let next = tokens[position + 1].text
            return next == "of" || next == "them" || determiners.contains(next)
        default: return false
        }
    }

    /// A best reading worth trying typos against: some of its words are free text or name nothing.
    static func needsBetter(_ candidate: Candidate) -> Bool {
        candidate.score.freeWords > 0 || candidate.score.unresolved > 0
    }
    static let maximumCandidates = 64

    /// Matches `text`; `language` restricts phrases to one language (nil: all).
    public func recognize(_ text: String, language: String? = nil) -> Recognition {
        let tokens = Normalizer.tokens(text)
        guard !tokens.isEmpty, tokens.count <= Normalizer.maximumTokens else {
            return noMatch(tokens, language: language)
        }
        var search = Search(matcher: self, tokens: tokens, language: language)
        search.run(.exact)
        // Typos are looked for also when the best exact reading left words as free text or named
        // no entity: a template that takes the whole sentence as free text always matches exactly.
        // A word that is itself a template word is read as itself: the pass runs only for words no
        // template has, within a typo of one that does.
        if search.found.max(by: { $0.score < $1.score }).map(Self.needsBetter) ?? true, search.lastTypo != nil {
            search.run(.typos)
        }
        // One word too many or one function word said differently: a last resort, for sentences
        // nothing else takes ("start a focus block called deep work"); else one template word left out
        // ("refresh radars" for "refresh my radars").
        var promoted: Candidate?
        // Every word a template's own but a slot not said ("add a task"): the reading asks for it.
        if search.found.isEmpty { search.run(.slotUnsaid) }
        if search.found.isEmpty {
            search.run(.oneWordOff)
            if search.found.isEmpty { search.run(.oneWordMissing) }
            // "i have to buy a present, put it on my list": the request points back at the clause.
            if search.found.isEmpty { search.found = pointingBack(tokens, language: language) }
        } else if let best = search.found.max(by: { $0.score < $1.score }), best.slots.contains(where: \.unknownName),
            best.score.freeWords >= best.score.literalWords
        {
            // The entity slot took most of the sentence: perhaps words the phrase has.
            promoted = search.lastResort(over: best)
        }
        // Sorted by position, not moved whole: a sentence has hundreds of readings, each a slot list
        // and strings (the order is the one sorting the readings themselves gives, comparison for
        // comparison).
        let found = search.found
        var candidates = found.indices.sorted { found[$0].score > found[$1].score }.map { found[$0] }
        // An entity slot whose words name nothing (or no name is known) loses to a reading that reads
        // more of the sentence as the phrase's own words with one word passed over or left out: "refresh
        // radars" refreshes all radars rather than look for one called "radars".
        if let promoted, let at = candidates.firstIndex(where: { ParseKey($0) == ParseKey(promoted) }) {
            candidates.insert(candidates.remove(at: at), at: 0)
        }
        // An exact entity name wins: "complete task number 5001 about taxes" names the task called
        // so, although reading "task" as the template's word scores more literal words and leaves
        // "number 5001 about taxes", a name no record has, to be looked up.
        if let first = candidates.first, first.slots.contains(where: \.unknownName),
            let named = candidates.firstIndex(where: { candidate in
                candidate.intent == first.intent && candidate.score.edits == 0
                    && !candidate.slots.contains(where: \.unknownName)
                    && candidate.slots.contains { $0.entity && $0.typed }
            })
        {
            candidates.insert(candidates.remove(at: named), at: 0)
        }

        // Negative phrases push look-alike sentences away from their intent.
        let negatives = candidates.filter(\.isNegative)
        candidates.removeAll(where: \.isNegative)
        for negative in negatives {
            candidates.removeAll { $0.intent == negative.intent && $0.score <= negative.score }
        }
        // Every distinct parse stays, for `explain`; the outcome looks at each intent's best.
        // (Only as far as the first `maximumCandidates` distinct ones: the rest are cut anyway.)
        var seenParses: Set<ParseKey> = []
        seenParses.reserveCapacity(min(candidates.count, Matcher.maximumCandidates))
        var distinct: [Candidate] = []
        distinct.reserveCapacity(min(candidates.count, Matcher.maximumCandidates))
        for candidate in candidates where distinct.count < Matcher.maximumCandidates {
            if seenParses.insert(ParseKey(candidate)).inserted { distinct.append(candidate) }
        }
        candidates = distinct
        var seenIntents: Set<QualifiedName> = []
        let bestPerIntent = candidates.filter { seenIntents.insert($0.intent).inserted }

        guard let best = bestPerIntent.first else {
            return noMatch(tokens, language: language)
        }
        let tied = bestPerIntent.filter { $0.score == best.score }
        if tied.count > 1 {
            return Recognition(tokens: tokens, candidates: candidates, outcome: .ambiguous(tied))
        }
        return Recognition(tokens: tokens, candidates: candidates, outcome: .match(best))
    }

    /// The first word (as typed) naming an enum case, a date or a time span that a parameter of
    /// `candidate`'s app takes and that is in none of `candidate`'s slots: a reading that would drop
    /// it in silence (the learned stage's guess "show my next task" for "show my next urgent task")
    /// asks instead of acting. A value only another app's parameters take is no value here: the
    /// daily fortune takes no date, so "today" in "what does my horoscope say today" drops nothing.
    /// Words at positions `besides` says are no values are passed over.
    func droppedValueWord(in tokens: [Token], _ candidate: Candidate, besides: (Int) -> Bool = { _ in false })
        -> String?
    {
        let types = Set(
            index.graph.apps.filter { $0.name == candidate.intent.app }.flatMap(\.intents).flatMap(\.parameters)
                .map { $0.type.element ?? $0.type })
        guard !types.isEmpty else { return nil }
        var search = Search(matcher: self, tokens: tokens, language: nil)
        let position = tokens.indices.first { position in
            search.namesValue(at: position, of: types) && !candidate.slots.contains { $0.span.contains(position) }
                && !besides(position)
        }
        return position.map { tokens[$0].raw }
    }

    /// Slots for the words of `tokens` outside `slots` that name an enum case, a date or a time span
    /// of the type of exactly one parameter of `intent` no slot has: a guess that read "what's in
    /// store for me today" as the daily fortune keeps "today" as its type rather than drop it (as
    /// the exact matcher reads a value said anywhere). Bare numbers say nothing of what they count.
    func valueSlots(in tokens: [Token], intent: IntentGraph.Intent, besides slots: [Candidate.Slot])
        -> [Candidate.Slot]
    {
        var taken = Set(slots.map(\.name))
        guard intent.parameters.contains(where: { !taken.contains($0.name) }) else { return [] }
        var search = Search(matcher: self, tokens: tokens, language: nil)
        var added: [Candidate.Slot] = []
        var position = 0
        while position < tokens.count {
            var next = position + 1
            if !slots.contains(where: { $0.span.contains(position) }) {
                for value in search.valuesSaid(at: position) where !value.type.isNumeric {
                    let span = position..<(position + value.option.length)
                    let fitting = intent.parameters.filter { $0.type == value.type && !taken.contains($0.name) }
                    guard fitting.count == 1, !slots.contains(where: { $0.span.overlaps(span) }) else { continue }
                    taken.insert(fitting[0].name)
                    added.append(
                        Candidate.Slot(name: fitting[0].name, value: value.option.value, span: span, typed: true))
                    next = span.upperBound
                    break
                }
            }
            position = next
        }
        return added
    }

    /// Pronouns a closing clause points back with ("…, track it").
    static let backReferencePronouns: Set<String> = ["it", "that", "this", "them", "those"]

    /// Where a closing clause of two or three words after a comma starts when it ends with a pronoun
    /// pointing back at the request ("i'm skeptical about crypto, track it", "…, please add that").
    static func backReference(in tokens: [Token]) -> Int? {
        for length in 2...3 where tokens.count > length + 1 {
            let start = tokens.count - length
            guard tokens[start - 1].trailing.contains(","),
                backReferencePronouns.contains(tokens[tokens.count - 1].text),
                !tokens[start..<(tokens.count - 1)].contains(where: { backReferencePronouns.contains($0.text) })
            else { continue }
            return start
        }
        // Or a request of up to five words that points back with its second word ("…, put it on
        // my radar", "…, add that to my tasks"): a verb and the pronoun for what was said.
        for length in 3...5 where tokens.count > length + 1 {
            let start = tokens.count - length
            guard tokens[start - 1].trailing.contains(","), backReferencePronouns.contains(tokens[start + 1].text),
                !tokens[start..<(tokens.count - 1)].contains(where: { $0.trailing.contains(",") })
            else { continue }
            return start
        }
        return nil
    }

    /// The positions of `tokens` whose words name a case of an enum a parameter of `intent` takes,
    /// exactly as written ("leo", "money"): values, not the intent's wording.
    func enumValuePositions(in tokens: [Token], intent: IntentGraph.Intent) -> Set<Int> {
        let types = Set(
            intent.parameters.map { $0.type.element ?? $0.type }.filter {
                if case .enumeration = $0 { return true } else { return false }
            })
        guard !types.isEmpty else { return [] }
        var search = Search(matcher: self, tokens: tokens, language: nil)
        var found: Set<Int> = []
        for position in tokens.indices {
            for value in search.valuesSaid(at: position) where types.contains(value.type) && value.option.edits == 0 {
                found.formUnion(position..<(position + value.option.length))
            }
        }
        return found
    }

    /// No reading: the language the sentence is in (given, else guessed from its words) and the
    /// phrases of that language closest to it.
    func noMatch(_ tokens: [Token], language: String?) -> Recognition {
        let spoken = language ?? self.language(of: tokens)
        var recognition = Recognition(
            tokens: tokens, candidates: [], outcome: .noMatch(suggestions: suggestions(for: tokens, language: spoken)))
        recognition.language = spoken
        return recognition
    }

    /// Common German words no phrase may have: "mach was anderes" is German too.
    static let germanWords: Set<String> = [
        "ich", "du", "er", "sie", "wir", "ihr", "was", "wie", "wo", "wer", "warum", "wann", "welche", "welcher",
        "und", "oder", "nicht", "kein", "keine", "ist", "sind", "bin", "habe", "hast", "hat", "mein", "meine",
        "meinen", "mir", "mich", "dein", "deine", "dir", "dich", "der", "die", "das", "den", "dem", "ein", "eine",
        "einen", "zu", "mit", "auf", "fur", "von", "bitte", "mach", "mache", "zeig", "zeige", "gib", "heute",
        "morgen", "noch", "schon", "auch", "aber", "sehr", "gut", "jetzt", "hier", "alle", "etwas",
    ]

    /// The language most of the sentence's words are said in: each word that only the phrases of
    /// one language have (or a common German word, when some app speaks German) counts for it.
    /// Nil when no word says, or two languages tie.
    public func language(of tokens: [Token]) -> String? {
        var votes: [String: Int] = [:]
        let speaksGerman = index.spokenPhrases.contains { $0.language == "de" }
        for word in Set(tokens.map(\.text)) {
            var languages: Set<String> = []
            for phrase in index.spokenByWord[word] ?? [] {
                languages.insert(index.spokenPhrases[phrase].language)
                if languages.count > 1 { break }
            }
            if languages.isEmpty, speaksGerman, Self.germanWords.contains(word) { languages = ["de"] }
            if languages.count == 1 { votes[languages.first!, default: 0] += 1 }
        }
        let ranked = votes.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        guard let first = ranked.first, ranked.count == 1 || ranked[1].value < first.value else { return nil }
        return first.key
    }

    /// The spoken forms of the shortcut and intent phrases that share the most words with the input,
    /// found through the index's word table (built once), not by scanning every phrase.
    /// With `language`, only phrases of that language are suggested.
    func suggestions(for tokens: [Token], language: String? = nil, limit: Int = 3) -> [String] {
        // A sentence that says not to do something ("don't delete the rust radar") is offered no
        // phrase that does it. Not to forget something is to be reminded of it: that is offered.
        if let verb = Self.saysNotTo(tokens.map(\.text)), !Self.remindingVerbs.contains(verb) { return [] }
        let words = Set(tokens.map(\.text)).filter { !Self.fillers.contains($0) }
        func speaks(_ phrase: Int) -> Bool { language == nil || index.spokenPhrases[phrase].language == language }
        guard !words.isEmpty else {
            return Array(
                index.spokenPhrases.indices.filter { index.spokenPhrases[$0].isShortcut && speaks($0) }.prefix(limit)
                    .map { index.sampleSentence($0) })
        }
        // Dense scores and the list of phrases touched: common words touch thousands of phrases,
        // which a dictionary would hash and grow for on every sentence that matches nothing.
        var scores = [Double](repeating: 0, count: index.spokenPhrases.count)
        var touched: [Int] = []
        func add(_ phrase: Int, _ weight: Double) {
            if scores[phrase] == 0 { touched.append(phrase) }
            scores[phrase] += weight
        }
        for word in words {
            for phrase in index.spokenByWord[word] ?? [] { add(phrase, 1) }
            // A near miss counts less: "radr" still suggests the radar phrases.
            if word.utf8.count >= 4, index.spokenByWord[word] == nil, let first = word.utf8.first {
                let length = word.utf8.count
                for shapeLength in (length - 1)...(length + 1) {
                    for known in index.spokenWordsByShape[PhraseIndex.WordShape(first: first, length: shapeLength)]
                        ?? []
                    where EditDistance.within(known, word, limit: 1) != nil {
                        for phrase in index.spokenByWord[known] ?? [] { add(phrase, 0.7) }
                    }
                }
            }
        }
        // The few best, without sorting every phrase that shares a word.
        var ranked: [(score: Double, phrase: Int)] = []
        for phrase in touched where speaks(phrase) {
            let count = scores[phrase]
            let entry = (score: count / Double(index.spokenPhrases[phrase].wordCount + words.count), phrase: phrase)
            if ranked.count < limit * 4 || entry > ranked[ranked.count - 1] {
                ranked.append(entry)
                ranked.sort { ($0.score, -$0.phrase) > ($1.score, -$1.phrase) }
                if ranked.count > limit * 4 { ranked.removeLast() }
            }
        }
        var result: [String] = []
        for entry in ranked {
            let sentence = index.sampleSentence(entry.phrase)
            guard !result.contains(sentence) else { continue }
            result.append(sentence)
            if result.count == limit { break }
        }
        return result
    }
}

/// What makes two candidates the same parse: intent, template, and where each slot lies.
private struct ParseKey: Hashable {
    let intent: QualifiedName
    let template: String
    let slots: [SlotKey]

    struct SlotKey: Hashable {
        let name: String
        let start: Int
        let end: Int
    }

    init(_ candidate: Candidate) {
        intent = candidate.intent
        template = candidate.template
        slots = candidate.slots.map { SlotKey(name: $0.name, start: $0.span.lowerBound, end: $0.span.upperBound) }
    }

    /// Hashes the intent's name, the template's length and where the slots lie, not every character
    /// of the template and the names: hundreds of readings are told apart per sentence, and equal
    /// keys still hash alike (`==` compares everything).
    func hash(into hasher: inout Hasher) {
        hasher.combine(intent.name)
        hasher.combine(template.utf8.count)
        hasher.combine(slots.count)
        for slot in slots {
            hasher.combine(slot.start)
            hasher.combine(slot.end)
        }
    }
}

/// One depth-first walk of the trie for one sentence.
struct Search {
    let matcher: Matcher
    let tokens: [Token]
    let language: String?
    var found: [Candidate] = []
    /// App mentions by start position: (app, length).
    let mentions: [Int: [(app: String, length: Int)]]
    /// What a pass tolerates beyond exact template words.
    enum Pass {
        case exact
        /// Template words within a typo.
        case typos
        /// One sentence word passed over or standing for a function word of the template.
        case oneWordOff
        /// One template word the sentence left out, after the first word the template reads.
        case oneWordMissing
        /// Slots the sentence does not say (with the small word that introduces one): the
        /// conversation asks for their values ("add a task" → "What's the task?").
        case slotUnsaid
    }
    private var pass = Pass.exact
    private var foundBeforePass = 0
    /// How a slot's type reads the words at a position, parsed once per sentence: the trie holds
    /// the same slot under many nodes (every spelling of the words before it), and an entity
    /// look-up or a date costs far more than a step.
    private var slotCache: [SlotAt: [SlotParser.Option]] = [:]

    private struct SlotAt: Hashable {
        var type: ValueType
        var position: Int
    }

    /// The ways an edge's slot can take the words at `position`, only those after which the walk can
    /// go on: an entity name is looked up (and typo-searched) only for spans the template's next word,
    /// a slot, a filler, the app's name or the sentence's end can follow. The rest would be dropped
    /// one step later, and their look-ups are most of a sentence's cost.
    /// Spans end at `end` at the latest (the typo pass cuts a reading without a typo past the last
    /// misspelt word: a longer span would be read, looked up and dropped one step later).
    private mutating func slotOptions(_ edge: PhraseIndex.SlotEdge, at position: Int, endingBy end: Int)
        -> [SlotParser.Option]
    {
        guard case .entity(let entity) = edge.type else { return slotOptions(edge.type, at: position) }
        let longest = min(Matcher.maximumFreeWords, end - position)
        guard longest >= 1 else { return [] }
        var options: [SlotParser.Option] = []
        var free: [SlotParser.Option] = []
        options.reserveCapacity(2 * longest)
        free.reserveCapacity(longest)
        let kind = entity.name.lowercased()
        let saysEvery = Matcher.saysEvery(tokens, at: position)
        let ordinal = entityOrdinal(entity)
        for length in 1...longest where canContinue(edge.child, at: position + length) {
            // A name followed by the kind of thing it is, or by "again" ("the bike task is finished",
            // "how do i feel about fusion again"): the name is the words before.
            let last = tokens[position + length - 1].text
            let said =
                length > 1 && (last == kind || last == kind + "s" || Matcher.closingWords.contains(last))
                ? length - 1 : length
            if length <= SlotParser.maximumNameWords {
                if var named = entityName(entity, ordinal, at: position, length: length)
                    ?? (said < length ? entityName(entity, ordinal, at: position, length: said) : nil)
                {
                    named.length = length
                    options.append(named)
                }
            }
            if length == 1, Matcher.questionWords.contains(tokens[position].text) { continue }
            // "everything i'm tracking", "all of them": every record, not a name of one. Nor is a
            // name one that ends in a preposition ("settings in" of "go to the settings in radar").
            if saysEvery || (length > 1 && PhraseIndex.prepositions.contains(last)) { continue }
            free.append(
                SlotParser.Option(length: length, value: .string(freeText(at: position, length: said)), typed: false))
        }
        options.append(contentsOf: free)
        return options
    }

    /// The words of `length` tokens at `position` as typed, cut out once per sentence: every entity
    /// slot of every app the walk reaches at a position offers the same spans as free text.
    private mutating func freeText(at position: Int, length: Int) -> String {
        let key = position &* (Matcher.maximumFreeWords + 1) &+ length
        if let known = freeTextCache[key] { return known }
        let text = tokens.originalText(from: position, through: position + length - 1)
        freeTextCache[key] = text
        return text
    }
    private var freeTextCache: [Int: String] = [:]

    /// Whether the walk can take a step from `node` at `position`: a cheap test that never says no
    /// where `walk` would find something.
    private mutating func canContinue(_ nodeIndex: Int32, at position: Int) -> Bool {
        let nodes = matcher.index.nodes
        let index = Int(nodeIndex)
        if pass == .slotUnsaid { return true }
        if !nodes[index].slots.isEmpty || !nodes[index].optionalWords.isEmpty { return true }
        // A small word left out: the walk goes on from the node after it.
        func afterLeftOut(_ fits: (PhraseIndex.Node) -> Bool) -> Bool {
            pass == .oneWordMissing
                && Matcher.leaveOutWords.contains { nodes[index].words[$0].map { fits(nodes[Int($0)]) } ?? false }
        }
        guard position < tokens.count else {
            return !nodes[index].entries.isEmpty || afterLeftOut { !$0.entries.isEmpty }
        }
        if passable[position] { return true }
        if !valuesAnywhere(at: position).isEmpty { return true }
        let word = tokens[position].text
        if nodes[index].words[word] != nil { return true }
        let node = nodes[index]
        switch pass {
        case .exact: return false
        case .typos, .oneWordOff:
            // A typo of the next template word; in the last resort, the word passed over (the next one
            // the template's) or standing for a word that introduces a value.
            if word.utf8.count >= 4, nearbyWords(at: position).contains(where: { node.words[$0.word] != nil }) {
                return true
            }
            guard pass == .oneWordOff else { return false }
            let following = position + 1
            if following == tokens.count ? !node.entries.isEmpty : node.words[tokens[following].text] != nil {
                return true
            }
            return Matcher.introducingWords.contains(word)
                && Matcher.replaceableTemplateWords.contains { node.words[$0] != nil }
        case .slotUnsaid: return true
        case .oneWordMissing:
            return afterLeftOut { !$0.slots.isEmpty || !$0.optionalWords.isEmpty || $0.words[word] != nil }
        }
    }

    /// Template words within a typo of the word at `position` (one letter from four letters on, two
    /// from eight), closest first; none when the word is itself a template word.
    private mutating func nearbyWords(at position: Int) -> [(word: String, distance: Int)] {
        if let known = nearbyCache[position] { return known }
        let word = tokens[position].text
        let length = word.utf8.count
        var found: [(word: String, distance: Int)] = []
        // A word some template has is read as itself, never as a typo of another.
        if length >= 4, !matcher.index.vocabulary.contains(word) {
            let allowance = length >= 8 ? 2 : 1
            let mask = EntityNameIndex.mask(word)
            for candidateLength in max(4, length - allowance)...(length + allowance) {
                for known in matcher.index.wordsByLength[candidateLength] ?? []
                where (known.mask ^ mask).nonzeroBitCount <= allowance * 2 && known.word != word {
                    if let distance = EditDistance.within(known.word, word, limit: allowance) {
                        found.append((known.word, distance))
                    }
                }
            }
        }
        found.sort { ($0.distance, $0.word) < ($1.distance, $1.word) }
        nearbyCache[position] = found
        return found
    }

    /// The entity `length` words at `position` name, looked up once per sentence. The cache is an
    /// array by (type's number, position, length): a dictionary keyed by the type's qualified name
    /// hashed two strings at each of the hundreds of asks a sentence makes, and grew as it filled.
    private mutating func entityName(_ entity: QualifiedName, _ ordinal: Int, at position: Int, length: Int)
        -> SlotParser.Option?
    {
        guard knowsNames else { return nil }
        let key = (ordinal * (tokens.count + 1) + position) * (SlotParser.maximumNameWords + 1) + length
        switch nameCache[key] {
        case Self.notLookedUp: break
        case Self.noName: return nil
        case let known: return nameOptions[Int(known)]
        }
        // Most spans of most types are ruled out by the names' lengths and words (a sentence of the
        // ten-app load looks a span up in ten types, few of which have a name near it).
        if let bounds = nameBounds[ordinal] {
            var characters = length - 1
            var someWordKnown = false
            for offset in 0..<length {
                characters += tokenCharacters(at: position + offset)
                if !someWordKnown { someWordKnown = knowsWord(bounds, ordinal, at: position + offset) }
            }
            // (Joined by spaces, the words are as many characters, or fewer where a word starts with a
            // mark that joins the space before it.)
            let range = (characters - (length - 1))...characters
            if !bounds.mayName(characters: range, words: length, someWordKnown: someWordKnown) {
                nameCache[key] = Self.noName
                return nil
            }
        }
        let option = names.lookup(spanText(at: position, length: length), entity: entity).first.map {
            SlotParser.Option(length: length, value: .string($0.name), typed: true)
        }
        if let option {
            nameCache[key] = Int32(nameOptions.count)
            nameOptions.append(option)
        } else {
            nameCache[key] = Self.noName
        }
        return option
    }

    /// The number of an entity type within this sentence's name cache, given the first time the walk
    /// meets the type (one hash per span list, not per look-up).
    private mutating func entityOrdinal(_ entity: QualifiedName) -> Int {
        if let known = entityOrdinals[entity] { return known }
        let ordinal = entityOrdinals.count
        entityOrdinals[entity] = ordinal
        nameCache += repeatElement(Self.notLookedUp, count: (tokens.count + 1) * (SlotParser.maximumNameWords + 1))
        nameBounds.append(knowsNames ? names.bounds(of: entity) : nil)
        wordKnown += repeatElement(0, count: tokens.count)
        return ordinal
    }

    /// Whether some name of the type numbered `ordinal` has the word at `position`, asked once.
    private mutating func knowsWord(_ bounds: EntityNameBounds, _ ordinal: Int, at position: Int) -> Bool {
        let key = ordinal * tokens.count + position
        if wordKnown[key] == 0 { wordKnown[key] = bounds.hasWord(tokens[position].text) ? 1 : 2 }
        return wordKnown[key] == 1
    }

    /// The folded words of `length` tokens at `position` joined by spaces, as names are looked up:
    /// made once per span, not once per entity type that looks the span up.
    private mutating func spanText(at position: Int, length: Int) -> String {
        let key = position * (SlotParser.maximumNameWords + 1) + length
        if spanTexts.isEmpty {
            spanTexts = Array(repeating: nil, count: (tokens.count + 1) * (SlotParser.maximumNameWords + 1))
        }
        if let known = spanTexts[key] { return known }
        var text = tokens[position].text
        for offset in 1..<length {
            text += " "
            text += tokens[position + offset].text
        }
        spanTexts[key] = text
        return text
    }

    /// The names the matcher knows (read once per phrase), and whether it knows any: kept
    /// unwrapped, as an optional existential was copied out (and destroyed) at every look-up.
    private let names: any EntityNameLookup
    private let knowsNames: Bool
    private var entityOrdinals: [QualifiedName: Int] = [:]
    /// By (type's number, position, length): where in `nameOptions` the name found is, or one of
    /// the two marks (small numbers, not options: a sentence meets dozens of types).
    private var nameCache: [Int32] = []
    private var nameOptions: [SlotParser.Option] = []
    private static let notLookedUp: Int32 = -1, noName: Int32 = -2
    /// By type's number: what a name of the type needs (nil: no test, every span is looked up).
    private var nameBounds: [EntityNameBounds?] = []
    /// By (type's number, position): 0 not asked yet, 1 some name has the word, 2 none has.
    private var wordKnown: [UInt8] = []
    /// The characters of each word (a span's length in characters is theirs and its spaces').
    private var characterCounts: [Int] = []

    /// The characters of the word at `position`, counted once (and only in sentences that look a name up).
    private mutating func tokenCharacters(at position: Int) -> Int {
        if characterCounts.isEmpty { characterCounts = tokens.map(\.text.count) }
        return characterCounts[position]
    }
    /// By (position, length), at most `SlotParser.maximumNameWords` words.
    private var spanTexts: [String?] = []
    /// By position (one more than the tokens): an array, not a dictionary, as the walk asks at every step.
    private var nearbyCache: [[(word: String, distance: Int)]?]
    /// The last position whose word no template has but one has within a typo: where the typo pass
    /// can find something new (nil: nowhere).
    private(set) lazy var lastTypo: Int? = tokens.indices.last { position in
        !nearbyWords(at: position).isEmpty
    }
    /// Where a closing clause that only points back at the request starts (", track it"), if any.
    private let backReference: Int?
    /// Words any node can step over: fillers, and the app's name (after a preposition or not).
    private let passable: [Bool]
    /// `Matcher.isFiller` at each position, worked out once: the walk asks at every step.
    private let fillerAt: [Bool]
    /// Whether the word at each position is a preposition (`PhraseIndex.prepositions`), likewise.
    private let prepositionAt: [Bool]

    private mutating func slotOptions(_ type: ValueType, at position: Int) -> [SlotParser.Option] {
        let key = SlotAt(type: type, position: position)
        if let known = slotCache[key] { return known }
        let options = SlotParser.options(for: type, tokens: tokens, at: position, matcher: matcher)
        slotCache[key] = options
        return options
    }
    /// Values of the types parameters take (`PhraseIndex.anywhereTypes`) that the words at
    /// `position` say exactly (no typo, no problem), worked out once per sentence.
    private mutating func valuesAnywhere(at position: Int) -> [(type: ValueType, option: SlotParser.Option)] {
        if let known = anywhereCache[position] { return known }
        var found: [(type: ValueType, option: SlotParser.Option)] = []
        // A filler or the app's name is read as such ("now", "focus blox").
        if !passable[position] {
            // Enum terms by their first word, as written (plurals and inflections included).
            for term in matcher.index.anywhereTerms[tokens[position].text] ?? []
            where position + term.tokens.count <= tokens.count
                && zip(term.tokens, tokens[position...]).allSatisfy({ $0 == $1.text })
                && !found.contains(where: { $0.type == term.type && $0.option.length == term.tokens.count })
            {
                found.append(
                    (term.type, SlotParser.Option(length: term.tokens.count, value: .enumCase(term.id), typed: true)))
            }
            for type in matcher.index.anywhereTypes {
                switch type {
                case .enumeration: continue
                case .date:
                    // As written: no typo is read as a date outside a slot.
                    guard let date = DateParser(clock: matcher.clock).parseExact(tokens, at: position),
                        date.problem == nil
                    else { continue }
                    let value = Value.date(date.value(in: matcher.clock))
                    found.append((type, SlotParser.Option(length: date.length, value: value, typed: true)))
                default:
                    for option in slotOptions(type, at: position)
                    where option.typed && option.problem == nil && option.edits == 0 {
                        found.append((type, option))
                    }
                }
            }
        }
        anywhereCache[position] = found
        return found
    }
    private var anywhereCache: [[(type: ValueType, option: SlotParser.Option)]?]
    /// The values the words at `position` say exactly, of the types parameters take.
    mutating func valuesSaid(at position: Int) -> [(type: ValueType, option: SlotParser.Option)] {
        valuesAnywhere(at: position)
    }

    /// The parameters of the intent named so, looked up in the graph once per sentence: readings
    /// of the same intent are accepted by the hundred, and the graph finds an intent by scanning.
    private mutating func parameters(of name: QualifiedName) -> [IntentGraph.Parameter]? {
        if let known = parametersCache[name] { return known }
        let parameters = matcher.index.graph.intent(name)?.parameters
        parametersCache[name] = parameters
        return parameters
    }
    private var parametersCache: [QualifiedName: [IntentGraph.Parameter]?] = [:]

    /// Whether the words at `position` name an enum case, a date or a time span (of `types` only,
    /// when given): such words are never passed over as noise.
    mutating func namesValue(at position: Int, of types: Set<ValueType>? = nil) -> Bool {
        valuesAnywhere(at: position).contains { value in
            if let types, !types.contains(value.type) { return false }
            return !value.type.isNumeric
        }
    }

    /// Whether the walk can go on from `node` after a value said anywhere that ends at `end`: the
    /// sentence ends there, or a template word, a typed slot, another such value, a filler or the
    /// app's name follows (never free text). A cheap test that prunes most such branches at once.
    private mutating func canFollowAnywhere(_ node: PhraseIndex.Node, at end: Int) -> Bool {
        guard end < tokens.count else { return !node.entries.isEmpty || !node.optionalWords.isEmpty }
        if passable[end] || node.words[tokens[end].text] != nil || !node.optionalWords.isEmpty { return true }
        if pass != .exact, !node.words.isEmpty { return true }
        if node.slots.contains(where: { $0.type != .string }) { return true }
        return !valuesAnywhere(at: end).isEmpty
    }

    /// Where a value may be read outside a slot. Right after free text only at its end, and not
    /// after a word that would make the value its object ("plan for tomorrow", "read the sunday
    /// times") nor for a bare number (no unit says what it counts: "read chapter 5").
    static func mayReadAnywhere(
        _ value: (type: ValueType, option: SlotParser.Option), at position: Int, _ path: Path, _ tokens: [Token]
    ) -> Bool {
        // A case's word names a quality of what follows it, never of an article or possessive:
        // "list urgent my list" is "list my urgent list" said backwards, not a request.
        if case .enumeration = value.type, position + value.option.length < tokens.count,
            Matcher.determiners.contains(tokens[position + value.option.length].text)
        {
            return false
        }
        // Free text read last, with at most fillers after it ("plan for tomorrow": "for" is one).
        guard let last = path.slots.last, !last.typed, last.span.upperBound <= position,
            path.literalEnd <= last.span.lowerBound, path.anywhereEnd <= last.span.lowerBound
        else { return true }
        switch value.type {
        case .integer, .number: return false
        default: return !Matcher.leaveOutWords.contains(tokens[position - 1].text)
        }
    }
    private var fuzzy: Bool { pass != .exact }
    private var steps = 0
    static let stepLimit = 200_000

    init(matcher: Matcher, tokens: [Token], language: String?) {
        var matcher = matcher
        matcher.entities = matcher.entities?.forPhrase()
        self.matcher = matcher
        names = matcher.entities ?? EntityNameIndex()
        knowsNames = matcher.entities != nil
        self.tokens = tokens
        self.language = language
        var mentions: [Int: [(app: String, length: Int)]] = [:]
        for start in tokens.indices {
            for (names, app) in matcher.index.appNames where start + names.count <= tokens.count {
                // Word by word, without building arrays: most positions fail on the first word.
                var close = true
                for (offset, name) in names.enumerated() {
                    let word = tokens[start + offset].text
                    if word == name { continue }
                    let a = word.utf8.count, b = name.utf8.count
                    guard b >= 6, abs(a - b) <= 1, word.utf8.first == name.utf8.first,
                        EditDistance.within(word, name, limit: 1) != nil
                    else {
                        close = false
                        break
                    }
                }
                if close, !(mentions[start]?.contains { $0.app == app } ?? false) {
                    mentions[start, default: []].append((app, names.count))
                }
            }
        }
        self.mentions = mentions
        backReference = Matcher.backReference(in: tokens)
        let fillerAt = tokens.indices.map { Matcher.isFiller(tokens, at: $0) }
        self.fillerAt = fillerAt
        nearbyCache = Array(repeating: nil, count: tokens.count + 1)
        anywhereCache = Array(repeating: nil, count: tokens.count + 1)
        let prepositionAt = tokens.map { PhraseIndex.prepositions.contains($0.text) }
        self.prepositionAt = prepositionAt
        passable = tokens.indices.map { position in
            fillerAt[position] || mentions[position] != nil
                || (prepositionAt[position] && mentions[position + 1] != nil)
        }
    }

    struct Path {
        var slots: [Candidate.Slot] = []
        /// Values said where no template has a slot, given to a parameter when the template ends.
        var anywhere: [(type: ValueType, option: SlotParser.Option, start: Int)] = []
        /// The position after the last value said anywhere: no free text may start there.
        var anywhereEnd = -1
        var score = Score()
        var namedApp: String?
        /// The position after the last word read as a template word.
        var literalEnd = -1
        /// The word the last resort passed over as one too many (-1: none).
        var passedOver = -1
        /// The slot left unsaid right after the sentence's last word, read as the template's word
        /// that introduces it ("as" in "mark chess as"): the person began to say it.
        var begun: String?
    }

    /// For a best reading with an entity slot that names nothing known: the last-resort reading that
    /// reads more of the sentence as template words, with no such slot and no more free text, or nil.
    /// Other last-resort readings are dropped: with names known they would outrank the best reading
    /// however few words they read ("refresh my chess radar" stays a radar called "chess").
    mutating func lastResort(over best: Candidate) -> Candidate? {
        let before = found.count
        var better: Candidate?
        for pass in [Pass.oneWordOff, .oneWordMissing] {
            run(pass)
            better = found[before...].filter { candidate in
                !candidate.isNegative && !candidate.slots.contains(where: \.unknownName)
                    && candidate.score.literalWords > best.score.literalWords
                    && candidate.score.freeWords <= best.score.freeWords
            }.max { $0.score < $1.score }
            found.removeSubrange(before...)
            if better != nil { break }
        }
        if let better { found.append(better) }
        return better
    }

    mutating func run(_ pass: Pass) {
        self.pass = pass
        steps = 0
        // Each pass has its own allowance of candidates: typos are looked for however many exact
        // readings the free text gave.
        foundBeforePass = found.count
        walk(node: 0, position: 0, path: Path())
    }

    private mutating func walk(node nodeIndex: Int32, position: Int, path: Path) {
        steps += 1
        guard steps < Self.stepLimit, found.count - foundBeforePass < Matcher.maximumCandidates * 4 else { return }
        // Past the last misspelt word without a typo read, a path only finds what the exact pass found.
        if pass == .typos, path.score.edits == 0, let lastTypo, position > lastTypo { return }
        let node = matcher.index.nodes[Int(nodeIndex)]
        if position == tokens.count {
            for entryIndex in node.entries { accept(matcher.index.entries[Int(entryIndex)], path: path) }
        }
        // A closing clause after a comma that only points back at what was said (", track it",
        // ", add that"): the request ends before it, and no value takes its words.
        if position == backReference, !node.entries.isEmpty {
            var next = path
            next.score.skipped += tokens.count - position
            walk(node: nodeIndex, position: tokens.count, path: next)
        }
        // The last resort: a template word the sentence left out, once, after the template's first
        // word or slot ("refresh radars" for "refresh my radars"). Only small words (`leaveOutWords`),
        // in order, so that the walk does not depend on a dictionary's order (a node's words are
        // kept in order: `PhraseIndex.Trie`).
        if pass == .oneWordMissing, path.score.missing == 0, path.score.literalWords + path.slots.count > 0 {
            for word in node.words.keys
            where Matcher.leaveOutWords.contains(word) && (position == tokens.count || tokens[position].text != word) {
                var next = path
                next.score.missing += 1
                walk(node: node.words[word]!, position: position, path: next)
            }
        }
        // A slot not said, and the small word before it that would introduce it ("create a radar" for
        // "create a radar about {topic}"), once the template's first word was read; never after free
        // text that took a word the template reads here ("set the thermostat to 68 degrees" is no task
        // "thermostat to 68 degrees" with its urgency unsaid: the "to" said it).
        if pass == .slotUnsaid, path.score.literalWords > 0, !freeTextTookNextWord(of: node, before: position, path) {
            let nodes = matcher.index.nodes
            // Said up to a word that introduces a value, and no further: the value was begun.
            let begins =
                position == tokens.count && path.literalEnd == position
                && tokens.last.map {
                    Matcher.introducingWords.contains($0.text) || Matcher.valueIntroducers.contains($0.text)
                } ?? false
            for edge in node.slots {
                var next = path
                next.score.unsaid += 1
                if begins { next.begun = edge.name }
                walk(node: edge.child, position: position, path: next)
            }
            for word in node.words.keys
            where Matcher.leaveOutWords.contains(word) && (position == tokens.count || tokens[position].text != word) {
                for edge in nodes[Int(node.words[word]!)].slots {
                    var next = path
                    next.score.unsaid += 1
                    walk(node: edge.child, position: position, path: next)
                }
            }
        }
        // What people say before a request, at the start only ("i want to track rust").
        if position == 0, nodeIndex == 0, path.score.skipped == 0, let first = tokens.first,
            Matcher.preambleStarts.contains(first.text)
        {
            for preamble in Matcher.preambles
            where tokens.count > preamble.count && zip(preamble, tokens).allSatisfy({ $0 == $1.text }) {
                var next = path
                next.score.skipped += preamble.count
                walk(node: 0, position: preamble.count, path: next)
            }
        }
        // Politeness a template spells out may be left out ("can you set a timer" is "set a timer").
        for (word, child) in node.optionalWords where position == tokens.count || tokens[position].text != word {
            var next = path
            next.score.skipped += 1
            walk(node: child, position: position, path: next)
        }
        if position < tokens.count {
            let token = tokens[position]
            // Literal words, exactly, then (second pass) within a typo's reach. Never the app's name
            // after a preposition no template word read ("go to the settings in radar"): that names
            // the app, and is not the template's word ("{radar} radar" with a radar "settings in").
            let appNamedHere = namesAppAfterPreposition(position, path)
            if !appNamedHere, let child = node.words[token.text] {
                var next = path
                next.score.literalWords += 1
                next.literalEnd = position + 1
                walk(node: child, position: position + 1, path: next)
            } else if !appNamedHere, fuzzy, pass != .oneWordMissing, token.text.count >= 4, path.score.edits < 2 {
                // (A word left out and a typo besides are too far from the phrase to read it.)
                // The template words within a typo of this one, found once per sentence: a node's
                // children are looked up by them, however many children it has.
                for (word, distance) in nearbyWords(at: position) {
                    guard let child = node.words[word] else { continue }
                    var next = path
                    next.score.literalWords += 1
                    next.score.edits += distance
                    next.literalEnd = position + 1
                    walk(node: child, position: position + 1, path: next)
                }
            }
            // The app's name where the template says {app}.
            for mention in mentions.isEmpty ? [] : mentions[position] ?? [] {
                if let child = node.apps[mention.app] {
                    var next = path
                    next.score.literalWords += mention.length
                    next.namedApp = mention.app
                    walk(node: child, position: position + mention.length, path: next)
                }
            }
            // A value said where the template has no slot ("add a task buy milk tomorrow").
            // (Not where slots go unsaid: the value would fill the slot said to be missing.)
            if path.anywhere.count < Matcher.maximumValuesAnywhere, pass != .slotUnsaid {
                for value in valuesAnywhere(at: position)
                where Self.mayReadAnywhere(value, at: position, path, tokens)
                    && canFollowAnywhere(node, at: position + value.option.length)
                {
                    var next = path
                    next.anywhere.append((value.type, value.option, position))
                    next.anywhereEnd = position + value.option.length
                    next.score.typedSlots += 1
                    next.score.anywhere += 1
                    walk(node: nodeIndex, position: position + value.option.length, path: next)
                }
            }
            // Slots. (In the typo pass, a reading with no typo yet is cut past the last misspelt
            // word: its slots are not read beyond it.)
            let slotEnd =
                pass == .typos && path.score.edits == 0 ? min(lastTypo ?? tokens.count, tokens.count) : tokens.count
            for edge in node.slots {
                for option in slotOptions(edge, at: position, endingBy: slotEnd)
                where position + option.length <= slotEnd {
                    // Free text never starts right after a value said anywhere: the value would be
                    // its first words ("add a task monday meeting prep" keeps its title).
                    if !option.typed, path.anywhereEnd == position { continue }
                    var next = path
                    next.slots.append(
                        Candidate.Slot(
                            name: edge.name, value: option.value, span: position..<(position + option.length),
                            typed: option.typed, problem: option.problem,
                            entity: edge.type.entityName != nil))
                    if option.typed { next.score.typedSlots += 1 } else { next.score.freeWords += option.length }
                    if !option.typed, edge.type.entityName != nil, knowsNames {
                        next.score.unresolved += 1
                    }
                    next.score.corrections += option.edits
                    walk(node: edge.child, position: position + option.length, path: next)
                }
            }
            // The last resort: one word too many where the template's next word follows it ("what's
            // my fortune today in fortune"), never where a slot would take it instead; or a word that
            // introduces a value said differently ("called" for "on").
            if pass == .oneWordOff, path.score.unknown == 0, !fillerAt[position],
                !namesValue(at: position)
            {
                var next = path
                next.score.unknown += 1
                let following = position + 1
                // Not a word that modifies the template's next one ("my shopping list" is not "my list").
                let modifies = path.literalEnd == position && Matcher.modifiesLast(tokens, at: position)
                let fits =
                    following == tokens.count ? !node.entries.isEmpty : node.words[tokens[following].text] != nil
                if fits && !modifies {
                    var passed = next
                    passed.passedOver = position
                    walk(node: nodeIndex, position: following, path: passed)
                }
                if Matcher.introducingWords.contains(token.text) {
                    for word in Matcher.replaceableTemplateWords {
                        guard let child = node.words[word] else { continue }
                        walk(node: child, position: following, path: next)
                    }
                }
            }
            // Fillers no template needs, and the app named somewhere else in the sentence. A pronoun
            // right after free text is the text's last word, not a filler ("add a task stand by me").
            if fillerAt[position],
                !(Matcher.pronounFillers.contains(token.text)
                    && path.slots.last.map { !$0.typed && $0.span.upperBound == position } ?? false)
            {
                var next = path
                next.score.skipped += 1
                walk(node: nodeIndex, position: position + 1, path: next)
            }
            // (Most sentences name no app: no array and no look-up per step for them.)
            if path.namedApp == nil, !mentions.isEmpty {
                var starts = [(position, 0)]
                if prepositionAt[position] { starts.append((position + 1, 1)) }
                for (start, extra) in starts {
                    for mention in mentions[start] ?? [] {
                        var next = path
                        next.namedApp = mention.app
                        next.score.skipped += extra
                        walk(node: nodeIndex, position: start + mention.length, path: next)
                    }
                }
            }
        }
    }

    /// Whether the word at `position` begins the app's name right after a preposition that no
    /// template word read ("… in radar"): the sentence names the app there.
    private func namesAppAfterPreposition(_ position: Int, _ path: Path) -> Bool {
        position > 0 && mentions[position] != nil && path.literalEnd != position && prepositionAt[position - 1]
    }

    /// Whether the free text read last, ending at `position`, holds a word `node` reads next: the
    /// sentence said the word that goes on with the template, and the walk read it as part of a value.
    private func freeTextTookNextWord(of node: PhraseIndex.Node, before position: Int, _ path: Path) -> Bool {
        guard let last = path.slots.last, !last.typed, last.span.upperBound == position else { return false }
        return last.span.contains { node.words[tokens[$0].text] != nil }
    }

    /// Whether free text `slot` says only a place the intent's own phrases name: up to five words,
    /// a possessive or "a" among them ("the task" may be a name), a word the intent's templates or
    /// its app's rules spell, the rest prepositions and determiners ("my list", "to my to-do list",
    /// "a task").
    private mutating func namesOnlyThePlace(_ slot: Candidate.Slot, of entry: PhraseIndex.Entry) -> Bool {
        guard (2...5).contains(slot.span.count), slot.span.upperBound <= tokens.count else { return false }
        let said = tokens[slot.span].map(\.text)
        guard said.contains(where: Matcher.unspecificDeterminers.contains) else { return false }
        let words = phraseWords(of: entry.intent)
        var named = false
        for word in said where !Matcher.determiners.contains(word) {
            if words.contains(word), !PhraseIndex.prepositions.contains(word) {
                named = true
            } else if !PhraseIndex.prepositions.contains(word) {
                return false
            }
        }
        return named
    }

    /// The whole-number parameter, not yet said, that a span of time in `slot`'s words names, in the
    /// unit the intent's phrases write after it, with the words left for the slot: nil when the slot
    /// is all a span of time ("for half an hour"), the words before a span that ends it ("writing
    /// for half an hour"), or after one that starts it ("20 minuten zum lernen"), a word that
    /// introduces one or the other passed over. Nil when no span of time starts or ends the words.
    private mutating func measuredValue(
        in slot: Candidate.Slot, of entry: PhraseIndex.Entry, besides slots: [Candidate.Slot]
    ) -> (name: String, value: Int, said: Range<Int>, rest: Range<Int>?)? {
        let span = slot.span
        guard span.count >= 2, span.upperBound <= tokens.count else { return nil }
        var found: (seconds: Int, said: Range<Int>, rest: Range<Int>?)?
        if let duration = DurationParser.parse(tokens, at: span.lowerBound), let seconds = duration.seconds,
            seconds > 0, duration.length <= span.count
        {
            if duration.length == span.count {
                found = (seconds, span, nil)
            } else {
                var rest = (span.lowerBound + duration.length)..<span.upperBound
                if Self.durationJoiners.contains(tokens[rest.lowerBound].text) { rest = rest.dropFirst() }
                if !rest.isEmpty { found = (seconds, span.lowerBound..<(span.lowerBound + duration.length), rest) }
            }
        } else if Self.mayEndDuration(tokens[span.upperBound - 1].text) {
            for start in (span.lowerBound + 1)..<span.upperBound {
                guard let duration = DurationParser.parse(tokens, at: start),
                    start + duration.length == span.upperBound
                else { continue }
                if let seconds = duration.seconds, seconds > 0 {
                    var rest = span.lowerBound..<start
                    if Self.durationJoiners.contains(tokens[start - 1].text) { rest = rest.dropLast() }
                    if !rest.isEmpty { found = (seconds, start..<span.upperBound, rest) }
                }
                break
            }
        }
        guard let found else { return nil }
        for (name, unit) in measuredParameters(of: entry.intent)
        where found.seconds % unit == 0 && entry.values[name] == nil && !slots.contains(where: { $0.name == name }) {
            return (name, found.seconds / unit, found.said, found.rest)
        }
        return nil
    }

    /// Words that join a span of time to the rest of a free text ("writing for half an hour").
    static let durationJoiners: Set<String> = Matcher.introducingWords.union(["zum", "zur", "lang"])

    /// Whether `word` may be the last of a span of time: a unit, "half" ("an hour and a half"), or a
    /// number written with its unit ("25m", "1h30"). A cheap test before trying every start.
    static func mayEndDuration(_ word: String) -> Bool {
        DurationParser.unitSeconds[word] != nil || word == "half" || word.first?.isNumber == true
    }

    /// An intent's whole-number parameters that its phrases follow with a unit of time
    /// ("{minutes} minutes", "{minutes} minuten"), with the unit in seconds, in the parameters' order.
    private mutating func measuredParameters(of intent: QualifiedName) -> [(name: String, unit: Int)] {
        if let known = measuredParametersCache[intent] { return known }
        var measured: [(name: String, unit: Int)] = []
        let phrases = matcher.index.graph.intent(intent)?.phrases ?? []
        for parameter in parameters(of: intent) ?? [] where parameter.type == .integer {
            let slot = "{\(parameter.name)}"
            let unit = phrases.lazy.compactMap { phrase -> Int? in
                let source = phrase.template.source
                guard let range = source.range(of: slot) else { return nil }
                let word = source[range.upperBound...].drop { $0 == " " }.prefix { $0.isLetter }
                return DurationParser.unitSeconds[word.lowercased()]
            }.first
            if let unit { measured.append((parameter.name, unit)) }
        }
        measuredParametersCache[intent] = measured
        return measured
    }
    private var measuredParametersCache: [QualifiedName: [(name: String, unit: Int)]] = [:]

    /// The words an intent's phrases and its app's rules spell out, worked out once per intent and sentence.
    private mutating func phraseWords(of intent: QualifiedName) -> Set<String> {
        if let known = phraseWordsCache[intent] { return known }
        var words: Set<String> = []
        if let app = matcher.index.graph.app(named: intent.app) {
            let phrases =
                (app.intents.first { $0.name == intent }?.phrases ?? [])
                + app.shortcuts.filter { $0.intent == intent }.flatMap(\.phrases)
            for phrase in phrases {
                words.formUnion(templateWords(phrase.template.source))
            }
            for rule in app.rules.values { words.formUnion(templateWords(rule.source)) }
        }
        phraseWordsCache[intent] = words
        return words
    }
    private var phraseWordsCache: [QualifiedName: Set<String>] = [:]

    /// The words `template` spells out, folded as a sentence's are (not its slots' and rules' names),
    /// worked out once per template and sentence.
    private mutating func templateWords(_ template: String) -> Set<String> {
        if let known = templateWordsCache[template] { return known }
        var text = ""
        var inName = false
        for character in template {
            switch character {
            case "{", "<": inName = true
            case "}", ">": inName = false
            case "(", ")", "[", "]", "|": text.append(" ")
            default: if !inName { text.append(character) }
            }
        }
        let words = Set(Normalizer.tokens(text).map(\.text))
        templateWordsCache[template] = words
        return words
    }
    private var templateWordsCache: [String: Set<String>] = [:]

    private mutating func accept(_ entry: PhraseIndex.Entry, path: Path) {
        if let language, entry.language != language { return }
        var slots = path.slots
        if !path.anywhere.isEmpty {
            // Each value said anywhere goes to the one parameter of its type no slot or the phrase
            // filled; with none or several, this reading is no reading.
            guard let parameters = parameters(of: entry.intent) else { return }
            var taken = Set(slots.map(\.name)).union(entry.values.keys)
            for value in path.anywhere {
                let fitting = parameters.filter { $0.type == value.type && !taken.contains($0.name) }
                guard fitting.count == 1 else { return }
                taken.insert(fitting[0].name)
                slots.append(
                    Candidate.Slot(
                        name: fitting[0].name, value: value.option.value,
                        span: value.start..<(value.start + value.option.length), typed: true))
            }
        }
        if let named = path.namedApp, named != entry.app { return }
        var score = path.score
        // Free text that only says where the request goes ("add a task to my list": "my list") says no
        // value: the slot is asked for, its words read as said.
        if let at = slots.firstIndex(where: { !$0.typed && !$0.entity }), namesOnlyThePlace(slots[at], of: entry) {
            let words = slots[at].span.count
            slots.remove(at: at)
            score.freeWords -= words
            score.skipped += words
            score.unsaid += 1
        }
        // Free text introduced by a word that names ("add a task called book flights", "open the note
        // titled garage"): the name is what follows, when the template's own words come before it.
        for at in slots.indices where !slots[at].typed && slots[at].span.count > 1 && slots[at].span.lowerBound > 0 {
            let start = slots[at].span.lowerBound
            guard Matcher.namingWords.contains(tokens[start].text) else { continue }
            slots[at].span = (start + 1)..<slots[at].span.upperBound
            slots[at].value = .string(tokens.originalText(from: start + 1, through: slots[at].span.upperBound - 1))
            score.freeWords -= 1
            score.skipped += 1
        }
        // Free text that is all a span of time, where the intent has a whole-number slot its phrases
        // measure in a unit ("{minutes} minutes"), says that slot's value, not the free text's: "start a
        // focus block for 50 minutes" (or "for half an hour") is 50 (30) minutes, its title asked for.
        // Free text that starts or ends with a span of time ("let me focus on writing for half an
        // hour") says both: the span that slot's value, the rest the free text's.
        if let at = slots.firstIndex(where: { !$0.typed && !$0.entity }),
            let measured = measuredValue(in: slots[at], of: entry, besides: slots)
        {
            let span = slots[at].span
            let value = Candidate.Slot(
                name: measured.name, value: .integer(measured.value), span: measured.said, typed: true)
            if let rest = measured.rest {
                slots[at].span = rest
                slots[at].value = .string(tokens.originalText(from: rest.lowerBound, through: rest.upperBound - 1))
                slots.append(value)
                score.freeWords -= span.count - rest.count
            } else {
                slots[at] = value
                score.freeWords -= span.count
                score.unsaid += 1
            }
            score.typedSlots += 1
        }
        // The last-resort passes add only readings the passes before could not find.
        if pass == .oneWordOff, path.score.unknown == 0 { return }
        // A slot not said is only worth asking for when two of the template's words were said.
        if pass == .slotUnsaid, path.score.unsaid == 0 || path.score.literalWords < 2 { return }
        // Nor when a slot said names no record the store has: "set the alarm for seven" is no task
        // "alarm for seven" whose urgency went unsaid. Two guesses are no reading worth asking about.
        if pass == .slotUnsaid, knowsNames, path.slots.contains(where: \.unknownName) { return }
        // Read from a typo besides, it is a guess on a guess: kept only when it asks for a required
        // value, never acted on with its optional ones left out ("start a workout" as "star a workout
        // called {title}", "open settings" as "open {count} meetings").
        if pass == .slotUnsaid, path.score.edits > 0 {
            let said = Set(path.slots.map(\.name)).union(entry.values.keys)
            guard parameters(of: entry.intent)?.contains(where: { $0.isRequired && !said.contains($0.name) }) == true
            else { return }
        }
        // Leaving a template word out is only worth it when the rest is mostly the template's own words.
        if pass == .oneWordMissing,
            path.score.missing == 0 || path.score.literalWords < 2 || path.score.literalWords < path.score.freeWords
        {
            return
        }
        // A word passed over as one too many is never one the template says: out of its place, the
        // sentence is said in another order ("list next my me list" is no "list my next list").
        if path.passedOver >= 0, templateWords(entry.template).contains(tokens[path.passedOver].text) { return }
        // Nor a word that says not to: "please never delete the rust radar" is no "delete the rust radar".
        if path.passedOver >= 0, Matcher.negations.contains(tokens[path.passedOver].text) { return }
        // Nor another app's name: it says which app is meant ("add a sidebar task to …" is no FocusBlox
        // task with "sidebar" one word too many).
        if path.passedOver >= 0, let named = mentions[path.passedOver],
            !named.contains(where: { $0.app == entry.app })
        {
            return
        }
        // Passing a word over is only worth it when the rest is mostly the template's own words.
        if path.score.unknown > 0,
            path.score.literalWords < Matcher.literalWordsAroundUnknown
                || path.score.literalWords < path.score.freeWords
        {
            return
        }
        score.appNamed = path.namedApp == nil ? 0 : 1
        // A template that names {app} but was matched without it counts the app only if it was said elsewhere.
        var candidate = Candidate(
            intent: entry.intent, template: entry.template, language: entry.language, slots: slots,
            score: score, namedApp: path.namedApp, isNegative: entry.isNegative, phraseValues: entry.values)
        if let begun = path.begun, !candidate.slots.contains(where: { $0.name == begun }) {
            candidate.begun = [begun]
        }
        found.append(candidate)
        if let valueInstead = valueNotText(candidate) { found.append(valueInstead) }
    }

    /// `candidate` with its free text read as the value it wholly is, when that is a value of the one
    /// parameter of its type the reading left unset ("add a task tomorrow": due tomorrow, the title
    /// asked for, never a task called "tomorrow"). Nil when there is no such reading.
    private mutating func valueNotText(_ candidate: Candidate) -> Candidate? {
        // Most readings have no such slot: the intent is looked up only for one that has.
        guard !candidate.isNegative,
            candidate.slots.contains(where: { !$0.typed && !$0.entity && $0.span.count <= 4 }),
            let parameters = parameters(of: candidate.intent)
        else { return nil }
        for (at, slot) in candidate.slots.enumerated() where !slot.typed && !slot.entity && slot.span.count <= 4 {
            guard parameters.first(where: { $0.name == slot.name })?.type == .string else { continue }
            let taken = Set(candidate.slots.map(\.name)).union(candidate.phraseValues.keys)
            for value in valuesAnywhere(at: slot.span.lowerBound) where value.option.length == slot.span.count {
                let fitting = parameters.filter { $0.type == value.type && !taken.contains($0.name) }
                guard fitting.count == 1 else { continue }
                var instead = candidate
                instead.slots[at] = Candidate.Slot(
                    name: fitting[0].name, value: value.option.value, span: slot.span, typed: true)
                instead.score.freeWords -= slot.span.count
                instead.score.typedSlots += 1
                instead.score.anywhere += 1
                return instead
            }
        }
        return nil
    }
}

extension Matcher {
    /// `text` read as one value of `type`, all of it (an answer to a question): nil when it is not
    /// such a value. Free text is kept as typed; entity names come back as text for the store.
    public func parseValue(_ text: String, as type: ValueType) -> Value? {
        let trimmed = text.trimmed
        guard !trimmed.isEmpty else { return nil }
        switch type {
        case .string, .entity: return .string(trimmed)
        case .array(.string): break
        default: break
        }
        let tokens = Normalizer.tokens(trimmed)
        guard !tokens.isEmpty, tokens.count <= Normalizer.maximumTokens else { return nil }
        let whole = SlotParser.options(for: type, tokens: tokens, at: 0, matcher: self).filter {
            $0.length == tokens.count
        }
        // Words of the type that name no usable value (out of range, no such day) are no answer.
        return (whole.first { $0.typed } ?? whole.first).flatMap { $0.problem == nil ? $0.value : nil }
    }
}

extension PhraseIndex {
    /// Every phrase as it may be spoken, shortcuts first: for completion at a prompt.
    public var completions: [String] {
        spokenPhrases.filter(\.isShortcut).map(\.text) + spokenPhrases.filter { !$0.isShortcut }.map(\.text)
    }
}
