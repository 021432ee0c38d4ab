import Foundation
import IntentModel

/// Trains a `LearnedModel` from the definitions: every phrase template expanded and sampled with
/// slot values drawn from fixed pools, plus the intents' annotated `training:` sentences; then a
/// calibration fitted on the same sentences perturbed (a typo, a word dropped or inserted, a
/// filler) against generated noise and reversed sentences, which must not be understood.
/// Deterministic: one seeded generator, arrays in definition order, sorted vocabularies.
public enum LearnedTrainer {
    /// Sentences sampled per phrase template.
    static let samplesPerPhrase = 10

    /// One training sentence: its words, which of them are free text (kept out of the vocabulary), its class.
    struct Example {
        var words: [String]
        var free: [Bool]
        var cls: Int32
        /// Words of a `training:` sentence's marked free-text value: words of the sentence, but never
        /// its telling word (empty: none).
        var value: [Bool] = []
        /// What the sentence is, as a stable hash of where it came from (its intent, its template or
        /// `training:` sentence, which sample): it seeds the sentence's perturbation and negatives and
        /// places it in the fit's order, so that neither depends on the sentences of other intents.
        var key: UInt64 = 0
        /// Its place among its intent's sentences: one in three gives the none class its negatives.
        var ordinal = 0
    }

    /// Trains on the index's graph; `training` adds annotated sentences per intent (their `[words](slot)`
    /// marks already reduced to the words). Every draw of chance is seeded by `seed` and the unit it is
    /// for (a phrase template, a sentence, a noise sentence's number), never by how many draws came
    /// before: an intent's sentences, their copies and negatives are the same whatever other intents
    /// the definitions hold.
    public static func train(
        index: PhraseIndex, training: [QualifiedName: [String]] = [:], seed: UInt64 = LearnedTrainer.seed
    ) -> LearnedModel {
        let graph = index.graph
        var intents: [QualifiedName] = []
        var classIntent: [Int32] = []
        var classTemplate: [String] = []
        var classIsPhrase: [Bool] = []
        var examples: [Example] = []
        // The words of each text a sentence is made of, once: templates' words, names and sampled
        // values recur in thousands of sentences.
        var wordsOf: [String: [String]] = [:]
        for app in graph.apps {
            for intent in app.intents {
                let intentIndex = Int32(intents.count)
                intents.append(intent.name)
                let firstExample = examples.count
                for phrase in intent.phrases {
                    var random = SeededGenerator(
                        seed: seed,
                        key: StableHash.of("phrase", intent.name.description, phrase.language, phrase.template.source))
                    let cls = Int32(classIntent.count)
                    classIntent.append(intentIndex)
                    classTemplate.append(phrase.template.source)
                    classIsPhrase.append(true)
                    guard
                        let sentences = phrase.template.expansions(rules: app.rules, limit: PhraseIndex.expansionLimit),
                        !sentences.isEmpty
                    else { continue }
                    let count = min(samplesPerPhrase, sentences.count * 3)
                    for sample in 0..<count {
                        // Every expansion once while there are few, then at random.
                        let pieces = sample < sentences.count ? sentences[sample] : random.pick(sentences)
                        var example = example(
                            pieces, cls: cls, intent: intent, app: app, graph: graph, language: phrase.language,
                            random: &random, words: &wordsOf)
                        example.key = StableHash.of(
                            "sample", intent.name.description, phrase.language, phrase.template.source, String(sample))
                        examples.append(example)
                    }
                }
                let marked = Dictionary(
                    intent.trainingSentences.map { ($0.text, $0) }, uniquingKeysWith: { first, _ in first })
                for sentence in training[intent.name] ?? [] {
                    let cls = Int32(classIntent.count)
                    classIntent.append(intentIndex)
                    classTemplate.append(sentence)
                    classIsPhrase.append(false)
                    var example = trainingExample(sentence, marked: marked[sentence], intent: intent, cls: cls)
                    example.key = StableHash.of("training", intent.name.description, sentence)
                    examples.append(example)
                }
                for ordinal in firstExample..<examples.count { examples[ordinal].ordinal = ordinal - firstExample }
            }
        }

        // Vocabulary: every word but free text, sorted.
        var vocabulary = Set<String>()
        for example in examples {
            for (word, free) in zip(example.words, example.free) where !free { vocabulary.insert(word) }
        }
        let words = vocabulary.sorted()
        let wordIDs = Dictionary(uniqueKeysWithValues: words.enumerated().map { ($1, Int32($0)) })
        func ids(_ example: Example) -> [Int32] {
            example.words.map { wordIDs[$0] ?? LearnedModel.unknown }
        }
        var pairSet = Set<UInt64>()
        for example in examples {
            let framed = [LearnedModel.start] + ids(example) + [LearnedModel.end]
            for i in 0..<(framed.count - 1) { pairSet.insert(LearnedModel.pairKey(framed[i], framed[i + 1])) }
        }
        let pairs = pairSet.sorted()

        // Document frequencies (a feature counted once per sentence), then IDF.
        let unweighted = LearnedModel(
            intents: intents, classIntent: classIntent, classTemplate: classTemplate, words: words, pairs: pairs,
            idf: [Float](repeating: 1, count: words.count + pairs.count),
            postingStart: [0]
                + [Int32](
                    repeating: 0, count: words.count + pairs.count),
            postingClass: [], postingWeight: [], classifier: .empty)
        var documentFrequency = [Int](repeating: 0, count: unweighted.featureCount)
        let exampleIDs = examples.map(ids)
        for exampleIDs in exampleIDs {
            for (feature, _) in unweighted.vector(exampleIDs) { documentFrequency[Int(feature)] += 1 }
        }
        let total = Float(examples.count)
        let idf = documentFrequency.map { log((1 + total) / (1 + Float($0))) + 1 }
        let weighted = LearnedModel(
            intents: intents, classIntent: classIntent, classTemplate: classTemplate, words: words, pairs: pairs,
            idf: idf,
            postingStart: unweighted.postingStart, postingClass: [], postingWeight: [], classifier: .empty)

        // Prototypes: the normalized sum of each class's normalized sentence vectors.
        var triples: [(feature: Int32, cls: Int32, weight: Float)] = []
        var position = 0
        while position < examples.count {
            let cls = examples[position].cls
            var sum: [Int32: Float] = [:]
            while position < examples.count, examples[position].cls == cls {
                for (feature, weight) in weighted.vector(exampleIDs[position]) { sum[feature, default: 0] += weight }
                position += 1
            }
            let features = sum.keys.sorted()
            let norm = features.reduce(Float(0)) { $0 + sum[$1]! * sum[$1]! }.squareRoot()
            guard norm > 0 else { continue }
            for feature in features {
                let weight = sum[feature]! / norm
                if weight >= 0.005 { triples.append((feature, cls, weight)) }
            }
        }
        triples.sort { ($0.feature, $0.cls) < ($1.feature, $1.cls) }
        var postingStart = [Int32](repeating: 0, count: weighted.featureCount + 1)
        for triple in triples { postingStart[Int(triple.feature) + 1] += 1 }
        for i in 0..<weighted.featureCount { postingStart[i + 1] += postingStart[i] }
        let prototypes = LearnedModel(
            intents: intents, classIntent: classIntent, classTemplate: classTemplate, words: words, pairs: pairs,
            idf: idf,
            postingStart: postingStart, postingClass: triples.map(\.cls), postingWeight: triples.map(\.weight),
            classifier: .empty)

        var samples = classifierSamples(prototypes, examples: examples, seed: seed)
        samples += authorExamples(graph, model: prototypes, intents: intents)
        let related = useWordNet ? WordNet().map { $0.lexicon(words) } ?? [:] : [:]
        let classifier = LearnedClassifier.train(samples, classes: intents.count + 1, seed: seed)
        return LearnedModel(
            intents: intents, classIntent: classIntent, classTemplate: classTemplate, words: words, pairs: pairs,
            idf: idf,
            postingStart: postingStart, postingClass: prototypes.postingClass,
            postingWeight: prototypes.postingWeight, classifier: classifier, related: related,
            classIsPhrase: classIsPhrase)
    }

    /// Whether training reads WordNet (when it is installed) for the words it links to the
    /// definitions' (`WordNet.lexicon`): on unless `INTENTS_USE_WORDNET=0` (BENCHMARKS.md, 2026-11-26).
    nonisolated(unsafe) static var useWordNet = ProcessInfo.processInfo.environment["INTENTS_USE_WORDNET"] != "0"

    /// The seed of training's draws when none is given: `0x1EA2_11ED` unless `intents-bench nlu --seed`
    /// sets another, to measure how much of a figure is the draw (CLINC150's out-of-scope recall at
    /// the validation-chosen threshold: 32–51 % over four seeds, BENCHMARKS.md, clinc12). Process-wide
    /// like `useWordNet`; the compiled cache does not know it, so nothing but the benchmark sets it.
    nonisolated(unsafe) public static var seed: UInt64 = 0x1EA2_11ED

    /// A sentence model's embedding as more features of the classifier, for training and reading
    /// (`SentenceFeatures`): nil unless `intents-bench nlu --embeddings` sets it (BENCHMARKS.md, embed11).
    nonisolated(unsafe) public static var sentenceFeatures: SentenceFeatures?

    // MARK: Sentences

    /// A `training:` sentence as an example. The words of a `[value](slot)` mark naming a record (an
    /// entity parameter: a task, a radar, a note) are free, as a template's sampled values are: they
    /// are the user's names, never the intent's wording. A marked string value stays words the
    /// classifier learns (SNIPS: an artist's name says "play music"; as free text, intent accuracy
    /// fell 97.9 → 96.9 %) but is never the sentence's telling word. Before, a marked value was the
    /// rarest word of its sentence, and the copy with it replaced was taught as none's though it is
    /// still the intent's wording: the more examples an author wrote, the more none learned it.
    static func trainingExample(
        _ sentence: String, marked: IntentGraph.TrainingSentence?, intent: IntentGraph.Intent, cls: Int32
    ) -> Example {
        guard let marked else {
            let words = LearnedModel.words(of: Normalizer.tokens(sentence))
            return Example(words: words, free: words.map { _ in false }, cls: cls)
        }
        var words: [String] = [], free: [Bool] = [], value: [Bool] = []
        for piece in marked.pieces {
            let type = piece.slot.flatMap { intent.parameter($0)?.type }
            var isEntity = false, isString = false
            switch type {
            case .entity?: isEntity = true
            case .string?: isString = true
            default: break
            }
            for word in LearnedModel.words(of: Normalizer.tokens(piece.text)) {
                words.append(word)
                free.append(isEntity)
                value.append(isEntity || isString)
            }
        }
        return Example(words: words, free: free, cls: cls, value: value)
    }

    private static func example(
        _ pieces: [PhraseTemplate.Piece], cls: Int32, intent: IntentGraph.Intent, app: IntentGraph.App,
        graph: IntentGraph, language: String, random: inout SeededGenerator, words wordsOf: inout [String: [String]]
    ) -> Example {
        var words: [String] = [], free: [Bool] = []
        func add(_ text: String, free isFree: Bool) {
            let found: [String]
            if let known = wordsOf[text] {
                found = known
            } else {
                found = LearnedModel.words(of: Normalizer.tokens(text))
                wordsOf[text] = found
            }
            for word in found {
                words.append(word)
                free.append(isFree)
            }
        }
        for piece in pieces {
            switch piece {
            case .word(let word): add(word, free: false)
            case .app: add(random.chance(1, in: 2) ? app.name : random.pick([app.name] + app.synonyms), free: false)
            case .slot(let name):
                let type = intent.parameter(name)?.type ?? .string
                let (text, isFree) = sampleValue(type, graph: graph, language: language, random: &random)
                add(text, free: isFree)
            }
        }
        return Example(words: words, free: free, cls: cls)
    }

    /// A value for a slot of `type`, and whether it is free text (a name or words the user chooses).
    static func sampleValue(_ type: ValueType, graph: IntentGraph, language: String, random: inout SeededGenerator)
        -> (text: String, free: Bool)
    {
        let german = language == "de"
        switch type {
        case .string, .entity:
            let count = 1 + random.below(3)
            return ((0..<count).map { _ in random.pick(LearnedWords.freeText) }.joined(separator: " "), true)
        case .integer, .number: return (random.pick(LearnedWords.numbers), false)
        case .boolean: return (random.pick(german ? ["ja", "nein"] : ["yes", "no", "on", "off"]), false)
        case .date: return (random.pick(german ? LearnedWords.germanDates : LearnedWords.dates), false)
        case .duration: return (random.pick(german ? LearnedWords.germanDurations : LearnedWords.durations), false)
        case .url: return ("https://example.com/page", true)
        case .enumeration(let name):
            let cases = graph.enumeration(name)?.cases ?? []
            guard !cases.isEmpty else { return ("x", true) }
            let chosen = random.pick(cases)
            return (random.pick([chosen.title] + chosen.synonyms), false)
        case .array(let element): return sampleValue(element, graph: graph, language: language, random: &random)
        }
    }

    // MARK: Perturbations

    enum Perturbation: CaseIterable {
        case none, typo, inserted, dropped, filler
        /// Two neighbours swapped, and two changes at once: closer to how people rephrase.
        case swapped, twice
    }

    static func perturb(_ words: [String], _ kind: Perturbation, random: inout SeededGenerator) -> [String] {
        var words = words
        switch kind {
        case .none: break
        case .typo:
            let long = words.indices.filter { words[$0].count >= 4 }
            guard !long.isEmpty else { break }
            let at = random.pick(long)
            words[at] = typo(words[at], random: &random)
        case .inserted:
            words.insert(random.pick(LearnedWords.noise), at: random.below(words.count + 1))
        case .dropped:
            if words.count > 2 { words.remove(at: random.below(words.count)) }
        case .filler:
            words.insert(random.pick(["please", "hey", "um", "just", "so"]), at: random.below(words.count + 1))
        case .swapped:
            if words.count >= 3 {
                let at = random.below(words.count - 1)
                words.swapAt(at, at + 1)
            }
        case .twice:
            let kinds: [Perturbation] = [.typo, .inserted, .dropped, .swapped]
            words = perturb(words, random.pick(kinds), random: &random)
            words = perturb(words, random.pick(kinds), random: &random)
        }
        return words
    }

    /// One letter swapped with its neighbour, dropped, doubled or replaced.
    static func typo(_ word: String, random: inout SeededGenerator) -> String {
        var letters = Array(word)
        let at = 1 + random.below(max(1, letters.count - 2))
        switch random.below(4) {
        case 0: if at + 1 < letters.count { letters.swapAt(at, at + 1) }
        case 1: letters.remove(at: at)
        case 2: letters.insert(letters[at], at: at)
        default: letters[at] = Character(Unicode.Scalar(UInt8(97 + random.below(26))))
        }
        return String(letters)
    }

    /// Noise: a few words from everyday speech with at most two of the definitions' words among them.
    /// A definitions' word is chosen by rendezvous hashing (`wordKeys`: each word's stable hash): the
    /// word whose hash mixed with the draw is highest, so a word added to the definitions changes a
    /// noise sentence only where it wins, not every pick after it as an index into the list did.
    static func noise(_ model: LearnedModel, wordKeys: [UInt64], random: inout SeededGenerator) -> [String] {
        let length = 2 + random.below(6)
        var words: [String] = []
        var known = 0
        for _ in 0..<length {
            if known < 2, !model.words.isEmpty, random.chance(1, in: 3) {
                let draw = random.next()
                var best = 0, bestScore: UInt64 = 0
                for (i, key) in wordKeys.enumerated() {
                    let score = SeededGenerator.mixed(key ^ draw)
                    if score > bestScore || i == 0 { (best, bestScore) = (i, score) }
                }
                words.append(model.words[best])
                known += 1
            } else {
                words.append(random.pick(LearnedWords.noise))
            }
        }
        return words
    }

    // MARK: The classifier's sentences

    /// How much a sentence with its telling word replaced counts as none's (less lets more
    /// out-of-domain requests act: at 0, 1.9 % of Benchmarks/data/out-of-domain.txt does). As much
    /// as a sentence of an intent: at 0.5, CLINC150's out-of-scope recall was 57.8 % (64.2 % at 1,
    /// in scope 89.9 → 89.4 %, validation's right answers 89.4 → 89.5 %; BENCHMARKS.md 2026-11-26).
    static let substitutedWeight: Float = 1
    /// One noise sentence per this many positive ones (200 at least).
    static let noiseShare = 10

    /// A sentence's words as the classifier sees them in training: free text as free, the rest by
    /// the model's vocabulary (typos corrected, as when a person's sentence is read).
    static func classifierWords(_ words: [String], free: [Bool], known: inout KnownWords) -> [LearnedClassifier.Word] {
        zip(words, free).map { word, free in
            LearnedClassifier.Word(said: word, known: known.word(word), free: free)
        }
    }

    /// The known word each word is (itself, another form of it, or the one it is a typo of), looked
    /// up once per word: a typo's correction searches the vocabulary, and training sentences repeat words.
    struct KnownWords {
        let model: LearnedModel
        private var found: [String: String?] = [:]

        init(_ model: LearnedModel) { self.model = model }

        mutating func word(_ word: String) -> String? {
            if let known = found[word] { return known }
            let id = model.ids([word]).ids[0]
            let known = id >= 0 ? model.words[Int(id)] : nil
            found[word] = .some(known)
            return known
        }
    }

    /// What the classifier learns from: every sampled and `training:` sentence under its intent, and
    /// once more perturbed (a typo, a word inserted, dropped or swapped, a filler, two changes); under
    /// none, generated noise (everyday words with at most two of the definitions'), sentences said
    /// backwards and sentences whose telling word was replaced by an everyday one ("open the radar" →
    /// "open the camera": another app's request in this one's words).
    static func classifierSamples(_ model: LearnedModel, examples: [Example], seed: UInt64)
        -> [LearnedClassifier.Sample]
    {
        let none = model.intents.count
        var known = KnownWords(model)
        var samples: [LearnedClassifier.Sample] = []
        let kinds = Perturbation.allCases.filter { $0 != .none }
        // A sample's key: its sentence's, told apart from the copies made of it.
        func key(_ example: Example, _ copy: UInt64) -> UInt64 { SeededGenerator.mixed(example.key ^ copy) }
        for (index, example) in examples.enumerated() {
            var random = SeededGenerator(seed: seed, key: key(example, 1))
            let intent = Int(model.classIntent[Int(example.cls)])
            samples.append(
                .init(
                    words: classifierWords(example.words, free: example.free, known: &known), label: intent,
                    group: index, key: example.key, groupKey: example.key))
            let perturbed = perturb(example.words, random.pick(kinds), random: &random)
            let free = perturbed.map { LearnedWords.freeTextSet.contains($0) && model.wordIDs[$0] == nil }
            samples.append(
                .init(
                    words: classifierWords(perturbed, free: free, known: &known), label: intent, weight: 0.5,
                    group: index, key: key(example, 2), groupKey: example.key))
        }
        let positives = samples.count
        let own = ownWords(model, examples: examples)
        for (index, example) in examples.enumerated() where example.ordinal % 3 == 0 {
            var random = SeededGenerator(seed: seed, key: key(example, 3))
            // Reversed: the same words, never understood.
            let reversed = Array(example.words.reversed())
            if reversed.count >= 3, reversed != example.words {
                samples.append(
                    .init(
                        words: classifierWords(reversed, free: example.free.reversed(), known: &known), label: none,
                        weight: 0.5, group: index, key: key(example, 4), groupKey: example.key))
            }
            // The telling word replaced by an everyday one.
            var substituted = example.words
            let telling = substituted.indices.filter {
                !example.free[$0] && !(example.value.isEmpty ? false : example.value[$0])
            }.max {
                let a = model.wordIDs[substituted[$0]].map { model.idf[Int($0)] } ?? 0
                let b = model.wordIDs[substituted[$1]].map { model.idf[Int($0)] } ?? 0
                return (a, $1) < (b, $0)
            }
            if let telling, substituted.count >= 2 {
                substituted[telling] = random.pick(LearnedWords.noise)
                // Every other word only this intent's sentences have goes too: a sentence that still
                // says "… minutes" still asks to start a focus block, and taught as none's it taught
                // that "… minutes" is none's ("block deep work 50 minutes" fell to 0.02).
                let intent = Int(model.classIntent[Int(example.cls)])
                for at in substituted.indices where at != telling && !example.free[at] {
                    if !example.value.isEmpty && example.value[at] { continue }
                    if own[example.words[at]] == intent { substituted[at] = random.pick(LearnedWords.noise) }
                }
                samples.append(
                    .init(
                        words: classifierWords(substituted, free: example.free, known: &known), label: none,
                        weight: substitutedWeight, group: index, key: key(example, 5), groupKey: example.key))
            }
        }
        let wordKeys = model.words.map { StableHash.of($0) }
        for number in 0..<max(200, positives / noiseShare) {
            let sampleKey = StableHash.of("noise", String(number))
            var random = SeededGenerator(seed: seed, key: sampleKey)
            let words = noise(model, wordKeys: wordKeys, random: &random)
            samples.append(
                .init(
                    words: classifierWords(words, free: words.map { _ in false }, known: &known), label: none,
                    key: sampleKey, groupKey: sampleKey))
        }
        return samples
    }

    /// The words (not free text) nine in ten of whose sentences are one intent's, with that intent:
    /// words that say the intent on their own ("minutes" says Start Focus Block).
    static func ownWords(_ model: LearnedModel, examples: [Example]) -> [String: Int] {
        var counts: [String: [Int: Int]] = [:]
        for example in examples {
            let intent = Int(model.classIntent[Int(example.cls)])
            var seen = Set<String>()
            for (at, word) in example.words.enumerated() where !example.free[at] {
                if !example.value.isEmpty && example.value[at] { continue }
                if seen.insert(word).inserted { counts[word, default: [:]][intent, default: 0] += 1 }
            }
        }
        var own: [String: Int] = [:]
        for (word, perIntent) in counts {
            let total = perIntent.values.reduce(0, +)
            guard let (intent, count) = perIntent.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) else { continue }
            if count >= 2, count * 10 >= total * 9 { own[word] = intent }
        }
        return own
    }

    /// The author's `examples:`: a sentence expected to match an intent is one of its sentences, one
    /// expected to match nothing is none's.
    static func authorExamples(_ graph: IntentGraph, model: LearnedModel, intents: [QualifiedName])
        -> [LearnedClassifier.Sample]
    {
        let indexes = Dictionary(uniqueKeysWithValues: intents.enumerated().map { ($1, $0) })
        var known = KnownWords(model)
        var samples: [LearnedClassifier.Sample] = []
        for app in graph.apps {
            for (number, example) in (app.examples + app.intents.flatMap(\.examples)).enumerated() {
                let label: Int
                switch example.expectation {
                case .noMatch: label = intents.count
                case .match(let name, _):
                    guard let index = indexes[name] else { continue }
                    label = index
                }
                let words = LearnedModel.words(of: Normalizer.tokens(example.say))
                guard !words.isEmpty else { continue }
                let key = StableHash.of("example", app.name, String(number), example.say)
                samples.append(
                    .init(
                        words: classifierWords(words, free: words.map { _ in false }, known: &known), label: label,
                        key: key, groupKey: key))
            }
        }
        return samples
    }
}
