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
            // Sorted as (rank, index) pairs, not indexes looking their ranks up: the same order (no two
            // pairs are equal), without a scattered read per comparison.
            var ranked = samples.indices.map { (SeededGenerator.mixed(samples[$0].key ^ salt), $0) }
            ranked.sort { $0 < $1 }
            return ranked.map(\.1)
        }

        let candidates =
            classes > denseClassLimit
            ? candidateClasses(vectors, samples: samples, classes: classes, features: features.count) : Candidates()

        let steady = classes <= denseClassLimit && samples.count <= steadyLimit
        // One fit: the weights, compressed to the rows that matter, and the biases, from the sentences
        // not held out.
        func fit(excluding heldOut: [Bool]) -> (
            rowStart: [Int32], rowClass: [Int32], rowWeight: [Float], bias: [Float]
        ) {
            let passes = classes > denseClassLimit ? sparseEpochs : steady ? 2 * epochs : epochs
            if !candidates.isEmpty {
                return sampledFit(
                    vectors, samples: samples, candidates: candidates, classes: classes, features: features.count,
                    passes: passes, excluding: heldOut, order: order)
            }
            // Averaged SGD: `sums` gathers each change times the step it was made at, so the average of
            // the weights over every step is `weights - sums / steps` (nothing per step but the changes).
            var weights = [Float](repeating: 0, count: features.count * classes)
            var sums = [Float](repeating: 0, count: features.count * classes)
            var bias = [Float](repeating: 0, count: classes)
            var biasSums = [Float](repeating: 0, count: classes)
            var probabilities = [Float](repeating: 0, count: classes)
            let decay: Float = 1e-6
            var active: [(Int, Float)] = []
            var steps: Float = 1
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
            for i in weights.indices { weights[i] -= sums[i] / steps }
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
        let held = kept.map { (scores: unscaled.fittedScores(vectors[$0]), label: samples[$0].label) }
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

    /// `scores(vector)` of a classifier just fitted: the same sums in the same order, unchecked, for
    /// the thousands of held-out sentences the calibration scores. Only for rows `fit` built (every
    /// class below `bias.count`, rows ascending and within `rowClass`) and vectors of its features;
    /// a model read from a file is scored by `scores`, checked.
    func fittedScores(_ vector: [(feature: Int32, value: Float)]) -> [Float] {
        var scores = bias
        scores.withUnsafeMutableBufferPointer { scores in
            rowStart.withUnsafeBufferPointer { start in
                rowClass.withUnsafeBufferPointer { cls in
                    rowWeight.withUnsafeBufferPointer { weight in
                        for (feature, value) in vector {
                            for at in Int(start[Int(feature)])..<Int(start[Int(feature) + 1]) {
                                scores[Int(cls[at])] += value * weight[at]
                            }
                        }
                    }
                }
            }
        }
        return scores
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

    /// Each sentence's candidate classes (`candidateClasses`), one after the other: sentence i's are
    /// `classes[start[i]..<start[i + 1]]`, ascending. One array rather than one per sentence: a step
    /// reads them without a reference to follow.
    struct Candidates {
        var start: [Int] = [0]
        var classes: [Int32] = []
        var isEmpty: Bool { classes.isEmpty }
    }

    /// Per sentence, the classes it could be confused with: those whose sentences share its most
    /// telling features (each feature counted by how few classes have it; features of more than 64
    /// classes say nothing), the best `candidateCount`, and its own class and none. With a thousand
    /// intents a step then costs a few dozen classes, not a thousand (sampled softmax).
    static func candidateClasses(
        _ vectors: [[(feature: Int32, value: Float)]], samples: [Sample], classes: Int, features: Int
    ) -> Candidates {
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
        // Per feature its classes, ascending, one after the other (none for a feature of more than 64).
        var labelStart = [Int](repeating: 0, count: features + 1)
        var labels: [Int32] = []
        for feature in 0..<features {
            if labelsOf[feature].count <= 64 { labels += labelsOf[feature].sorted().map(Int32.init) }
            labelStart[feature + 1] = labels.count
        }
        labelsOf = []
        var found = Candidates()
        found.start.reserveCapacity(samples.count + 1)
        found.classes.reserveCapacity(samples.count * (candidateCount + 2))
        var score = [Float](repeating: 0, count: classes)
        var touched = [Int](repeating: 0, count: classes)
        var best = [Int](repeating: 0, count: candidateCount + 2)
        score.withUnsafeMutableBufferPointer { score in
            touched.withUnsafeMutableBufferPointer { touched in
                best.withUnsafeMutableBufferPointer { best in
                    labels.withUnsafeBufferPointer { labels in
                        for (vector, sample) in zip(vectors, samples) {
                            var touchedCount = 0
                            for (feature, value) in vector {
                                let from = labelStart[Int(feature)], to = labelStart[Int(feature) + 1]
                                guard from < to else { continue }
                                let share = value / Float(to - from)
                                for at in from..<to {
                                    let label = Int(labels[at])
                                    if score[label] == 0 {
                                        touched[touchedCount] = label
                                        touchedCount += 1
                                    }
                                    score[label] += share
                                }
                            }
                            // The best `candidateCount` by score, then by class (ties to the lower), kept
                            // in order in `best`.
                            var bestCount = 0
                            for t in 0..<touchedCount {
                                let label = touched[t]
                                let value = score[label]
                                if bestCount == candidateCount {
                                    let last = best[candidateCount - 1]
                                    guard (value, last) > (score[last], label) else { continue }
                                    bestCount -= 1
                                }
                                var at = bestCount
                                while at > 0, (value, best[at - 1]) > (score[best[at - 1]], label) {
                                    best[at] = best[at - 1]
                                    at -= 1
                                }
                                best[at] = label
                                bestCount += 1
                            }
                            for t in 0..<touchedCount { score[touched[t]] = 0 }
                            for label in [sample.label, classes - 1] {
                                var listed = false
                                for b in 0..<bestCount where best[b] == label { listed = true }
                                if !listed {
                                    best[bestCount] = label
                                    bestCount += 1
                                }
                            }
                            let first = found.classes.count
                            for b in 0..<bestCount { found.classes.append(Int32(best[b])) }
                            found.classes[first...].sort()
                            found.start.append(found.classes.count)
                        }
                    }
                }
            }
        }
        return found
    }

    /// The fit beyond `denseClassLimit` classes: averaged SGD on the softmax over each sentence's
    /// `candidates` only (sampled softmax), the same arithmetic in the same order as over a table of
    /// features × classes, but laid out for the memory a step touches. A step reads and changes a few
    /// dozen classes of each of some sixty features; in a table of rows per feature each is a cache
    /// line of its own, most of them missed (1,000 intents: a table of 229 MB). Here a class's weights
    /// are a row over the features, the features numbered in the order the sentences first have them
    /// (`slot`), so that one sentence's features lie side by side and a class's weights for them share a
    /// few cache lines. Each weight and its averaging sum stand side by side (`2i`, `2i + 1`).
    /// `order(pass)`: the samples' order in each pass.
    static func sampledFit(
        _ vectors: [[(feature: Int32, value: Float)]], samples: [Sample], candidates: Candidates, classes: Int,
        features: Int, passes: Int, excluding heldOut: [Bool], order: (Int) -> [Int]
    ) -> (rowStart: [Int32], rowClass: [Int32], rowWeight: [Float], bias: [Float]) {
        // The step indexes the weights unchecked (checked indexing cost 19 % more instructions there,
        // BENCHMARKS.md): what it relies on is checked here, once.
        precondition(
            samples.allSatisfy { (0..<classes).contains($0.label) }
                && vectors.allSatisfy { $0.allSatisfy { (0..<features).contains(Int($0.feature)) } }
                && candidates.start.count == samples.count + 1 && candidates.start.first == 0
                && candidates.start.last == candidates.classes.count
                && zip(candidates.start, candidates.start.dropFirst()).allSatisfy { (0...classes).contains($1 - $0) }
                && candidates.classes.allSatisfy { (0..<classes).contains(Int($0)) },
            "training sentences' classes and features must lie inside the weight table")
        // Each feature's place in a class's row: by the first sentence that has it.
        var slot = [Int](repeating: -1, count: features)
        var placed = 0
        for vector in vectors {
            for (feature, _) in vector where slot[Int(feature)] < 0 {
                slot[Int(feature)] = placed
                placed += 1
            }
        }
        for feature in slot.indices where slot[feature] < 0 {
            slot[feature] = placed
            placed += 1
        }
        let table = WeightTable(count: 2 * features * classes)
        var bias = [Float](repeating: 0, count: classes)
        var biasSums = [Float](repeating: 0, count: classes)
        var scratch = [Float](repeating: 0, count: classes)
        var rows = [Int](repeating: 0, count: classes)
        var moving = [Int](repeating: 0, count: classes)
        var places: [Int] = [], values: [Float] = []
        var steps: Float = 1
        let labels = samples.map(\.label), weights = samples.map(\.weight)
        let w = table.floats
        slot.withUnsafeBufferPointer { slot in
            candidates.classes.withUnsafeBufferPointer { among in
                for epoch in 0..<passes {
                    let rate = learningRate * Float(passes - epoch) / Float(passes)
                    let sequence = order(epoch)
                    // The next sentence's length is read a step ahead: its vector is a cache miss, met
                    // while this step computes rather than after it.
                    var length = sequence.isEmpty ? 0 : vectors[sequence[0]].count
                    for (position, index) in sequence.enumerated() {
                        let count = length
                        if position + 1 < sequence.count { length = vectors[sequence[position + 1]].count }
                        guard !heldOut[index], count > 0 else { continue }
                        step(
                            vectors[index],
                            among: UnsafeBufferPointer(
                                rebasing: among[candidates.start[index]..<candidates.start[index + 1]]),
                            label: labels[index], rate: rate * weights[index], pairs: w, slot: slot, features: features,
                            steps: steps, bias: &bias, biasSums: &biasSums, scratch: &scratch, rows: &rows,
                            moving: &moving, places: &places, values: &values)
                        steps += 1
                    }
                }
            }
        }
        for k in bias.indices { bias[k] -= biasSums[k] / steps }

        // Compressed rows of the averaged weights that matter, by feature, classes ascending: gathered in
        // one walk of the table in its memory order (class by class), then placed by feature.
        var featureAt = [Int](repeating: 0, count: features)
        for feature in 0..<features { featureAt[slot[feature]] = feature }
        var keptFeature: [Int32] = [], keptClass: [Int32] = [], keptWeight: [Float] = []
        for k in 0..<classes {
            let row = 2 * k * features
            for at in 0..<features where w[row + 2 * at] != 0 || w[row + 2 * at + 1] != 0 {
                let weight = w[row + 2 * at] - w[row + 2 * at + 1] / steps
                guard abs(weight) >= pruneBelow else { continue }
                keptFeature.append(Int32(featureAt[at]))
                keptClass.append(Int32(k))
                keptWeight.append(weight)
            }
        }
        var rowStart = [Int32](repeating: 0, count: features + 1)
        for feature in keptFeature { rowStart[Int(feature) + 1] += 1 }
        for feature in 0..<features { rowStart[feature + 1] += rowStart[feature] }
        var next = rowStart.map(Int.init)
        var rowClass = [Int32](repeating: 0, count: keptClass.count)
        var rowWeight = [Float](repeating: 0, count: keptClass.count)
        for (at, feature) in keptFeature.enumerated() {
            rowClass[next[Int(feature)]] = keptClass[at]
            rowWeight[next[Int(feature)]] = keptWeight[at]
            next[Int(feature)] += 1
        }
        withExtendedLifetime(table) {}
        return (rowStart, rowClass, rowWeight, bias)
    }

    /// One gradient step of the softmax over `among` only (`scratch`, `rows`, `moving`: room for a
    /// score, a row and a class per class; `places`, `values`: room for a sentence's features).
    /// `pairs` holds class k's weight of the feature in slot s at `2 (k · features + s)` and its
    /// averaging sum after it. A class's score is summed in a register over the features in the
    /// vector's order, the very additions of a feature-by-feature loop, four classes at a time, along
    /// the class's row. Unchecked: `sampledFit` checked once that every feature of `vector` has a slot
    /// and every class of `among` is below `classes`, and `among` has at most `classes` of them.
    private static func step(
        _ vector: [(feature: Int32, value: Float)], among: UnsafeBufferPointer<Int32>, label: Int, rate: Float,
        pairs w: UnsafeMutableBufferPointer<Float>, slot: UnsafeBufferPointer<Int>, features: Int, steps: Float,
        bias: inout [Float], biasSums: inout [Float], scratch: inout [Float], rows: inout [Int],
        moving active: inout [Int], places: inout [Int], values: inout [Float]
    ) {
        let count = among.count
        guard count > 0 else { return }
        let n = vector.count
        if places.count < n {
            places = [Int](repeating: 0, count: n)
            values = [Float](repeating: 0, count: n)
        }
        do {
            scratch.withUnsafeMutableBufferPointer { scores in
                rows.withUnsafeMutableBufferPointer { rows in
                    places.withUnsafeMutableBufferPointer { at in
                        values.withUnsafeMutableBufferPointer { value in
                            for (j, (feature, v)) in vector.enumerated() {
                                at[j] = 2 &* slot[Int(feature)]
                                value[j] = v
                            }
                            var i = 0
                            while i &+ 4 <= count {
                                let k0 = Int(among[i]), k1 = Int(among[i &+ 1])
                                let k2 = Int(among[i &+ 2]), k3 = Int(among[i &+ 3])
                                let r0 = 2 &* k0 &* features, r1 = 2 &* k1 &* features
                                let r2 = 2 &* k2 &* features, r3 = 2 &* k3 &* features
                                var s0 = bias[k0], s1 = bias[k1], s2 = bias[k2], s3 = bias[k3]
                                for j in 0..<n {
                                    let a = at[j], v = value[j]
                                    s0 += v * w[r0 &+ a]
                                    s1 += v * w[r1 &+ a]
                                    s2 += v * w[r2 &+ a]
                                    s3 += v * w[r3 &+ a]
                                }
                                (scores[i], scores[i &+ 1], scores[i &+ 2], scores[i &+ 3]) = (s0, s1, s2, s3)
                                (rows[i], rows[i &+ 1], rows[i &+ 2], rows[i &+ 3]) = (r0, r1, r2, r3)
                                i &+= 4
                            }
                            while i < count {
                                let k = Int(among[i])
                                let r = 2 &* k &* features
                                var s = bias[k]
                                for j in 0..<n { s += value[j] * w[r &+ at[j]] }
                                scores[i] = s
                                rows[i] = r
                                i &+= 1
                            }
                            var top = scores[0]
                            for i in 1..<count where top < scores[i] { top = scores[i] }
                            var sum: Float = 0
                            for i in 0..<count {
                                scores[i] = exp(scores[i] - top)
                                sum += scores[i]
                            }
                            // Only the classes whose gradient moves anything (most candidates are ~0 once
                            // the order is learnt), as in the dense loop: `scores` then holds their changes.
                            var moving = 0
                            for i in 0..<count {
                                let k = Int(among[i])
                                var gradient = scores[i] / sum
                                if k == label { gradient -= 1 }
                                guard abs(gradient) > 1e-4 else { continue }
                                let change = gradient * rate
                                bias[k] -= change
                                biasSums[k] -= steps * change
                                scores[moving] = change
                                active[moving] = rows[i]
                                moving += 1
                            }
                            // Each weight changes once per step: class by class, along its row.
                            for i in 0..<moving {
                                let r = active[i], change = scores[i]
                                for j in 0..<n {
                                    let delta = value[j] * change
                                    let k = r &+ at[j]
                                    w[k] -= delta
                                    w[k &+ 1] -= steps * delta
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
