import IntentModel

/// The slot tagger: an averaged structured perceptron over BIO labels, decoded with Viterbi. Given
/// the sentence's tokens and the intent, it labels each token `O` (no value), `B-slot` (a value of
/// the parameter `slot` starts) or `I-slot` (it goes on); the spans then go through the typed
/// parsers like any slot's words.
///
/// Why a perceptron and not a CRF: with the same features and Viterbi the two label alike on data
/// of this size (Collins 2002; Snips' CRF reaches its F1 through its features, not its training),
/// and the perceptron trains in a few passes of decoding, with no forward-backward and no
/// optimizer to tune; averaging gives it the stability a CRF's regularizer would. Deterministic:
/// one seeded generator orders the passes, feature keys are stable hashes, rows are sorted.
public struct SlotTagger: Sendable {
    /// Slot names, sorted: label `0` is O, `1 + 2k` is B of slot `k`, `2 + 2k` is I of it.
    let slots: [String]
    /// The intents it knows, sorted by name, with the labels each may use (0 first, ascending).
    let intents: [QualifiedName]
    let intentLabels: [[Int32]]
    /// Per intent: the words its training sentences have outside any value, sorted. A word the
    /// tagger leaves out of a value must be one of these (`revise`).
    let frameWords: [[String]]
    /// Feature keys (stable hashes), sorted; row `i` holds feature `featureKeys[i]`'s weights.
    let featureKeys: [UInt64]
    let rowStart: [Int32]
    let rowLabel: [UInt16]
    let rowWeight: [Float]
    /// `(labels + 1) × labels`: row 0 is the sentence's start, row `1 + a` follows label `a`.
    let transitions: [Float]

    // Lookup tables rebuilt on load, not stored.
    let rows: [UInt64: Int32]
    let intentIndex: [QualifiedName: Int]

    var labelCount: Int { 1 + 2 * slots.count }

    /// Features with a weight, weights kept, labels: what `intents-bench tagger` reports.
    public var size: (features: Int, weights: Int, labels: Int) { (featureKeys.count, rowLabel.count, labelCount) }

    init(
        slots: [String], intents: [QualifiedName], intentLabels: [[Int32]], frameWords: [[String]],
        featureKeys: [UInt64], rowStart: [Int32], rowLabel: [UInt16], rowWeight: [Float], transitions: [Float]
    ) {
        self.slots = slots
        self.intents = intents
        self.intentLabels = intentLabels
        self.frameWords = frameWords
        self.featureKeys = featureKeys
        self.rowStart = rowStart
        self.rowLabel = rowLabel
        self.rowWeight = rowWeight
        self.transitions = transitions
        self.rows = Dictionary(uniqueKeysWithValues: featureKeys.enumerated().map { ($1, Int32($0)) })
        self.intentIndex = Dictionary(uniqueKeysWithValues: intents.enumerated().map { ($1, $0) })
    }

    /// Whether `word` is one of intent `index`'s frame words: a search by halves of its sorted
    /// words (sets made for all of them at load were 6.6 M instructions of a cold `say` over 1,000
    /// intents, for the one intent a phrase revises).
    func isFrameWord(_ word: String, intent index: Int) -> Bool {
        let words = frameWords[index]
        var low = 0
        var high = words.count
        while low < high {
            let middle = (low + high) / 2
            if words[middle] < word { low = middle + 1 } else { high = middle }
        }
        return low < words.count && words[low] == word
    }

    /// "O", "B-topic", "I-topic".
    func labelName(_ label: Int32) -> String {
        guard label > 0 else { return "O" }
        let slot = slots[Int(label - 1) / 2]
        return (label % 2 == 1 ? "B-" : "I-") + slot
    }

    /// The slot a label belongs to, nil for O.
    func slot(of label: Int32) -> String? { label > 0 ? slots[Int(label - 1) / 2] : nil }

    /// Whether `label` may follow `previous` (-1: the start): an I only inside its own slot's value.
    static func follows(_ previous: Int32, _ label: Int32) -> Bool {
        guard label > 0, label % 2 == 0 else { return true }
        return previous == label || previous == label - 1
    }

    /// The labels of one sentence, its total score and the runner-up's (the best labelling that
    /// differs at some token), for `explain`.
    public struct Tagging: Sendable {
        public var labels: [String]
        public var score: Double
        /// Values as token spans: slot name, `[start, end)`.
        public var spans: [(slot: String, span: Range<Int>)]
    }

    /// The best labelling of `features` (per token, feature keys) for `intent`; nil when the tagger
    /// does not know the intent.
    func tag(_ features: [[UInt64]], intent: QualifiedName) -> (labels: [Int32], score: Float)? {
        guard let index = intentIndex[intent] else { return nil }
        let allowed = intentLabels[index]
        let k = allowed.count
        var local = [Int32](repeating: -1, count: labelCount)
        for (i, label) in allowed.enumerated() { local[Int(label)] = Int32(i) }
        var emissions = [Float](repeating: 0, count: features.count * k)
        for (t, keys) in features.enumerated() {
            for key in keys {
                guard let row = rows[key] else { continue }
                for posting in Int(rowStart[Int(row)])..<Int(rowStart[Int(row) + 1]) {
                    let j = local[Int(rowLabel[posting])]
                    if j >= 0 { emissions[t * k + Int(j)] += rowWeight[posting] }
                }
            }
        }
        return Self.viterbi(emissions: emissions, allowed: allowed, labelCount: labelCount, transitions: transitions)
    }

    /// Viterbi over the allowed labels, with BIO's constraint: `emissions` is tokens × allowed labels,
    /// `transitions` (labels + 1) × labels, row 0 the start.
    static func viterbi(emissions: [Float], allowed: [Int32], labelCount: Int, transitions: [Float])
        -> (labels: [Int32], score: Float)
    {
        let k = allowed.count
        guard k > 0, !emissions.isEmpty else { return ([], 0) }
        let count = emissions.count / k
        var best = [Float](repeating: -.infinity, count: count * k)
        var back = [Int32](repeating: -1, count: count * k)
        for (j, label) in allowed.enumerated() where follows(-1, label) {
            best[j] = emissions[j] + transitions[Int(label)]
        }
        if count > 1 {
            for t in 1..<count {
                for (j, label) in allowed.enumerated() {
                    var top: Float = -.infinity, from: Int32 = -1
                    for (i, previous) in allowed.enumerated() where follows(previous, label) {
                        let value = best[(t - 1) * k + i]
                        guard value > -.infinity else { continue }
                        let total = value + transitions[Int(previous + 1) * labelCount + Int(label)]
                        if total > top { (top, from) = (total, Int32(i)) }
                    }
                    guard from >= 0 else { continue }
                    best[t * k + j] = top + emissions[t * k + j]
                    back[t * k + j] = from
                }
            }
        }
        var last = 0
        for j in 1..<k where best[(count - 1) * k + j] > best[(count - 1) * k + last] { last = j }
        let score = best[(count - 1) * k + last]
        var labels = [Int32](repeating: 0, count: count)
        var position = last
        for t in stride(from: count - 1, through: 0, by: -1) {
            labels[t] = allowed[position]
            if t > 0 { position = Int(back[t * k + position]) }
        }
        return (labels, score)
    }

    /// Value spans of a labelling: a B and the I's after it.
    func spans(_ labels: [Int32]) -> [(slot: String, span: Range<Int>)] {
        var spans: [(slot: String, span: Range<Int>)] = []
        var t = 0
        while t < labels.count {
            let label = labels[t]
            guard label > 0 else {
                t += 1
                continue
            }
            let b = label % 2 == 1 ? label : label - 1
            let start = t
            t += 1
            while t < labels.count, labels[t] == b + 1 { t += 1 }
            spans.append((slots[Int(b - 1) / 2], start..<t))
        }
        return spans
    }
}
