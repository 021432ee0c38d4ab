import Foundation
import IntentModel

/// The second stage as a session holds it: the model, trained on first need (most sentences are
/// answered by the exact matcher and never pay for it), read from the compiled cache when one was
/// written for the same definitions, written there after training. Thresholds per app.
public final class LearnedStage: @unchecked Sendable {
    public let index: PhraseIndex
    /// Where the model is cached (`.intents/learned-<hash>.bin`); nil: never cached.
    public let cacheDirectory: String?
    /// The compiled cache the definitions were read from, when they were: the models are kept in it
    /// (sections `learned` and `tagger`) instead of files of their own. Set once, before first use.
    public var compiled: CompiledCache?
    /// Hash of the definition files' bytes: a cache written for other definitions is never read.
    public let definitionsHash: UInt64
    /// Per app; apps not listed use `LearnedThresholds.standard`.
    public let thresholds: [String: LearnedThresholds]
    /// Annotated `training:` sentences per intent, reduced to their words.
    public let training: [QualifiedName: [String]]

    /// How the model was had, once it was: trained (and how long it took), read from the cache, or
    /// retrained because the cache was unreadable.
    public enum Origin: Sendable, Equatable {
        case trained(seconds: Double)
        case cached
        case rebuilt(seconds: Double)
    }

    private let lock = NSLock()
    private var loaded: LearnedModel?
    private var intentIndexes: [QualifiedName: PhraseIndex] = [:]
    /// Per intent, the trie of its training sentences' wording; nil kept too: most intents have none.
    private var trainingIndexes: [QualifiedName: PhraseIndex?] = [:]
    private var appWordings: [String: Set<String>] = [:]
    /// The slot tagger, trained or read on first need (`LearnedStage+Tagger.swift`).
    let taggerHolder = TaggerHolder()
    public private(set) var origin: Origin?

    public init(
        index: PhraseIndex, cacheDirectory: String? = nil, definitionsHash: UInt64 = 0,
        thresholds: [String: LearnedThresholds] = [:], training: [QualifiedName: [String]] = [:]
    ) {
        self.index = index
        self.cacheDirectory = cacheDirectory
        self.definitionsHash = definitionsHash
        self.thresholds = thresholds
        self.training = training
    }

    /// The cache file for these definitions (the compiled cache's, when the stage keeps its models there).
    public var cacheFile: String? {
        if let compiled { return compiled.file }
        return cacheDirectory.map {
            PathText.appending($0, "learned-" + String(definitionsHash, radix: 16) + ".bin")
        }
    }

    /// The model: from memory, else the cache, else trained now (and cached).
    public var model: LearnedModel {
        lock.lock()
        defer { lock.unlock() }
        if let loaded { return loaded }
        let key = memoKey
        var unreadable = false
        if let bytes = cachedBytes(section: "learned", file: cacheFile) {
            if let model = LearnedModel(decoding: bytes, definitionsHash: definitionsHash) {
                Self.memo.withLock { $0[key] = model }
                loaded = model
                origin = .cached
                return model
            }
            unreadable = true
        }
        // Another session of this process over the same phrases trained it already (the REPL, tests).
        if let model = Self.memo.withLock({ $0[key] }) {
            loaded = model
            origin = unreadable ? .rebuilt(seconds: 0) : .cached
            write(model)
            return model
        }
        let started = DispatchTime.now().uptimeNanoseconds
        let model = LearnedTrainer.train(index: index, training: training)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        origin = unreadable ? .rebuilt(seconds: seconds) : .trained(seconds: seconds)
        loaded = model
        Self.memo.withLock { $0[key] = model }
        write(model)
        return model
    }

    /// Models trained in this process, by what they were trained from.
    private static let memo = LockedModels()

    /// What training reads, hashed: every app's name, rules, enums and intents' phrases, the `training:` sentences.
    private var memoKey: UInt64 {
        var hash = StableHash()
        hash.add("format \(LearnedModel.formatVersion) \(LearnedStage.lexicon) seed \(LearnedTrainer.seed)")
        Self.hashDefinitions(of: index.graph, into: &hash) { intent, hash in
            for sentence in training[intent.name] ?? [] { hash.add(sentence) }
        }
        return hash.value
    }

    /// Hashes what both learned models read of the definitions (apps' names and synonyms, rules,
    /// enums, intents' parameters and phrases); `intent` adds what one model reads besides, per intent.
    static func hashDefinitions(
        of graph: IntentGraph, into hash: inout StableHash, intent extra: (IntentGraph.Intent, inout StableHash) -> Void
    ) {
        for app in graph.apps {
            hash.add(app.name)
            for synonym in app.synonyms { hash.add(synonym) }
            for (name, rule) in app.rules.sorted(by: { $0.key < $1.key }) {
                hash.add(name)
                hash.add(rule.source)
            }
            for enumeration in app.enums {
                hash.add(enumeration.name.description)
                for c in enumeration.cases {
                    hash.add(c.title)
                    for synonym in c.synonyms { hash.add(synonym) }
                }
            }
            for intent in app.intents {
                hash.add(intent.name.description)
                for parameter in intent.parameters {
                    hash.add(parameter.name)
                    hash.add(parameter.type.description)
                }
                for phrase in intent.phrases {
                    hash.add(phrase.language)
                    hash.add(phrase.template.source)
                }
                extra(intent, &hash)
            }
        }
    }

    /// Which lexicon training reads ("wordnet", or "none" when WordNet is not installed): part of the
    /// cache's key, so installing it retrains.
    public static var lexicon: String {
        LearnedTrainer.useWordNet && FileManager.default.fileExists(atPath: WordNet.directory + "/index.verb")
            ? "wordnet-links" : "none"
    }

    /// Thresholds for an intent of `app`.
    public func thresholds(for app: String) -> LearnedThresholds { thresholds[app] ?? .standard }

    /// The learned stage's guess for a sentence the exact matcher did not answer.
    public func guess(_ text: String, language: String? = nil, matcher: Matcher) -> LearnedGuess? {
        let model = model
        return matcher.guess(
            text, language: language, model: model, thresholds: thresholds(for:), phrasesOf: phrases(of:),
            trainingOf: trainingPhrases(of:), wordingOf: wording(of:), tagger: { self.tagger })
    }

    /// The classifier alone on `text`: its intents, most likely first (up to three), and none's
    /// probability; no guard, no threshold (for measuring it by itself).
    public func classification(_ text: String) -> (
        ranking: [(intent: QualifiedName, probability: Double)], none: Double
    ) {
        let model = model
        let words = LearnedModel.words(of: Normalizer.tokens(text))
        let evidence = model.evidence(words)
        guard evidence.intent >= 0 else { return ([], 1) }
        return (evidence.ranking.map { (model.intents[Int($0.intent)], $0.probability) }, evidence.noneProbability)
    }

    /// A trie of one intent's phrases (built on first use): slot values are found by searching it,
    /// not every app's phrases.
    func phrases(of intent: QualifiedName) -> PhraseIndex? {
        oneIntentIndex(intent, training: false)
    }

    /// A trie of one intent's `training:` sentences' wording, their marked values slots
    /// (`frames(of:)`), built on first use; nil when it has none.
    func trainingPhrases(of intent: QualifiedName) -> PhraseIndex? {
        oneIntentIndex(intent, training: true)
    }

    /// Every word of `app`'s phrases, rules and `training:` sentences outside their values (built on
    /// first use): a word the definitions know, but not from this app, is no word of its requests.
    func wording(of app: String) -> Set<String> {
        lock.lock()
        defer { lock.unlock() }
        if let words = appWordings[app] { return words }
        var words: Set<String> = []
        func add(_ source: String) {
            let plain = source.map { "()[]|{}<>".contains($0) ? " " : $0 }
            words.formUnion(Normalizer.tokens(String(plain)).map(\.text))
        }
        if let found = index.graph.app(named: app) {
            for name in [found.name] + found.synonyms { add(name) }
            for rule in found.rules.values { add(rule.source) }
            for intent in found.intents {
                for phrase in intent.phrases + intent.negativePhrases { add(phrase.template.source) }
                for sentence in intent.trainingSentences {
                    for piece in sentence.pieces where piece.slot == nil { add(piece.text) }
                }
            }
        }
        appWordings[app] = words
        return words
    }

    private func oneIntentIndex(_ intent: QualifiedName, training: Bool) -> PhraseIndex? {
        lock.lock()
        defer { lock.unlock() }
        if training, let known = trainingIndexes[intent] { return known }
        if !training, let index = intentIndexes[intent] { return index }
        guard let app = index.graph.app(named: intent.app),
            var own = app.intents.first(where: { $0.name == intent })
        else { return nil }
        if training {
            let written = Set(own.phrases.map(\.template.source))
            own.phrases = Self.frames(of: own).filter { !written.contains($0.template.source) }
            guard !own.phrases.isEmpty else {
                trainingIndexes[intent] = .some(nil)
                return nil
            }
        }
        let single = IntentGraph.App(
            name: app.name, synonyms: app.synonyms, languages: app.languages, enums: app.enums,
            entities: app.entities, intents: [own], shortcuts: [], rules: app.rules, constants: app.constants,
            examples: [], files: [], location: app.location)
        let built = PhraseIndex(graph: IntentGraph(apps: [single]))
        if training { trainingIndexes[intent] = built } else { intentIndexes[intent] = built }
        return built
    }

    /// `intent`'s `training:` sentences as phrases: the words around the marked values as the
    /// author wrote them, each value a slot of its parameter ("take [mow the lawn](task) off my list"
    /// is "take {task} off my list"). A sentence that says one of them with other values is as
    /// plain as a phrase of the intent. Sentences marking no parameter of the intent are left out.
    static func frames(of intent: IntentGraph.Intent) -> [IntentGraph.Phrase] {
        let language = intent.phrases.first?.language ?? "en"
        return intent.trainingSentences.compactMap { sentence in
            var items: [PhraseTemplate.Item] = []
            var source = ""
            for piece in sentence.pieces {
                if let slot = piece.slot {
                    guard intent.parameter(slot) != nil else { return nil }
                    items.append(.slot(slot, offset: source.utf8.count + 1))
                    source += "{" + slot + "}"
                } else {
                    items += Normalizer.tokens(piece.text).map { .word($0.text) }
                    source += piece.text
                }
            }
            guard items.contains(where: { if case .word = $0 { true } else { false } }) else { return nil }
            return IntentGraph.Phrase(
                language: language, template: PhraseTemplate(items: items, source: source), location: intent.location)
        }
    }

    /// Writes the cache beside the store, atomically, and removes caches of other definitions.
    /// A cache that cannot be written is no error: the next process trains again.
    private func write(_ model: LearnedModel) {
        storeBytes(
            model.encoded(definitionsHash: definitionsHash), section: "learned", file: cacheFile, others: "learned-")
    }

    /// A hash of the definition files' contents (paths sorted), and the model format: what the cache is keyed by.
    public static func definitionsHash(files: some Sequence<String>) -> UInt64 {
        definitionsHash(digest: DefinitionsDigest.of(files: files))
    }

    /// The same for definition files whose `DefinitionsDigest` is `digest` (a project keeps it from
    /// reading them: `Project.definitionsDigest`).
    public static func definitionsHash(digest: UInt64) -> UInt64 {
        StableHash.of("format \(LearnedModel.formatVersion) \(LearnedStage.lexicon)", String(digest, radix: 16))
    }
}

extension LearnedStage {
    /// An exact match that says little: free text that outweighs the template's words after one of
    /// them was corrected ("notes recent my read" as "note {text}", "completed as fence garden the
    /// mark" as "complete {task}"). The learned stage reviews such matches before anything runs. A
    /// long title after exact template words ("add an urgent task renew the passport before …") is not weak.
    public static func isWeak(_ candidate: Candidate) -> Bool {
        let score = candidate.score
        return score.edits > 0 && score.freeWords >= score.literalWords
    }

    static let possessives: Set<String> = ["my", "your", "our", "mein", "meine", "meinen", "meinem", "dein", "deine"]

    /// One template word and free text of several words that starts with a possessive ("track my
    /// package": a thing the person has, which is what other apps' requests are about) or holds a word
    /// of the intent's own phrases ("complete as chess mark": another of its phrases, backwards). The
    /// learned stage reviews such matches too; "track electric cars" or "note garden fence" are not in
    /// doubt.
    public func isInDoubt(_ candidate: Candidate) -> Bool {
        if endsAsAnotherKind(candidate) { return true }
        let score = candidate.score
        guard score.literalWords <= 1, score.freeWords >= 2, score.typedSlots == 0 else { return false }
        let words = candidate.slots.filter { !$0.typed }.flatMap { slot -> [String] in
            guard case .string(let text) = slot.value else { return [] }
            return Normalizer.tokens(text).map(\.text)
        }
        if let first = words.first, Self.possessives.contains(first) { return true }
        guard let own = phrases(of: candidate.intent)?.vocabulary else { return false }
        return words.contains { own.contains($0) }
    }

    /// Free text that ends by saying it is another kind of thing than the intent's ("jot down pick up
    /// the dry cleaning as a task" read as a note "… as a task"): the sentence says which kind of
    /// record it wants, and the reading makes the other. "as a", "as an", "als" and the name or a
    /// synonym of an entity none of the intent's parameters or its result is.
    func endsAsAnotherKind(_ candidate: Candidate) -> Bool {
        guard let intent = index.graph.intent(candidate.intent) else { return false }
        var own: Set<QualifiedName> = []
        for type in intent.parameters.map(\.type) + (intent.resultType.map { [$0] } ?? []) {
            if case .entity(let entity) = type.element ?? type { own.insert(entity) }
        }
        return candidate.slots.contains { slot in
            guard !slot.typed, case .string(let text) = slot.value else { return false }
            let words = Normalizer.tokens(text).map(\.text)
            guard words.count >= 3, let kind = words.last else { return false }
            let before = words[words.count - 2]
            let introduced =
                ["a", "an", "eine", "einen"].contains(before) && ["as", "als"].contains(words[words.count - 3])
                || before == "als"
            guard introduced else { return false }
            return index.graph.entities.contains { entity in
                guard !own.contains(entity.name) else { return false }
                let names = [entity.name.name, entity.title ?? ""] + entity.titles.values + entity.synonyms
                return names.contains { name in
                    let folded = Normalizer.tokens(name).map(\.text)
                    return folded == [kind] || folded.map { $0 + "s" } == [kind]
                }
            }
        }
    }

    /// For a weak exact match that the learned stage does not understand either: a guess that asks
    /// "Did you mean …?" about the exact match instead of running it; for a match mostly of free text
    /// that the classifier is sure is another intent, that intent's guess (decision `act`). nil: act
    /// on the match.
    public func review(_ candidate: Candidate, text: String, language: String? = nil, matcher: Matcher)
        -> LearnedGuess?
    {
        // A reading mostly of free text ("what is {object_name}" for "what's the weather going to be in
        // Utah") is decided by the sentence's shape: the classifier, sure of another intent, wins.
        if candidate.score.freeWords > candidate.score.literalWords,
            let guess = guess(text, language: language, matcher: matcher), guess.decision == .act,
            guess.candidate.intent != candidate.intent
        {
            return guess
        }
        guard Self.isWeak(candidate) || isInDoubt(candidate) else { return nil }
        let guess = guess(text, language: language, matcher: matcher)
        if let guess, guess.decision == .act, guess.candidate.intent == candidate.intent { return nil }
        return LearnedGuess(
            candidate: candidate, confidence: guess?.confidence ?? 0, decision: .ask,
            thresholds: thresholds(for: candidate.intent.app), template: candidate.template, runnerUp: nil,
            similarity: guess?.similarity ?? 0, pairCoverage: guess?.pairCoverage ?? 0, known: guess?.known ?? 0,
            carriedBy: guess?.carriedBy ?? [])
    }
}

/// The process's trained models behind a lock (macOS 14 has no `Mutex`).
private final class LockedModels: @unchecked Sendable {
    private let lock = NSLock()
    private var models: [UInt64: LearnedModel] = [:]

    func withLock<T>(_ body: (inout [UInt64: LearnedModel]) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&models)
    }
}
