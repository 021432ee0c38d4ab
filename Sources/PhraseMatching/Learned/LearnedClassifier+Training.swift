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
        let named = samples.map { featureNames($0.words, related: related) }
        var vocabulary = Set<String>()
        for sentence in named { for (name, _) in sentence { vocabulary.insert(name) } }
        let features = vocabulary.sorted()
        let empty = LearnedClassifier(
            features: features, rowStart: [Int32](repeating: 0, count: features.count + 1), rowClass: [], rowWeight: [],
            bias: [Float](repeating: 0, count: classes), temperature: 1)
        let vectors = named.map { empty.vector($0) }
        var order = Array(samples.indices)
        for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, random.below(i + 1)) }
        let heldOut = Set(order.enumerated().filter { $0.offset % 10 == 9 }.map(\.element))

        let candidates = classes > denseClassLimit ? candidateClasses(vectors, samples: samples, classes: classes) : []

        var weights = [Float](repeating: 0, count: features.count * classes)
        var bias = [Float](repeating: 0, count: classes)
        var probabilities = [Float](repeating: 0, count: classes)
        let decay: Float = 1e-6
        var active: [(Int, Float)] = []
        weights.withUnsafeMutableBufferPointer { w in
            // Beyond `denseClassLimit` classes the sentences are many and alike: half the passes.
            let passes = classes > denseClassLimit ? epochs / 2 : epochs
            for epoch in 0..<passes {
                let rate = 0.5 * Float(passes - epoch) / Float(passes)
                for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, random.below(i + 1)) }
                for index in order where !heldOut.contains(index) {
                    let vector = vectors[index]
                    guard !vector.isEmpty else { continue }
                    if !candidates.isEmpty {
                        step(vector, among: candidates[index], label: samples[index].label,
                            rate: rate * samples[index].weight, weights: w, bias: &bias, classes: classes)
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
        let unscaled = LearnedClassifier(
            features: features, rowStart: rowStart, rowClass: rowClass, rowWeight: rowWeight, bias: bias,
            temperature: 1)
        // Temperature: the one that gives the held-out sentences the most likelihood.
        // (At most 2,000 of them beyond `denseClassLimit` classes: each temperature tried is a softmax
        // over every class.)
        let heldSample = heldOut.sorted()
        let every = classes > denseClassLimit ? max(1, heldSample.count / 2_000) : 1
        let kept = heldSample.enumerated().filter { $0.offset % every == 0 }.map(\.element)
        let held = kept.map { (scores: unscaled.scores(vectors[$0]), label: samples[$0].label) }
        var best = (temperature: Float(1), loss: Double.infinity)
        var temperature: Float = 0.2
        while temperature <= 8 {
            var loss = 0.0
            for (scores, label) in held {
                loss -= log(max(1e-12, softmax(scores, temperature: temperature)[label]))
            }
            if loss < best.loss { best = (temperature, loss) }
            temperature *= 1.08
        }
        return LearnedClassifier(
            features: features, rowStart: rowStart, rowClass: rowClass, rowWeight: rowWeight, bias: bias,
            temperature: best.temperature)
    }

    /// Up to this many classes every step updates all of them; beyond, only a sentence's candidates.
    static let denseClassLimit = 200
    /// Candidates per sentence beyond its own class and none.
    static let candidateCount = 24

    /// Per sentence, the classes it could be confused with: those whose sentences share its most
    /// telling features (each feature counted by how few classes have it; features of more than 64
    /// classes say nothing), the best `candidateCount`, and its own class and none. With a thousand
    /// intents a step then costs a few dozen classes, not a thousand (sampled softmax).
    static func candidateClasses(_ vectors: [[(feature: Int32, value: Float)]], samples: [Sample], classes: Int)
        -> [[Int]]
    {
        var labelsOf: [Int32: Set<Int>] = [:]
        for (vector, sample) in zip(vectors, samples) {
            for (feature, _) in vector { labelsOf[feature, default: []].insert(sample.label) }
        }
        let sortedLabels = labelsOf.mapValues { $0.count <= 64 ? $0.sorted() : [] }
        var score = [Float](repeating: 0, count: classes)
        return zip(vectors, samples).map { vector, sample in
            var touched: [Int] = []
            for (feature, value) in vector {
                guard let labels = sortedLabels[feature], !labels.isEmpty else { continue }
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

    /// One gradient step of the softmax over `among` only.
    static func step(
        _ vector: [(feature: Int32, value: Float)], among: [Int], label: Int, rate: Float,
        weights w: UnsafeMutableBufferPointer<Float>, bias: inout [Float], classes: Int
    ) {
        var scores = among.map { bias[$0] }
        for (feature, value) in vector {
            let row = Int(feature) * classes
            for (i, k) in among.enumerated() { scores[i] += value * w[row + k] }
        }
        let top = scores.max() ?? 0
        var sum: Float = 0
        for i in scores.indices {
            scores[i] = exp(scores[i] - top)
            sum += scores[i]
        }
        for (i, k) in among.enumerated() {
            var gradient = scores[i] / sum
            if k == label { gradient -= 1 }
            scores[i] = gradient * rate
            bias[k] -= scores[i]
        }
        for (feature, value) in vector {
            let row = Int(feature) * classes
            for (i, k) in among.enumerated() { w[row + k] -= value * scores[i] }
        }
    }
}
