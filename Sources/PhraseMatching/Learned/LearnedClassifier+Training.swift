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

        var weights = [Float](repeating: 0, count: features.count * classes)
        var bias = [Float](repeating: 0, count: classes)
        var probabilities = [Float](repeating: 0, count: classes)
        let decay: Float = 1e-6
        var active: [(Int, Float)] = []
        weights.withUnsafeMutableBufferPointer { w in
            for epoch in 0..<epochs {
                let rate = 0.5 * Float(epochs - epoch) / Float(epochs)
                for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, random.below(i + 1)) }
                for index in order where !heldOut.contains(index) {
                    let vector = vectors[index]
                    guard !vector.isEmpty else { continue }
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
        let held = heldOut.sorted().map { (scores: unscaled.scores(vectors[$0]), label: samples[$0].label) }
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
}
