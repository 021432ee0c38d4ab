import Foundation

extension LearnedClassifier {
    /// One training sentence: its words, its class (an intent's index, or none), how much it counts,
    /// and the sentence it was made from (`group`: a sentence, its perturbed copy and the negatives
    /// made of it share one; -1, a group of its own). A group is held out of the fit whole
    /// (`groupKey`: the same for all of it), so no held-out sentence is a copy of one the model was
    /// fitted on. `key` says what the sentence is, stably (a hash of where it came from): it places
    /// the sentence in each pass's order and, through `groupKey`, decides whether it is held out.
    struct Sample {
        var words: [Word]
        var label: Int
        var weight: Float = 1
        var group = -1
        var key: UInt64 = 0
        var groupKey: UInt64 = 0
    }

    /// Passes over the training sentences; beyond `denseClassLimit` classes the sentences are many
    /// and alike, and fewer passes do.
    static let epochs = 6
    static let sparseEpochs = 4
    /// Up to this many training sentences the fit is cheap, and is made steadier: twice the passes
    /// (`epochs`), and once calibrated, fitted again on every sentence, the held-out tenth included.
    /// What a confidence then depends on is the definitions, not which tenth was held out nor the
    /// order of the passes (BENCHMARKS.md, para9: between two seeds, a development sentence's
    /// confidence moved by 0.047 on average, 0.011 so).
    static let steadyLimit = 20_000
    /// Held-out sentences of intents (not none's) needed to fit none's shift.
    static let minimumHeldIntents = 10
    /// The learning rate of the first pass (it falls linearly to 0 over the passes).
    static let learningRate: Float = 1
    /// A weight smaller than this is left out of the model (it moves no probability that matters).
    static let pruneBelow: Float = 0.01

    /// Fits the weights by averaged stochastic gradient descent on the softmax loss (a seeded order,
    /// a learning rate falling linearly, a little weight decay; the model is the average of the
    /// weights over every step), features weighted by their inverse document frequency, then the
    /// temperature on about every tenth group of sentences, held out of the fit. Deterministic:
    /// features sorted; each pass's order and the held-out groups are the samples' keys hashed with
    /// `seed`, so a sentence stands among the others where it stood, and is held out or not as it
    /// was, whatever sentences were added (a shuffle of the indexes moved every one of them).
    static func train(
        _ samples: [Sample], classes: Int, related: (String) -> [String] = { _ in [] }, seed: UInt64
    ) -> LearnedClassifier {
        // Features as ids (each name built once), then renumbered in the names' sorted order.
        var interner = FeatureInterner()
        let named = samples.map { interner.features($0.words, related: related) }
        let names = interner.names
        let ranked = names.indices.sorted { names[$0] < names[$1] }
        let features = ranked.map { names[$0] }
        var sortedID = [Int32](repeating: 0, count: names.count)
        for (rank, id) in ranked.enumerated() { sortedID[id] = Int32(rank) }
        // Inverse document frequency per feature (a feature counted once per sentence): rare features
        // say more than "⟨start⟩ what".
        var documentFrequency = [Float](repeating: 0, count: features.count)
        let renumbered = named.map { sentence in sentence.map { (sortedID[Int($0.0)], $0.1) } }
        var lastSentence = [Int](repeating: -1, count: features.count)
        for (index, sentence) in renumbered.enumerated() {
            for (feature, _) in sentence where lastSentence[Int(feature)] != index {
                lastSentence[Int(feature)] = index
                documentFrequency[Int(feature)] += 1
            }
        }
        let total = Float(samples.count)
        let scale = documentFrequency.map { log((1 + total) / (1 + $0)) + 1 }
        let vectors = renumbered.map { merged($0, scale: scale) }
        // About every tenth group is held out whole: the one whose key, hashed, is 9 modulo 10.
        let heldOut = samples.map { SeededGenerator.mixed(seed ^ $0.groupKey) % 10 == 9 }
        // Each pass's order: by the samples' keys hashed with the pass (ties by index).
        func order(pass: Int) -> [Int] {
            let salt = SeededGenerator.mixed(seed ^ UInt64(pass + 1))
            let ranks = samples.map { SeededGenerator.mixed($0.key ^ salt) }
            return samples.indices.sorted { (ranks[$0], $0) < (ranks[$1], $1) }
        }

        let candidates =
            classes > denseClassLimit
            ? candidateClasses(vectors, samples: samples, classes: classes, features: features.count) : []

        let steady = classes <= denseClassLimit && samples.count <= steadyLimit
        // One fit: the weights, compressed to the rows that matter, and the biases, from the sentences
        // not held out.
        func fit(excluding heldOut: [Bool]) -> (
            rowStart: [Int32], rowClass: [Int32], rowWeight: [Float], bias: [Float]
        ) {
            // Averaged SGD: `sums` gathers each change times the step it was made at, so the average of
            // the weights over every step is `weights - sums / steps` (nothing per step but the changes).
            // A sampled step touches a few classes of each feature's row, each a cache line of its own:
            // there a weight and its sum stand side by side (`weights[2i]`, `weights[2i + 1]`), one line.
            let interleaved = !candidates.isEmpty
            var weights = [Float](repeating: 0, count: features.count * classes * (interleaved ? 2 : 1))
            var sums = [Float](repeating: 0, count: interleaved ? 0 : features.count * classes)
            var bias = [Float](repeating: 0, count: classes)
            var biasSums = [Float](repeating: 0, count: classes)
            var probabilities = [Float](repeating: 0, count: classes)
            let decay: Float = 1e-6
            var active: [(Int, Float)] = []
            var scratch = [Float](repeating: 0, count: classes)
            var moving = [Int](repeating: 0, count: classes)
            var steps: Float = 1
            let passes = classes > denseClassLimit ? sparseEpochs : steady ? 2 * epochs : epochs
            if interleaved {
                // The sampled step indexes the weights unchecked (checked indexing cost 19 % more
                // instructions there, BENCHMARKS.md): what it relies on is checked here, once.
                precondition(
                    samples.allSatisfy { (0..<classes).contains($0.label) }
                        && vectors.allSatisfy { $0.allSatisfy { (0..<features.count).contains(Int($0.feature)) } }
                        && candidates.count == samples.count
                        && candidates.allSatisfy { $0.count <= classes && $0.allSatisfy((0..<classes).contains) },
                    "training sentences' classes and features must lie inside the weight table")
                weights.withUnsafeMutableBufferPointer { w in
                    for epoch in 0..<passes {
                        let rate = learningRate * Float(passes - epoch) / Float(passes)
                        for index in order(pass: epoch) where !heldOut[index] && !vectors[index].isEmpty {
                            step(
                                vectors[index], among: candidates[index], label: samples[index].label,
                                rate: rate * samples[index].weight, pairs: w, steps: steps, bias: &bias,
                                biasSums: &biasSums, classes: classes, scratch: &scratch, moving: &moving)
                            steps += 1
                        }
                    }
                }
            } else {
                // Every class at every step, on checked arrays: as fast here as unchecked pointers.
                for epoch in 0..<passes {
                    let rate = learningRate * Float(passes - epoch) / Float(passes)
                    for index in order(pass: epoch) where !heldOut[index] {
                        let vector = vectors[index]
                        guard !vector.isEmpty else { continue }
                        defer { steps += 1 }
                        for k in 0..<classes { probabilities[k] = bias[k] }
                        for (feature, value) in vector {
                            let row = Int(feature) * classes
                            for k in 0..<classes { probabilities[k] += value * weights[row + k] }
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
                            biasSums[k] -= steps * gradient * step
                        }
                        for (feature, value) in vector {
                            let row = Int(feature) * classes
                            for (k, change) in active {
                                let delta = value * change + decay * weights[row + k]
                                weights[row + k] -= delta
                                sums[row + k] -= steps * delta
                            }
                        }
                    }
                }
            }
            if interleaved {
                weights = (0..<(features.count * classes)).map { weights[2 * $0] - weights[2 * $0 + 1] / steps }
            } else {
                for i in weights.indices { weights[i] -= sums[i] / steps }
            }
            for k in bias.indices { bias[k] -= biasSums[k] / steps }

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
            return (rowStart, rowClass, rowWeight, bias)
        }
        let first = fit(excluding: heldOut)
        let featureIDs = Dictionary(uniqueKeysWithValues: features.enumerated().map { ($1, Int32($0)) })
        let unscaled = LearnedClassifier(
            features: features, featureIDs: featureIDs, scale: scale, rowStart: first.rowStart,
            rowClass: first.rowClass, rowWeight: first.rowWeight, bias: first.bias, temperature: 1)
        // Temperature: the one that gives the held-out sentences the most likelihood.
        // (At most 2,000 of them beyond `denseClassLimit` classes: each temperature tried is a softmax
        // over every class.)
        let heldSample = samples.indices.filter { heldOut[$0] }
        let every = classes > denseClassLimit ? max(1, heldSample.count / 2_000) : 1
        let kept = heldSample.enumerated().filter { $0.offset % every == 0 }.map(\.element)
        let held = kept.map { (scores: unscaled.scores(vectors[$0]), label: samples[$0].label) }
        // A few intents' sentences among the held-out ones say nothing of how likely none is (a small
        // app's tenth, drawn by hash, may hold none of them): then the temperature alone is fitted.
        let heldIntents = held.filter { $0.label != classes - 1 }.count
        let (temperature, noneShift) =
            heldIntents >= minimumHeldIntents
            ? fittedCalibration(held, none: classes - 1) : (heldIntents > 0 ? fittedTemperature(held) : 1, 0)
        // The calibration fitted on sentences the fit did not see, the weights fitted on all of them.
        var final = steady ? fit(excluding: samples.map { _ in false }) : first
        // The shift is in calibrated units: in the scores' own, it is times the temperature.
        final.bias[classes - 1] += noneShift * temperature
        return LearnedClassifier(
            features: features, featureIDs: featureIDs, scale: scale, rowStart: final.rowStart,
            rowClass: final.rowClass, rowWeight: final.rowWeight, bias: final.bias, temperature: temperature)
    }

    /// The temperature and the shift of none's score that give `held` the most likelihood: the
    /// probabilities are the softmax of β sₖ, plus c for none. The loss is convex in (β, c); Newton's
    /// method on both. The shift makes none as likely, over the held-out sentences, as they are none's:
    /// generated negatives are a share of the training sentences the author never chose, and the
    /// held-out sentences are ones the fit did not see, as a person's are.
    static func fittedCalibration(_ held: [(scores: [Float], label: Int)], none: Int) -> (
        temperature: Float, noneShift: Float
    ) {
        guard !held.isEmpty else { return (1, 0) }
        var beta = 1.0, shift = 0.0
        for _ in 0..<30 {
            var gBeta = 0.0, gShift = 0.0, hBeta = 0.0, hCross = 0.0, hShift = 0.0
            for (scores, label) in held {
                let top = Double(scores.max() ?? 0)
                var sum = 0.0, mean = 0.0, square = 0.0
                var noneWeight = 0.0
                for (k, score) in scores.enumerated() {
                    let s = Double(score) - top
                    let e = exp(beta * s + (k == none ? shift : 0))
                    sum += e
                    mean += e * s
                    square += e * s * s
                    if k == none { noneWeight = e }
                }
                mean /= sum
                square /= sum
                let pNone = noneWeight / sum
                let sNone = Double(scores[none]) - top
                gBeta += mean - (Double(scores[label]) - top)
                gShift += pNone - (label == none ? 1 : 0)
                hBeta += square - mean * mean
                hCross += pNone * (sNone - mean)
                hShift += pNone * (1 - pNone)
            }
            let determinant = hBeta * hShift - hCross * hCross
            guard determinant > 1e-12 else { break }
            let dBeta = (hShift * gBeta - hCross * gShift) / determinant
            let dShift = (hBeta * gShift - hCross * gBeta) / determinant
            let nextBeta = min(5, max(0.125, beta - dBeta))
            let nextShift = min(8, max(-8, shift - dShift))
            let moved = abs(nextBeta - beta) + abs(nextShift - shift)
            beta = nextBeta
            shift = nextShift
            if moved < 1e-5 { break }
        }
        return (Float(1 / beta), Float(shift))
    }

    /// The temperature that gives `held` the most likelihood, by Newton's method on its inverse β: the
    /// loss, Σ log Σₖ exp(β sₖ) − β s_label, is convex in β, its first derivative the expected score
    /// less the label's, its second the scores' variance. A handful of passes instead of a grid's dozens.
    static func fittedTemperature(_ held: [(scores: [Float], label: Int)]) -> Float {
        guard !held.isEmpty else { return 1 }
        var beta = 1.0
        for _ in 0..<20 {
            var gradient = 0.0, curvature = 0.0
            for (scores, label) in held {
                let top = Double(scores.max() ?? 0)
                var sum = 0.0, mean = 0.0, square = 0.0
                for score in scores {
                    let s = Double(score) - top
                    let e = exp(beta * s)
                    sum += e
                    mean += e * s
                    square += e * s * s
                }
                mean /= sum
                square /= sum
                gradient += mean - (Double(scores[label]) - top)
                curvature += square - mean * mean
            }
            guard curvature > 1e-12 else { break }
            let next = min(5, max(0.125, beta - gradient / curvature))
            let moved = abs(next - beta)
            beta = next
            if moved < 1e-4 { break }
        }
        return Float(1 / beta)
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
        var best: [Int] = []
        best.reserveCapacity(candidateCount + 2)
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
            // The best `candidateCount` by score, then by class (ties to the lower), kept in order in `best`.
            best.removeAll(keepingCapacity: true)
            for label in touched {
                let value = score[label]
                if best.count == candidateCount {
                    let last = best[candidateCount - 1]
                    guard (value, last) > (score[last], label) else { continue }
                    best.removeLast()
                }
                var at = best.count
                while at > 0, (value, best[at - 1]) > (score[best[at - 1]], label) { at -= 1 }
                best.insert(label, at: at)
            }
            for label in touched { score[label] = 0 }
            for label in [sample.label, classes - 1] where !best.contains(label) { best.append(label) }
            return best.sorted()
        }
    }

    /// One gradient step of the softmax over `among` only (`scratch`, `active`: room for a score and a
    /// class per class);
    /// `pairs` holds each weight at `2i` and its averaging sum at `2i + 1`. Unchecked: `train` checked
    /// once that every feature of `vector` is a row of `pairs` and every class of `among` is below
    /// `classes`, and `among` has at most `classes` of them.
    private static func step(
        _ vector: [(feature: Int32, value: Float)], among: [Int], label: Int, rate: Float,
        pairs w: UnsafeMutableBufferPointer<Float>, steps: Float,
        bias: inout [Float], biasSums: inout [Float], classes: Int, scratch: inout [Float], moving active: inout [Int]
    ) {
        let count = among.count
        guard count > 0 else { return }
        among.withUnsafeBufferPointer { among in
            scratch.withUnsafeMutableBufferPointer { scores in
                for i in 0..<count { scores[i] = bias[among[i]] }
                for (feature, value) in vector {
                    let row = Int(feature) * classes
                    for i in 0..<count { scores[i] += value * w[2 * (row + among[i])] }
                }
                var top = scores[0]
                for i in 1..<count where top < scores[i] { top = scores[i] }
                var sum: Float = 0
                for i in 0..<count {
                    scores[i] = exp(scores[i] - top)
                    sum += scores[i]
                }
                // Only the classes whose gradient moves anything (most candidates are ~0 once the
                // order is learnt), as in the dense loop: `scores` then holds their changes in order.
                var moving = 0
                for i in 0..<count {
                    let k = among[i]
                    var gradient = scores[i] / sum
                    if k == label { gradient -= 1 }
                    guard abs(gradient) > 1e-4 else { continue }
                    let change = gradient * rate
                    bias[k] -= change
                    biasSums[k] -= steps * change
                    scores[moving] = change
                    active[moving] = k
                    moving += 1
                }
                for (feature, value) in vector {
                    let row = Int(feature) * classes
                    for i in 0..<moving {
                        let delta = value * scores[i]
                        let at = 2 * (row + active[i])
                        w[at] -= delta
                        w[at + 1] -= steps * delta
                    }
                }
            }
        }
    }
}
