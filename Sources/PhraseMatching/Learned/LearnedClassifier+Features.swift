extension LearnedClassifier {
    /// Training's feature extraction: the features `featureNames` gives a sentence, in the same order
    /// with the same values, but as ids of names interned as they are first met. Each distinct name is
    /// built once (a word's letters once per spelling, a word pair once per pair), not once per
    /// sentence: with 100,000 training sentences the names were most of training's time.
    struct FeatureInterner {
        /// Names by provisional id (the order they were first met).
        private(set) var names: [String] = []
        private var ids: [String: Int32] = [:]
        /// Tokens of word pairs ("^", "$", "*", known words) by id, and the pair features met so far.
        private var tokens: [String] = []
        private var tokenIDs: [String: Int32] = [:]
        private var pairs: [UInt64: Int32] = [:]
        /// Per known word its "w:" feature; per spelling its letters; per word its synonym sets.
        private var wordFeatures: [String: Int32] = [:]
        private var grams: [String: [(Int32, Float)]] = [:]
        private var synsets: [String: [(Int32, Float)]] = [:]
        /// The ids of a sentence model's features ("e:0" …), once met.
        private var embeddingIDs: [Int32] = []
        /// Room for a sentence's features while they are gathered, kept from one sentence to the next.
        private var scratch: [(Int32, Float)] = []

        private mutating func id(_ name: String) -> Int32 {
            if let id = ids[name] { return id }
            let id = Int32(names.count)
            names.append(name)
            ids[name] = id
            return id
        }

        private mutating func token(_ text: String) -> Int32 {
            if let id = tokenIDs[text] { return id }
            let id = Int32(tokens.count)
            tokens.append(text)
            tokenIDs[text] = id
            return id
        }

        private mutating func pair(_ previous: Int32, _ next: Int32) -> Int32 {
            let key = UInt64(UInt32(bitPattern: previous)) << 32 | UInt64(UInt32(bitPattern: next))
            if let id = pairs[key] { return id }
            let id = id("b:" + tokens[Int(previous)] + "|" + tokens[Int(next)])
            pairs[key] = id
            return id
        }

        /// `featureNames(words, related:)` as provisional ids.
        mutating func features(_ words: [Word], related: (String) -> [String]) -> [(Int32, Float)] {
            // The room of the sentences before (what is returned is a copy of the sentence's count).
            var named = scratch
            scratch = []
            named.removeAll(keepingCapacity: true)
            defer { scratch = named }
            var previous = token("^")
            for word in words {
                let next = token(word.free ? "*" : (word.known ?? "*"))
                if !word.free, let known = word.known {
                    if let feature = wordFeatures[known] {
                        named.append((feature, 1))
                    } else {
                        let feature = id("w:" + known)
                        wordFeatures[known] = feature
                        named.append((feature, 1))
                    }
                }
                if !word.free {
                    let key = word.known ?? word.said
                    if let found = synsets[key] {
                        named.append(contentsOf: found)
                    } else {
                        let related = related(key)
                        let found = related.map { (id("s:" + $0), 0.5 / Float(related.count).squareRoot()) }
                        synsets[key] = found
                        named.append(contentsOf: found)
                    }
                }
                named.append((pair(previous, next), LearnedClassifier.pairWeight))
                previous = next
                if !word.free, word.known != nil {
                    if let found = grams[word.said] {
                        named.append(contentsOf: found)
                    } else {
                        let names = characterGrams(word.said)
                        let value = 1 / Float(max(1, names.count)).squareRoot()
                        let found = names.map { (id($0), value) }
                        grams[word.said] = found
                        named.append(contentsOf: found)
                    }
                }
            }
            if !words.isEmpty { named.append((pair(previous, token("$")), LearnedClassifier.pairWeight)) }
            if let embedding = LearnedTrainer.sentenceFeatures {
                let values = embedding.values(words)
                if embeddingIDs.isEmpty { embeddingIDs = embedding.names.map { id($0) } }
                for (index, value) in values.enumerated() { named.append((embeddingIDs[index], value)) }
            }
            return named.withUnsafeBufferPointer { Array($0) }
        }
    }
}
