import Foundation
import IntentModel

/// Trains a `SlotTagger` from the definitions: every phrase template expanded with sampled values
/// (the values' spans kept as labels), the intents' `training:` sentences with their `[words](slot)`
/// marks, and the `examples:` whose expected values can be found in their sentence. An averaged
/// structured perceptron, a fixed number of passes in a seeded order: the same bytes every time.
public enum SlotTaggerTrainer {
    /// Sentences sampled per phrase template, while the definitions have few templates.
    static let samplesPerPhrase = 8
    /// Sampled sentences in all: many templates get fewer samples each (at least two), so that
    /// training stays within a second or two however many there are.
    static let sampleBudget = 12_000
    /// Passes over the sentences.
    public static let passes = 8

    struct Sentence {
        var intent: Int
        var tokens: [Token]
        var labels: [Int32]
        /// Simulated entity names: the value's span is marked as a known name (half the time), as the
        /// store's names would mark it.
        var names: [(type: String, span: Range<Int>)] = []
        /// What the sentence is, as a stable hash of where it came from: its place in each pass's order.
        var key: UInt64 = 0
    }

    /// Trains on the index's graph. Chance is drawn per phrase template (seeded by `seed` and the
    /// template), and each pass's order is the sentences' keys hashed: an intent's sentences, and where
    /// they stand among the others, do not depend on the other intents the definitions hold.
    public static func train(index: PhraseIndex, seed: UInt64 = 0x7A66_E125, passes: Int = passes) -> SlotTagger {
        let graph = index.graph
        let matcher = Matcher(
            index: index,
            clock: .fixed(Date(timeIntervalSince1970: 1_767_225_600), timeZone: TimeZone(identifier: "UTC")!))
        var all: [(app: IntentGraph.App, intent: IntentGraph.Intent)] = []
        for app in graph.apps { for intent in app.intents { all.append((app, intent)) } }
        all.sort { $0.intent.name.description < $1.intent.name.description }
        let tagged = all.map { TaggerFeatures.taggedParameters(of: $0.intent) }
        let slots = Set(tagged.flatMap { $0.map(\.name) }).sorted()
        let slotIndex = Dictionary(uniqueKeysWithValues: slots.enumerated().map { ($1, Int32($0)) })
        let intentLabels = tagged.map { parameters in
            [Int32(0)] + parameters.flatMap { [1 + 2 * slotIndex[$0.name]!, 2 + 2 * slotIndex[$0.name]!] }.sorted()
        }

        let templates = zip(all, tagged).reduce(0) { $0 + ($1.1.isEmpty ? 0 : $1.0.intent.phrases.count) }
        let samples = max(2, min(samplesPerPhrase, sampleBudget / max(1, templates)))
        var sentences: [Sentence] = []
        for (i, (app, intent)) in all.enumerated() {
            // An intent without values to label (a question, a command) teaches the tagger nothing.
            if tagged[i].isEmpty { continue }
            let parameters = Dictionary(uniqueKeysWithValues: tagged[i].map { ($0.name, $0) })
            // A `training:` sentence's entity names are marked as known half the time, by its own draw.
            var random = SeededGenerator(seed: seed, key: StableHash.of("intent", intent.name.description))
            func append(_ text: String, slot: String?, to sentence: inout Sentence, random: inout SeededGenerator) {
                let tokens = Normalizer.tokens(text)
                guard !tokens.isEmpty else { return }
                let start = sentence.tokens.count
                sentence.tokens += tokens
                if let slot, let k = slotIndex[slot], let parameter = parameters[slot] {
                    sentence.labels += [1 + 2 * k] + [Int32](repeating: 2 + 2 * k, count: tokens.count - 1)
                    if let entity = parameter.type.entityName, random.chance(1, in: 2) {
                        sentence.names.append(
                            (TaggerFeatures.typeName(.entity(entity)), start..<sentence.tokens.count))
                    }
                } else {
                    sentence.labels += [Int32](repeating: 0, count: tokens.count)
                }
            }
            // The values the author marked in the intent's `training:` sentences, per string slot: half
            // of a template's samples take one of them, so that a slot learns what its values look
            // like ("my", "Sarah's" for a playlist's owner) and not only the word pool's words.
            var marked: [String: [String]] = [:]
            for training in intent.trainingSentences {
                for piece in training.pieces {
                    guard let slot = piece.slot, intent.parameter(slot)?.type == .string else { continue }
                    if !(marked[slot]?.contains(piece.text) ?? false) { marked[slot, default: []].append(piece.text) }
                }
            }
            for phrase in intent.phrases {
                guard
                    let expansions = phrase.template.expansions(rules: app.rules, limit: PhraseIndex.expansionLimit)?
                        .filter({ !Self.hasAdjacentFreeText($0, intent: intent) }),
                    !expansions.isEmpty
                else { continue }
                let phraseKey = StableHash.of(
                    "phrase", intent.name.description, phrase.language, phrase.template.source)
                var random = SeededGenerator(seed: seed, key: phraseKey)
                for sample in 0..<min(samples, expansions.count * 3) {
                    let pieces = sample < expansions.count ? expansions[sample] : random.pick(expansions)
                    var sentence = Sentence(
                        intent: i, tokens: [], labels: [], key: SeededGenerator.mixed(phraseKey ^ UInt64(sample)))
                    for piece in pieces {
                        switch piece {
                        case .word(let word): append(word, slot: nil, to: &sentence, random: &random)
                        case .app:
                            let name = random.chance(1, in: 2) ? app.name : random.pick([app.name] + app.synonyms)
                            append(name, slot: nil, to: &sentence, random: &random)
                        case .slot(let name):
                            if let values = marked[name], random.chance(1, in: 2) {
                                append(random.pick(values), slot: name, to: &sentence, random: &random)
                                continue
                            }
                            let type = intent.parameter(name)?.type ?? .string
                            let value = LearnedTrainer.sampleValue(
                                type, graph: graph, language: phrase.language, random: &random)
                            append(value.text, slot: name, to: &sentence, random: &random)
                        }
                    }
                    if !sentence.tokens.isEmpty { sentences.append(sentence) }
                }
            }
            for training in intent.trainingSentences {
                var sentence = Sentence(
                    intent: i, tokens: [], labels: [],
                    key: StableHash.of("training", intent.name.description, training.text))
                for piece in training.pieces {
                    append(piece.text, slot: piece.slot, to: &sentence, random: &random)
                }
                if !sentence.tokens.isEmpty, sentence.tokens.count <= Normalizer.maximumTokens {
                    sentences.append(sentence)
                }
            }
            for example in intent.examples {
                guard case .match(let name, let values) = example.expectation, name == intent.name,
                    let sentence = aligned(
                        example.say, values: values, parameters: parameters, slotIndex: slotIndex, intent: i,
                        matcher: matcher)
                else { continue }
                var keyed = sentence
                keyed.key = StableHash.of("example", intent.name.description, example.say)
                sentences.append(keyed)
            }
        }

        // Features, interned in the order met (deterministic: the sentences' order is).
        var ids: [UInt64: Int32] = [:]
        var keys: [UInt64] = []
        let types = tagged.map { $0.map(\.type) }
        var memo: [String: Int]? = [:]
        let featureRows: [[[Int32]]] = sentences.map { sentence in
            var marks = TaggerFeatures.marks(
                sentence.tokens, types: types[sentence.intent], matcher: matcher, memo: &memo)
            for name in sentence.names {
                marks[name.span.lowerBound].append("B|" + name.type)
                for inside in name.span.dropFirst() { marks[inside].append("I|" + name.type) }
            }
            let features = TaggerFeatures.features(
                sentence.tokens, intent: all[sentence.intent].intent.name, marks: marks)
            return features.map { row in
                row.map { key in
                    if let id = ids[key] { return id }
                    let id = Int32(keys.count)
                    ids[key] = id
                    keys.append(key)
                    return id
                }
            }
        }

        var perceptron = AveragedPerceptron(features: keys.count, labels: 1 + 2 * slots.count)
        for pass in 0..<passes {
            let salt = SeededGenerator.mixed(seed ^ UInt64(pass + 1))
            let ranks = sentences.map { SeededGenerator.mixed($0.key ^ salt) }
            let order = sentences.indices.sorted { (ranks[$0], $0) < (ranks[$1], $1) }
            for s in order where intentLabels[sentences[s].intent].count > 1 {
                perceptron.learn(
                    featureRows[s], gold: sentences[s].labels, allowed: intentLabels[sentences[s].intent])
            }
        }

        var frameWords = [Set<String>](repeating: [], count: all.count)
        for sentence in sentences {
            for (token, label) in zip(sentence.tokens, sentence.labels) where label == 0 {
                frameWords[sentence.intent].insert(token.text)
            }
        }
        return perceptron.tagger(
            slots: slots, intents: all.map(\.intent.name), intentLabels: intentLabels,
            frameWords: frameWords.map { $0.sorted() }, keys: keys)
    }

    /// Two free-text slots side by side ("add this {item} to {owner} {playlist}"): a sample of it says
    /// nothing about where one value ends and the next begins, so it teaches no boundary (the
    /// `training:` sentences and examples do).
    static func hasAdjacentFreeText(_ pieces: [PhraseTemplate.Piece], intent: IntentGraph.Intent) -> Bool {
        func isFree(_ piece: PhraseTemplate.Piece) -> Bool {
            guard case .slot(let name) = piece, let type = intent.parameter(name)?.type else { return false }
            return type == .string || type.entityName != nil || type == .array(.string)
        }
        return zip(pieces, pieces.dropFirst()).contains { isFree($0) && isFree($1) }
    }

    /// An example's sentence labelled with its expected values, when each can be found in it.
    static func aligned(
        _ say: String, values: [String: Value], parameters: [String: IntentGraph.Parameter],
        slotIndex: [String: Int32], intent: Int, matcher: Matcher
    ) -> Sentence? {
        let tokens = Normalizer.tokens(say)
        guard !tokens.isEmpty, tokens.count <= Normalizer.maximumTokens else { return nil }
        var labels = [Int32](repeating: 0, count: tokens.count)
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let parameter = parameters[name], let k = slotIndex[name] else { continue }
            var found: Range<Int>?
            if case .string(let text) = value {
                let wanted = Normalizer.tokens(text).map(\.text)
                if !wanted.isEmpty, wanted.count <= tokens.count {
                    found = (0...(tokens.count - wanted.count)).first { start in
                        tokens[start..<(start + wanted.count)].map(\.text) == wanted
                    }.map { $0..<($0 + wanted.count) }
                }
            } else {
                for start in tokens.indices where found == nil {
                    let options = SlotParser.options(for: parameter.type, tokens: tokens, at: start, matcher: matcher)
                    if let option = options.first(where: { $0.typed && $0.value == value }) {
                        found = start..<(start + option.length)
                    }
                }
            }
            guard let span = found, span.allSatisfy({ labels[$0] == 0 }) else { return nil }
            labels[span.lowerBound] = 1 + 2 * k
            for inside in span.dropFirst() { labels[inside] = 2 + 2 * k }
        }
        return Sentence(intent: intent, tokens: tokens, labels: labels)
    }
}

/// The perceptron's weights while training: per feature a chain of entries (label, weight, the sum
/// of its updates stamped with when they happened, for the average) in flat arrays, so that scoring
/// a sentence touches no reference-counted storage.
struct AveragedPerceptron {
    var head: [Int32]
    var entryLabel: [UInt16] = []
    var entryNext: [Int32] = []
    var entryWeight: [Double] = []
    var entryStamped: [Double] = []
    var transitions: [Double]
    var transitionsStamped: [Double]
    /// `transitions` as the decoder reads them.
    var transitionScores: [Float]
    let labelCount: Int
    /// Sentences seen, from 1.
    var clock: Double = 1
    /// Label → index among the sentence's allowed labels (-1: not allowed), reused.
    var local: [Int32]

    init(features: Int, labels labelCount: Int) {
        self.labelCount = labelCount
        head = [Int32](repeating: -1, count: features)
        transitions = [Double](repeating: 0, count: (labelCount + 1) * labelCount)
        transitionsStamped = transitions
        transitionScores = [Float](repeating: 0, count: transitions.count)
        local = [Int32](repeating: -1, count: labelCount)
    }

    mutating func learn(_ rows: [[Int32]], gold: [Int32], allowed: [Int32]) {
        defer { clock += 1 }
        let k = allowed.count
        for (i, label) in allowed.enumerated() { local[Int(label)] = Int32(i) }
        var emissions = [Float](repeating: 0, count: rows.count * k)
        for (t, features) in rows.enumerated() {
            for feature in features {
                var entry = Int(head[Int(feature)])
                while entry >= 0 {
                    let j = local[Int(entryLabel[entry])]
                    if j >= 0 { emissions[t * k + Int(j)] += Float(entryWeight[entry]) }
                    entry = Int(entryNext[entry])
                }
            }
        }
        for label in allowed { local[Int(label)] = -1 }
        let (predicted, _) = SlotTagger.viterbi(
            emissions: emissions, allowed: allowed, labelCount: labelCount, transitions: transitionScores)
        guard predicted != gold else { return }
        for t in gold.indices {
            let previousGold = t == 0 ? -1 : gold[t - 1], previousPredicted = t == 0 ? -1 : predicted[t - 1]
            if gold[t] != predicted[t] || previousGold != previousPredicted {
                update(transition: previousGold, gold[t], by: 1)
                update(transition: previousPredicted, predicted[t], by: -1)
            }
            guard gold[t] != predicted[t] else { continue }
            for row in rows[t] {
                update(Int(row), label: gold[t], by: 1)
                update(Int(row), label: predicted[t], by: -1)
            }
        }
    }

    private mutating func update(transition from: Int32, _ to: Int32, by delta: Double) {
        let i = Int(from + 1) * labelCount + Int(to)
        transitions[i] += delta
        transitionsStamped[i] += clock * delta
        transitionScores[i] = Float(transitions[i])
    }

    private mutating func update(_ row: Int, label: Int32, by delta: Double) {
        var entry = Int(head[row])
        while entry >= 0 {
            if entryLabel[entry] == UInt16(label) {
                entryWeight[entry] += delta
                entryStamped[entry] += clock * delta
                return
            }
            entry = Int(entryNext[entry])
        }
        entryLabel.append(UInt16(label))
        entryNext.append(head[row])
        entryWeight.append(delta)
        entryStamped.append(clock * delta)
        head[row] = Int32(entryLabel.count - 1)
    }

    /// The averaged weights as a tagger: rows sorted by feature key, labels ascending, weights that
    /// average to (nearly) nothing left out.
    func tagger(
        slots: [String], intents: [QualifiedName], intentLabels: [[Int32]], frameWords: [[String]], keys: [UInt64]
    )
        -> SlotTagger
    {
        let order = keys.indices.sorted { keys[$0] < keys[$1] }
        var featureKeys: [UInt64] = [], rowStart: [Int32] = [0], rowLabel: [UInt16] = [], rowWeight: [Float] = []
        for row in order {
            var entries: [(UInt16, Float)] = []
            var entry = Int(head[row])
            while entry >= 0 {
                let average = Float(entryWeight[entry] - entryStamped[entry] / clock)
                if abs(average) >= 1e-3 { entries.append((entryLabel[entry], average)) }
                entry = Int(entryNext[entry])
            }
            guard !entries.isEmpty else { continue }
            entries.sort { $0.0 < $1.0 }
            featureKeys.append(keys[row])
            for (label, weight) in entries {
                rowLabel.append(label)
                rowWeight.append(weight)
            }
            rowStart.append(Int32(rowLabel.count))
        }
        let averaged = zip(transitions, transitionsStamped).map { Float($0 - $1 / clock) }
        return SlotTagger(
            slots: slots, intents: intents, intentLabels: intentLabels, frameWords: frameWords,
            featureKeys: featureKeys, rowStart: rowStart, rowLabel: rowLabel, rowWeight: rowWeight,
            transitions: averaged)
    }
}
