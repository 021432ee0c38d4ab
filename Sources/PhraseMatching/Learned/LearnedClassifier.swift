import Foundation

/// The learned stage's intent classifier: multinomial logistic regression over word unigrams, word
/// pairs (a word the definitions do not know stands as one placeholder, so a pair also says where a
/// value stands) and character n-grams within words (a typo or an inflection keeps most of them),
/// with one class more than there are intents: none, trained on generated negatives. Probabilities
/// are the softmax of the scores divided by a temperature fitted on a held-out part of the training
/// sentences. Immutable; trained by `LearnedClassifier.train`, written with the model.
public struct LearnedClassifier: Sendable {
    /// Feature names ("w:radar", "b:create|radar", "c:<rad"), sorted: ids do not depend on reading order.
    let features: [String]
    /// Weights by feature, compressed rows: classes ascending (intent indexes; `none` = intent count).
    let rowStart: [Int32]
    let rowClass: [Int32]
    let rowWeight: [Float]
    /// Per feature, what its value is multiplied by before the vector is normalized: its inverse
    /// document frequency in the training sentences.
    let scale: [Float]
    /// Per class (intents, then none).
    let bias: [Float]
    /// Scores are divided by this before the softmax.
    let temperature: Float

    let featureIDs: [String: Int32]

    init(
        features: [String], scale: [Float], rowStart: [Int32], rowClass: [Int32], rowWeight: [Float], bias: [Float],
        temperature: Float
    ) {
        let featureIDs = Dictionary(uniqueKeysWithValues: features.enumerated().map { ($1, Int32($0)) })
        self.init(
            features: features, featureIDs: featureIDs, scale: scale, rowStart: rowStart, rowClass: rowClass,
            rowWeight: rowWeight, bias: bias, temperature: temperature)
    }

    /// `featureIDs`: each of `features` by its index.
    init(
        features: [String], featureIDs: [String: Int32], scale: [Float], rowStart: [Int32], rowClass: [Int32],
        rowWeight: [Float], bias: [Float], temperature: Float
    ) {
        self.features = features
        self.scale = scale
        self.featureIDs = featureIDs
        self.rowStart = rowStart
        self.rowClass = rowClass
        self.rowWeight = rowWeight
        self.bias = bias
        self.temperature = temperature
    }

    /// No features, one class: what a model is built with before its classifier is trained.
    static let empty = LearnedClassifier(
        features: [], scale: [], rowStart: [0], rowClass: [], rowWeight: [], bias: [0], temperature: 1)

    /// The none class's index.
    var none: Int { bias.count - 1 }

    /// One word of a sentence as the classifier sees it: as said, and the known word it is (itself,
    /// or the known word it is a typo of), nil when it is none.
    struct Word {
        var said: String
        var known: String?
        /// Free text in a training sentence: its own words and letters say nothing about the intent.
        var free = false
    }

    /// Character n-grams of a word framed by "<" and ">": three and four letters.
    static func characterGrams(_ word: String) -> [String] {
        let letters = ["<"] + word.map(String.init) + [">"]
        guard letters.count >= 4 else { return [] }
        var grams: [String] = []
        for n in 3...4 where letters.count >= n {
            for start in 0...(letters.count - n) { grams.append("c:" + letters[start..<(start + n)].joined()) }
        }
        return grams
    }

    /// A word pair counts this much of a word: pairs say where a word stands, words what is meant.
    static let pairWeight: Float = 0.75

    /// The feature names of a sentence with their values (before scaling and normalizing): words
    /// count 1, pairs `pairWeight`, a word's character n-grams 1 together, its WordNet synonym sets
    /// (`related`) 0.5 together.
    static func featureNames(_ words: [Word], related: (String) -> [String] = { _ in [] }) -> [(String, Float)] {
        var named: [(String, Float)] = []
        var previous = "^"
        for word in words {
            let token = word.free ? "*" : (word.known ?? "*")
            if !word.free, let known = word.known { named.append(("w:" + known, 1)) }
            if !word.free {
                let synsets = related(word.known ?? word.said)
                for synset in synsets { named.append(("s:" + synset, 0.5 / Float(synsets.count).squareRoot())) }
            }
            named.append(("b:" + previous + "|" + token, pairWeight))
            previous = token
            // Letters of known words only (typos and other forms included): an unknown word's letters
            // would teach that everyday words are none's, and people's own words are everyday words.
            if !word.free, word.known != nil {
                let grams = characterGrams(word.said)
                let value = 1 / Float(max(1, grams.count)).squareRoot()
                for gram in grams { named.append((gram, value)) }
            }
        }
        if !words.isEmpty { named.append(("b:" + previous + "|$", pairWeight)) }
        if let embedding = LearnedTrainer.sentenceFeatures { named += embedding.named(words) }
        return named
    }

    /// The sentence as a sparse vector over known features, L2-normalized, features ascending.
    func vector(_ named: [(String, Float)]) -> [(feature: Int32, value: Float)] {
        Self.merged(named.compactMap { name, value in featureIDs[name].map { ($0, value) } }, scale: scale)
    }

    /// Values of one feature summed, each times its `scale`, the whole L2-normalized.
    static func merged(_ pairs: [(Int32, Float)], scale: [Float]) -> [(feature: Int32, value: Float)] {
        // In place in one array (sorted by the same stable sort as `sorted(by:)`, duplicates summed in
        // their order): a training sentence's features once allocated, not once per stage.
        var merged = pairs.map { (feature: $0.0, value: $0.1) }
        merged.sort { $0.feature < $1.feature }
        var count = 0
        for at in merged.indices {
            if count > 0, merged[count - 1].feature == merged[at].feature {
                merged[count - 1].value += merged[at].value
            } else {
                merged[count] = merged[at]
                count += 1
            }
        }
        merged.removeLast(merged.count - count)
        for i in merged.indices { merged[i].value *= scale[Int(merged[i].feature)] }
        let norm = merged.reduce(Float(0)) { $0 + $1.value * $1.value }.squareRoot()
        guard norm > 0 else { return [] }
        for i in merged.indices { merged[i].value /= norm }
        return merged
    }

    /// Scores per class (before the temperature).
    func scores(_ vector: [(feature: Int32, value: Float)]) -> [Float] {
        var scores = bias
        for (feature, value) in vector {
            for at in Int(rowStart[Int(feature)])..<Int(rowStart[Int(feature) + 1]) {
                scores[Int(rowClass[at])] += value * rowWeight[at]
            }
        }
        return scores
    }

    /// Calibrated probabilities per class (intents, then none).
    func probabilities(_ vector: [(feature: Int32, value: Float)]) -> [Double] {
        Self.softmax(scores(vector), temperature: temperature)
    }

    static func softmax(_ scores: [Float], temperature: Float) -> [Double] {
        let top = scores.max() ?? 0
        let exps = scores.map { exp(Double(($0 - top) / temperature)) }
        let sum = exps.reduce(0, +)
        return exps.map { $0 / sum }
    }

    /// What carried class `cls`: each feature's value times its weight, heaviest first.
    func contributions(_ vector: [(feature: Int32, value: Float)], cls: Int) -> [(feature: String, weight: Float)] {
        var found: [(feature: String, weight: Float)] = []
        for (feature, value) in vector {
            for at in Int(rowStart[Int(feature)])..<Int(rowStart[Int(feature) + 1]) where Int(rowClass[at]) == cls {
                let weight = value * rowWeight[at]
                if weight > 0 { found.append((features[Int(feature)], weight)) }
            }
        }
        return found.sorted { ($0.weight, $1.feature) > ($1.weight, $0.feature) }
    }

    /// A feature as a person reads it: "radar", "create radar", "⟨start⟩ track", "about …", "‹rad›".
    static func describe(_ feature: String) -> String {
        let body = String(feature.dropFirst(2))
        switch feature.prefix(2) {
        case "b:":
            return body.split(separator: "|", omittingEmptySubsequences: false).map {
                switch $0 {
                case "^": "⟨start⟩"
                case "$": "⟨end⟩"
                case "*": "…"
                default: String($0)
                }
            }.joined(separator: " ")
        case "c:": return "letters \"" + body + "\""
        case "s:": return "like \"" + body + "\""
        case "e:": return "meaning " + body
        default: return body
        }
    }
}
