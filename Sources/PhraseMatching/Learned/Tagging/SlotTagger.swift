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
    let frameWordSets: [Set<String>]

    var labelCount: Int { 1 + 2 * slots.count }

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
        self.frameWordSets = frameWords.map(Set.init)
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
        let rowsOf = features.map { $0.compactMap { rows[$0] } }
        return Self.viterbi(
            rows: rowsOf, allowed: intentLabels[index], labelCount: labelCount,
            emission: { row, scores, local in
                for posting in Int(rowStart[Int(row)])..<Int(rowStart[Int(row) + 1]) {
                    let k = local[Int(rowLabel[posting])]
                    if k >= 0 { scores[Int(k)] += rowWeight[posting] }
                }
            }, transition: { transitions[Int($0 + 1) * labelCount + Int($1)] })
    }

    /// Viterbi over the allowed labels, with BIO's constraint. `emission` adds a row's weights to
    /// the scores of the allowed labels (indexed through `local`, -1 for labels not allowed).
    static func viterbi(
        rows: [[Int32]], allowed: [Int32], labelCount: Int,
        emission: (Int32, inout [Float], [Int32]) -> Void, transition: (Int32, Int32) -> Float
    ) -> (labels: [Int32], score: Float) {
        let count = rows.count, k = allowed.count
        guard count > 0, k > 0 else { return ([], 0) }
        var local = [Int32](repeating: -1, count: labelCount)
        for (i, label) in allowed.enumerated() { local[Int(label)] = Int32(i) }
        var best = [Float](repeating: -.infinity, count: count * k)
        var back = [Int32](repeating: -1, count: count * k)
        var scores = [Float](repeating: 0, count: k)
        for t in 0..<count {
            for i in 0..<k { scores[i] = 0 }
            for row in rows[t] { emission(row, &scores, local) }
            for (j, label) in allowed.enumerated() {
                if t == 0 {
                    guard follows(-1, label) else { continue }
                    best[j] = scores[j] + transition(-1, label)
                    continue
                }
                var top: Float = -.infinity, from: Int32 = -1
                for (i, previous) in allowed.enumerated() where follows(previous, label) {
                    let value = best[(t - 1) * k + i]
                    guard value > -.infinity else { continue }
                    let total = value + transition(previous, label)
                    if total > top { (top, from) = (total, Int32(i)) }
                }
                guard from >= 0 else { continue }
                best[t * k + j] = top + scores[j]
                back[t * k + j] = from
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
