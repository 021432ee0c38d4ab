import Foundation

extension LearnedClassifier {
    /// One training sentence: its words, its class (an intent's index, or none), how much it counts.
    struct Sample {
        var words: [Word]
        var label: Int
        var weight: Float = 1
    }

    /// Passes over the training sentences.
    static let epochs = 8
    /// A weight smaller than this is left out of the model (it moves no probability that matters).
    static let pruneBelow: Float = 0.01

    /// Fits the weights by stochastic gradient descent on the softmax loss (a seeded order, a
    /// learning rate falling linearly, a little weight decay), then the temperature on every tenth
    /// sentence, held out of the fit. Deterministic: features sorted, one seeded generator.
    static func train(
        _ samples: [Sample], classes: Int, related: (String) -> [String] = { _ in [] },
        random: inout SeededGenerator
    ) -> LearnedClassifier {
        // Features as ids (each name built once), then renumbered in the names' sorted order.
        var interner = FeatureInterner()
        let named = samples.map { interner.features($0.words, related: related) }
        let names = interner.names
        let ranked = names.indices.sorted { names[$0] < names[$1] }
        let features = ranked.map { names[$0] }
        var sortedID = [Int32](repeating: 0, count: names.count)
        for (rank, id) in ranked.enumerated() { sortedID[id] = Int32(rank) }
        let vectors = named.map { sentence in merged(sentence.map { (sortedID[Int($0.0)], $0.1) }) }
        var order = Array(samples.indices)
        for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, random.below(i + 1)) }
        var heldOut = [Bool](repeating: false, count: samples.count)
        for (offset, index) in order.enumerated() where offset % 10 == 9 { heldOut[index] = true }

        let candidates =
            classes > denseClassLimit
            ? candidateClasses(vectors, samples: samples, classes: classes, features: features.count) : []

        var weights = [Float](repeating: 0, count: features.count * classes)
        var bias = [Float](repeating: 0, count: classes)
        var probabilities = [Float](repeating: 0, count: classes)
        let decay: Float = 1e-6
        var active: [(Int, Float)] = []
        var scratch = [Float](repeating: 0, count: classes)
        weights.withUnsafeMutableBufferPointer { w in
            // Beyond `denseClassLimit` classes the sentences are many and alike: half the passes.
            let passes = classes > denseClassLimit ? epochs / 2 : epochs
            for epoch in 0..<passes {
                let rate = 0.5 * Float(passes - epoch) / Float(passes)
                for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, random.below(i + 1)) }
                for index in order where !heldOut[index] {
                    let vector = vectors[index]
                    guard !vector.isEmpty else { continue }
                    if !candidates.isEmpty {
                        step(
                            vector, among: candidates[index], label: samples[index].label,
                            rate: rate * samples[index].weight, weights: w, bias: &bias, classes: classes,
                            scratch: &scratch)
                        continue
                    }
                    for k in 0..<classes { probabilities[k] = bias[k] }
                    for (feature, value) in vector {
                        let row = Int(feature) * classes
                        for k in 0..<classes { probabilities[k] += value * w[row + k] }
                    }
                    let top = probabilities.max()!
                    var sum: Float = 0
                    for k in 0..<classes {
                        probabilities[k] = exp(probabilities[k] - top)
                        sum += probabilities[k]
                    }
                    let step = rate * samples[index].weight
                    let label = samples[index].label
                    // Only the classes whose gradient moves anything (most are ~0 once the order is learnt).
                    active.removeAll(keepingCapacity: true)
                    for k in 0..<classes {
                        var gradient = probabilities[k] / sum
                        if k == label { gradient -= 1 }
                        guard abs(gradient) > 1e-4 else { continue }
                        active.append((k, gradient * step))
                        bias[k] -= gradient * step
                    }
                    for (feature, value) in vector {
                        let row = Int(feature) * classes
                        for (k, change) in active { w[row + k] -= value * change + decay * w[row + k] }
                    }
                }
            }
        }

        // Compressed rows of the weights that matter.
        var rowStart: [Int32] = [0]
        var rowClass: [Int32] = []
        var rowWeight: [Float] = []
        for feature in features.indices {
            for k in 0..<classes where abs(weights[feature * classes + k]) >= pruneBelow {
                rowClass.append(Int32(k))
                rowWeight.append(weights[feature * classes + k])
            }
            rowStart.append(Int32(rowClass.count))
        }
        let featureIDs = Dictionary(uniqueKeysWithValues: features.enumerated().map { ($1, Int32($0)) })
        let unscaled = LearnedClassifier(
            features: features, featureIDs: featureIDs, rowStart: rowStart, rowClass: rowClass, rowWeight: rowWeight,
            bias: bias, temperature: 1)
        // Temperature: the one that gives the held-out sentences the most likelihood.
        // (At most 2,000 of them beyond `denseClassLimit` classes: each temperature tried is a softmax
        // over every class.)
        let heldSample = samples.indices.filter { heldOut[$0] }
        let every = classes > denseClassLimit ? max(1, heldSample.count / 2_000) : 1
        let kept = heldSample.enumerated().filter { $0.offset % every == 0 }.map(\.element)
        let held = kept.map { (scores: unscaled.scores(vectors[$0]), label: samples[$0].label) }
        var best = (temperature: Float(1), loss: Double.infinity)
        var temperature: Float = 0.2
        while temperature <= 8 {
            var loss = 0.0
            for (scores, label) in held {
                loss -= log(max(1e-12, probability(of: label, scores, temperature: temperature)))
            }
            if loss < best.loss { best = (temperature, loss) }
            temperature *= 1.08
        }
        return LearnedClassifier(
            features: features, featureIDs: featureIDs, rowStart: rowStart, rowClass: rowClass, rowWeight: rowWeight,
            bias: bias, temperature: best.temperature)
    }

    /// `softmax(scores, temperature:)[label]`, the same number, without the other classes' quotients.
    static func probability(of label: Int, _ scores: [Float], temperature: Float) -> Double {
        let top = scores.max() ?? 0
        var sum = 0.0
        for score in scores { sum += exp(Double((score - top) / temperature)) }
        return exp(Double((scores[label] - top) / temperature)) / sum
    }

    /// Up to this many classes every step updates all of them; beyond, only a sentence's candidates.
    static let denseClassLimit = 200
    /// Candidates per sentence beyond its own class and none.
    static let candidateCount = 24

    /// Per sentence, the classes it could be confused with: those whose sentences share its most
    /// telling features (each feature counted by how few classes have it; features of more than 64
    /// classes say nothing), the best `candidateCount`, and its own class and none. With a thousand
    /// intents a step then costs a few dozen classes, not a thousand (sampled softmax).
    static func candidateClasses(
        _ vectors: [[(feature: Int32, value: Float)]], samples: [Sample], classes: Int, features: Int
    ) -> [[Int]] {
        // Which classes have each feature: a bit per (feature, class) says whether it is listed yet.
        var labelsOf = [[Int]](repeating: [], count: features)
        var listed = [UInt64](repeating: 0, count: (features * classes + 63) / 64)
        for (vector, sample) in zip(vectors, samples) {
            for (feature, _) in vector {
                let bit = Int(feature) * classes + sample.label
                let mask = UInt64(1) << UInt64(bit & 63)
                guard listed[bit >> 6] & mask == 0 else { continue }
                listed[bit >> 6] |= mask
                labelsOf[Int(feature)].append(sample.label)
            }
        }
        let sortedLabels = labelsOf.map { $0.count <= 64 ? $0.sorted() : [] }
        var score = [Float](repeating: 0, count: classes)
        return zip(vectors, samples).map { vector, sample in
            var touched: [Int] = []
            for (feature, value) in vector {
                let labels = sortedLabels[Int(feature)]
                guard !labels.isEmpty else { continue }
                let share = value / Float(labels.count)
                for label in labels {
                    if score[label] == 0 { touched.append(label) }
                    score[label] += share
                }
            }
            let best = touched.sorted { (score[$0], $1) > (score[$1], $0) }.prefix(candidateCount)
            for label in touched { score[label] = 0 }
            return Array(Set(best).union([sample.label, classes - 1])).sorted()
        }
    }

    /// One gradient step of the softmax over `among` only (`scratch`: room for a score per class).
    static func step(
        _ vector: [(feature: Int32, value: Float)], among: [Int], label: Int, rate: Float,
        weights w: UnsafeMutableBufferPointer<Float>, bias: inout [Float], classes: Int, scratch: inout [Float]
    ) {
        let count = among.count
        guard count > 0 else { return }
        among.withUnsafeBufferPointer { among in
            scratch.withUnsafeMutableBufferPointer { scores in
                for i in 0..<count { scores[i] = bias[among[i]] }
                for (feature, value) in vector {
                    let row = Int(feature) * classes
                    for i in 0..<count { scores[i] += value * w[row + among[i]] }
                }
                var top = scores[0]
                for i in 1..<count where top < scores[i] { top = scores[i] }
                var sum: Float = 0
                for i in 0..<count {
                    scores[i] = exp(scores[i] - top)
                    sum += scores[i]
                }
                for i in 0..<count {
                    let k = among[i]
                    var gradient = scores[i] / sum
                    if k == label { gradient -= 1 }
                    scores[i] = gradient * rate
                    bias[k] -= scores[i]
                }
                for (feature, value) in vector {
                    let row = Int(feature) * classes
                    for i in 0..<count { w[row + among[i]] -= value * scores[i] }
                }
            }
        }
    }
}
