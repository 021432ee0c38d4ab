import Foundation
import IntentModel

/// The second stage's model, trained from the definitions by `LearnedTrainer`: an intent classifier
/// (`LearnedClassifier`: logistic regression with a none class, calibrated) that chooses the intent
/// and says how sure it is, and TF-IDF prototypes of words and word pairs, one per phrase template
/// (words no phrase has read as one placeholder), that say which of the intent's phrases the
/// sentence is closest to, for aligning its words with the phrase and explaining. Immutable;
/// written to and read from the cache as bytes.
public struct LearnedModel: Sendable {
    /// Intent index → intent.
    let intents: [QualifiedName]
    /// Class (one per phrase template) → its intent's index: a sentence is compared with each
    /// phrase, so an intent with five ways of saying it is not an average of the five.
    let classIntent: [Int32]
    /// Class → the phrase template it was sampled from (or the `training:` sentence).
    let classTemplate: [String]
    /// Class → whether it is a phrase template (not a `training:` sentence): word order is checked
    /// against phrases only. A hundred sentences people said put their words in every order.
    let classIsPhrase: [Bool]
    /// Word id → word, sorted: ids are the same whatever order the definitions were read in.
    let words: [String]
    /// Word pair keys (see `pairKey`), sorted; feature id of pair `i` is `words.count + i`.
    let pairs: [UInt64]
    /// Inverse document frequency per feature.
    let idf: [Float]
    /// Prototype weights by feature (compressed rows): classes ascending, with their weight.
    let postingStart: [Int32]
    let postingClass: [Int32]
    let postingWeight: [Float]
    /// Chooses the intent, with calibrated probabilities.
    let classifier: LearnedClassifier
    /// A word or phrase the definitions do not have → the definitions' words WordNet links it to
    /// ("erase" → "delete", "keep an eye on" → "watch"; "=write" for "wrote": the same word in an
    /// irregular form), see `WordNet.lexicon`; empty when WordNet was not read where the model was trained.
    let related: [String: [String]]
    /// Whether WordNet was read when training: without it, no synonym is known beyond the definitions.
    public var usesWordNet: Bool { !related.isEmpty }

    // Lookup tables rebuilt on load, not stored.
    let wordIDs: [String: Int32]
    let pairIDs: [UInt64: Int32]
    /// Words of four letters or more by first byte and length, for typo correction: a typo keeps
    /// the first letter (as the exact matcher's suggestions assume), which keeps the candidates few.
    let wordsByShape: [Shape: [Int32]]

    struct Shape: Hashable, Sendable {
        var first: UInt8
        var length: Int
    }
    let isFunctionWord: [Bool]
    /// Per class: the prototype's weight on words (squared), what `recall` is a share of.
    let classWordMass: [Float]

    static let unknown: Int32 = -1
    static let start: Int32 = -2
    static let end: Int32 = -3
    /// Pairs count less than words: they carry order, words carry topic.
    static let pairWeight: Float = 0.6
    /// Articles, pronouns, prepositions count this much of a word.
    static let functionWordWeight: Float = 0.3

    init(
        intents: [QualifiedName], classIntent: [Int32], classTemplate: [String], words: [String], pairs: [UInt64],
        idf: [Float], postingStart: [Int32],
        postingClass: [Int32], postingWeight: [Float], classifier: LearnedClassifier,
        related: [String: [String]] = [:], classIsPhrase: [Bool]? = nil
    ) {
        self.related = related
        self.classIsPhrase = classIsPhrase ?? classIntent.map { _ in true }
        self.intents = intents
        self.classIntent = classIntent
        self.classTemplate = classTemplate
        self.words = words
        self.pairs = pairs
        self.idf = idf
        self.postingStart = postingStart
        self.postingClass = postingClass
        self.postingWeight = postingWeight
        self.classifier = classifier
        var wordIDs: [String: Int32] = [:]
        var byShape: [Shape: [Int32]] = [:]
        for (id, word) in words.enumerated() {
            wordIDs[word] = Int32(id)
            if word.utf8.count >= 4, let first = word.utf8.first {
                byShape[Shape(first: first, length: word.utf8.count), default: []].append(Int32(id))
            }
        }
        self.wordIDs = wordIDs
        self.isFunctionWord = words.map { LearnedWords.functionWords.contains($0) }
        var mass = [Float](repeating: 0, count: classIntent.count)
        if postingStart.count > words.count {
            for posting in 0..<Int(postingStart[words.count]) where Int(postingClass[posting]) < mass.count {
                mass[Int(postingClass[posting])] += postingWeight[posting] * postingWeight[posting]
            }
        }
        self.classWordMass = mass
        self.wordsByShape = byShape
        self.pairIDs = Dictionary(uniqueKeysWithValues: pairs.enumerated().map { ($1, Int32(words.count + $0)) })
    }

    var featureCount: Int { words.count + pairs.count }

    static func pairKey(_ a: Int32, _ b: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: a)) << 32 | UInt64(UInt32(bitPattern: b))
    }

    /// The words of a sentence that count: folded, fillers left out.
    static func words(of tokens: [Token]) -> [String] {
        tokens.map(\.text).filter { !Matcher.fillers.contains($0) }
    }

    /// Word ids of a sentence: known words, typos of known words (counted), the rest unknown.
    func ids(_ words: [String]) -> (ids: [Int32], corrected: Int) {
        var corrected = 0
        let ids = words.map { word -> Int32 in
            if let id = wordIDs[word] { return id }
            // An irregular form of a known word ("wrote" → "write"), from WordNet's exception lists.
            if let same = related[word]?.first, same.hasPrefix("="), let id = wordIDs[String(same.dropFirst())] {
                return id
            }
            // Another form of a known word ("tracking", "notes", "finished", "aufgaben") is that word.
            for form in Self.forms(of: word) { if let id = wordIDs[form] { return id } }
            if let id = correction(of: word) {
                corrected += 1
                return id
            }
            return Self.unknown
        }
        return (ids, corrected)
    }

    /// Other forms of `word` to look up when it is not known, most likely first: its base with an
    /// English or German inflection taken off ("tracking" → "track", "notes" → "note", "stopped" →
    /// "stop", "making" → "make", "aufgaben" → "aufgabe"), or inflected ("track" → "tracks").
    /// Endings come off words of five letters or more only, so short words are never taken for others.
    static func forms(of word: String) -> [String] {
        let letters = Array(word)
        guard letters.count >= 5, letters.allSatisfy(\.isLetter) else {
            return letters.count >= 3 && letters.allSatisfy(\.isLetter) ? [word + "s"] : []
        }
        var forms: [String] = []
        func base(_ suffix: String) {
            guard word.hasSuffix(suffix) else { return }
            let stem = String(word.dropLast(suffix.count))
            guard stem.count >= 3 else { return }
            forms.append(stem)
            forms.append(stem + "e")
            // A doubled final consonant: "stopped" → "stop", "planning" → "plan".
            if let last = stem.last, stem.dropLast().last == last, !"aeiouls".contains(last) {
                forms.append(String(stem.dropLast()))
            }
        }
        if word.hasSuffix("ies") { forms.append(String(word.dropLast(3)) + "y") }
        // "es" only after a hissing sound ("boxes", "wishes"): "notes" is "note", not "not".
        let hissing = ["ses", "xes", "zes", "ches", "shes"].contains { word.hasSuffix($0) }
        for suffix in ["ing", "ed", "es", "s", "er", "ly", "en", "n", "e"] {
            if suffix == "es", !hissing { continue }
            if suffix == "s", word.hasSuffix("ss") { continue }
            base(suffix)
        }
        forms.append(word + "s")
        forms.append(word + "ing")
        return forms.filter { $0 != word }
    }

    /// The known word `word` is a typo of: one letter from four letters on, two from eight; the
    /// closest, then the first in word order (so the answer never depends on a dictionary's order).
    /// A word of three letters is a four-letter word with a letter left out, when it is only one.
    func correction(of word: String) -> Int32? {
        let length = word.utf8.count
        guard let first = word.utf8.first, !word.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        // Three letters: a four-letter word with one letter left out ("nxt", "drp"), when only one
        // known word is that.
        if length == 3, word.utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) {
            let found = (wordsByShape[Shape(first: first, length: 4)] ?? []).filter {
                EditDistance.within(words[Int($0)], word, limit: 1) != nil
            }
            return found.count == 1 ? found[0] : nil
        }
        guard length >= 4 else { return nil }
        let allowance = length >= 8 ? 2 : 1
        var best: (distance: Int, id: Int32)?
        for candidateLength in (length - allowance)...(length + allowance) {
            for id in wordsByShape[Shape(first: first, length: candidateLength)] ?? [] {
                guard let distance = EditDistance.within(words[Int(id)], word, limit: allowance) else { continue }
                if best == nil || (distance, id) < (best!.distance, best!.id) { best = (distance, id) }
            }
        }
        return best?.id
    }

    /// The sentence as a sparse, L2-normalized TF-IDF vector: (feature, weight), features ascending.
    func vector(_ ids: [Int32]) -> [(feature: Int32, weight: Float)] {
        var features: [(Int32, Float)] = []
        for id in ids where id >= 0 { features.append((id, isFunctionWord[Int(id)] ? Self.functionWordWeight : 1)) }
        let framed = [Self.start] + ids + [Self.end]
        for i in 0..<(framed.count - 1) {
            if let pair = pairIDs[Self.pairKey(framed[i], framed[i + 1])] { features.append((pair, Self.pairWeight)) }
        }
        features.sort { $0.0 < $1.0 }
        var merged: [(feature: Int32, weight: Float)] = []
        for (feature, count) in features {
            if let last = merged.last, last.feature == feature {
                merged[merged.count - 1].weight += count
            } else {
                merged.append((feature, count))
            }
        }
        var norm: Float = 0
        for i in merged.indices {
            merged[i].weight *= idf[Int(merged[i].feature)]
            norm += merged[i].weight * merged[i].weight
        }
        guard norm > 0 else { return [] }
        let scale = 1 / norm.squareRoot()
        for i in merged.indices { merged[i].weight *= scale }
        return merged
    }

    /// The prototype weight of `feature` in class `cls`, 0 when it has none.
    func weight(of feature: Int32, in cls: Int32) -> Float {
        var low = Int(postingStart[Int(feature)]), high = Int(postingStart[Int(feature) + 1])
        while low < high {
            let middle = (low + high) / 2
            if postingClass[middle] < cls { low = middle + 1 } else { high = middle }
        }
        return low < postingStart[Int(feature) + 1] && postingClass[low] == cls ? postingWeight[low] : 0
    }

    /// What the model sees in a sentence, for calibrating and explaining.
    struct Evidence {
        var best: Int32 = -1
        var bestScore: Float = 0
        var secondScore: Float = 0
        var second: Int32 = -1
        /// Share of the sentence's word pairs (between known words or placeholders) the best class has.
        var pairCoverage: Float = 0
        /// The same over the known words alone (unknown ones left out): an inserted word costs little.
        var knownPairCoverage: Float = 0
        /// Share of the best phrase's word weight that the sentence has: low when its telling words are missing.
        var recall: Float = 0
        /// Share of the sentence's pairs of known words that the best phrase has the other way round:
        /// high for a sentence said backwards.
        var reversedPairs: Float = 0
        /// Share of the sentence's words that the definitions know (typos counted at half).
        var known: Float = 0
        /// Share of the sentence's words the best class has.
        var classCoverage: Float = 0
        var wordCount = 0
        var contributions: [(feature: Int32, weight: Float)] = []
        /// The classifier's intent, its calibrated probability, the intents after it, and none's.
        var intent: Int32 = -1
        var probability: Double = 0
        var ranking: [(intent: Int32, probability: Double)] = []
        var noneProbability: Double = 0
        /// The classifier's features that carried the intent, heaviest first.
        var carried: [(feature: String, weight: Float)] = []
        /// The sentence's words WordNet linked to the definitions' words.
        var links: [Link] = []
    }

    /// Words of a sentence linked to the definitions' words by WordNet: a word the definitions do not
    /// know, or a phrase WordNet has that holds one ("keep an eye on"), and the words it stands for.
    struct Link: Equatable {
        /// Positions in the sentence's words (fillers left out).
        var span: Range<Int>
        var known: [String]
    }

    /// The links of a sentence's words (`ids` as `ids(_:)` gives them): longest phrase first, then
    /// single unknown words, as said or in a base form ("monitoring" → "monitor").
    func links(_ words: [String], ids: [Int32]) -> [Link] {
        guard !related.isEmpty else { return [] }
        func linked(_ key: String) -> [String]? {
            guard let found = related[key]?.filter({ !$0.hasPrefix("=") }), !found.isEmpty else { return nil }
            return found
        }
        func lookUp(_ word: String) -> [String]? {
            if let found = linked(word) { return found }
            for pos in WordNet.PartOfSpeech.allCases {
                for base in WordNet.bases(of: word, pos).dropFirst() { if let found = linked(base) { return found } }
            }
            return nil
        }
        var found: [Link] = []
        var at = 0
        outer: while at < words.count {
            for length in stride(from: min(4, words.count - at), through: 2, by: -1) {
                let span = at..<(at + length)
                guard span.contains(where: { ids[$0] < 0 }) else { continue }
                let rest = words[(at + 1)..<(at + length)].joined(separator: " ")
                for first in [words[at]] + WordNet.bases(of: words[at], .verb).dropFirst() {
                    if let known = linked(first + " " + rest) {
                        found.append(Link(span: span, known: known))
                        at += length
                        continue outer
                    }
                }
            }
            if ids[at] < 0, let known = lookUp(words[at]) { found.append(Link(span: at..<(at + 1), known: known)) }
            at += 1
        }
        return found
    }

    /// How much a linked word's features count, of the word's own: the word, and the pairs it would
    /// make with its neighbours (a single unknown word's placeholder pairs count as much less).
    /// Chosen on the development sets: 0.7 and 0.5 understood 11 of 51, 1 and 1 understood 14.
    static let linkWordWeight: Float = 1
    static let linkPairWeight: Float = 1

    /// The classifier's features for `links`: each linked word as a word ("w:delete"), and the pairs
    /// it makes with the words around its span, shared among the words a link stands for. Features,
    /// not a rewrite: the sentence's words stay as said, its values too.
    func linkFeatures(_ links: [Link], words: [String], ids: [Int32]) -> [(String, Float)] {
        var named: [(String, Float)] = []
        func token(_ at: Int) -> String {
            if at < 0 { return "^" }
            if at >= ids.count { return "$" }
            return ids[at] >= 0 ? self.words[Int(ids[at])] : "*"
        }
        for link in links {
            let share = 1 / Float(link.known.count).squareRoot()
            let before = token(link.span.lowerBound - 1), after = token(link.span.upperBound)
            // A single unknown word's placeholder pairs count less by as much as its links count.
            if link.span.count == 1, ids[link.span.lowerBound] < 0 {
                named.append(("b:" + before + "|*", -Self.linkPairWeight))
                named.append(("b:*|" + after, -Self.linkPairWeight))
            }
            for word in link.known {
                named.append(("w:" + word, Self.linkWordWeight * share))
                if Self.linkPairWeight > 0 {
                    named.append(("b:" + before + "|" + word, Self.linkPairWeight * share))
                    named.append(("b:" + word + "|" + after, Self.linkPairWeight * share))
                }
            }
        }
        return named
    }

    /// The sentence's words as the classifier sees them: known ones (typos corrected) by name.
    func classifierWords(_ words: [String], ids: [Int32]) -> [LearnedClassifier.Word] {
        zip(words, ids).map { LearnedClassifier.Word(said: $0, known: $1 >= 0 ? self.words[Int($1)] : nil) }
    }

    /// `choosing`: the intent (its index in `intents`) to take instead of the classifier's first, the
    /// ranking otherwise as the classifier gives it.
    func evidence(_ words: [String], choosing: Int32? = nil) -> Evidence {
        var evidence = Evidence()
        evidence.wordCount = words.count
        guard !words.isEmpty else { return evidence }
        let (ids, corrected) = ids(words)
        let knownCount = ids.filter { $0 >= 0 }.count
        evidence.known = (Float(knownCount) - Float(corrected) / 2) / Float(words.count)
        let vector = vector(ids)
        guard !vector.isEmpty else { return evidence }
        var scores = [Float](repeating: 0, count: classIntent.count)
        var touched: [Int32] = []
        for (feature, weight) in vector {
            for posting in Int(postingStart[Int(feature)])..<Int(postingStart[Int(feature) + 1]) {
                let cls = postingClass[posting]
                if scores[Int(cls)] == 0 { touched.append(cls) }
                scores[Int(cls)] += weight * postingWeight[posting]
            }
        }
        // The classifier chooses the intent; the prototypes, which of its phrases is closest.
        evidence.links = links(words, ids: ids)
        let features = classifier.vector(
            LearnedClassifier.featureNames(classifierWords(words, ids: ids))
                + linkFeatures(evidence.links, words: words, ids: ids))
        guard !features.isEmpty else { return evidence }
        let probabilities = classifier.probabilities(features)
        var ranked = (0..<classifier.none).sorted { (probabilities[$0], $1) > (probabilities[$1], $0) }
        if let choosing, let at = ranked.firstIndex(of: Int(choosing)) { ranked.insert(ranked.remove(at: at), at: 0) }
        guard let top = ranked.first else { return evidence }
        evidence.intent = Int32(top)
        evidence.probability = probabilities[top]
        evidence.noneProbability = probabilities[classifier.none]
        evidence.ranking = ranked.prefix(3).map { (Int32($0), probabilities[$0]) }
        evidence.carried = classifier.contributions(features, cls: top)
        for cls in touched where classIntent[Int(cls)] == evidence.intent {
            let score = scores[Int(cls)]
            if evidence.best < 0 || score > evidence.bestScore || (score == evidence.bestScore && cls < evidence.best) {
                evidence.best = cls
                evidence.bestScore = score
            }
        }
        if evidence.best < 0, let first = classIntent.firstIndex(of: evidence.intent) { evidence.best = Int32(first) }
        // The runner-up is the best phrase of another intent: two phrases of one intent do not compete.
        if evidence.best >= 0 {
            let intent = classIntent[Int(evidence.best)]
            for cls in touched where classIntent[Int(cls)] != intent {
                let score = scores[Int(cls)]
                if evidence.second < 0 || score > evidence.secondScore
                    || (score == evidence.secondScore && cls < evidence.second)
                {
                    evidence.second = cls
                    evidence.secondScore = score
                }
            }
        }
        guard evidence.best >= 0 else { return evidence }
        let best = evidence.best
        evidence.classCoverage =
            Float(ids.filter { $0 >= 0 && weight(of: $0, in: best) > 0 }.count) / Float(words.count)
        var covered: Float = 0
        for id in Set(ids).sorted() where id >= 0 {
            let weight = weight(of: id, in: best)
            covered += weight * weight
        }
        evidence.recall = classWordMass[Int(best)] > 0 ? min(1, covered / classWordMass[Int(best)]) : 0
        let framed = [Self.start] + ids + [Self.end]
        var pairTotal = 0, pairHits = 0
        for i in 0..<(framed.count - 1) {
            pairTotal += 1
            if let pair = pairIDs[Self.pairKey(framed[i], framed[i + 1])], weight(of: pair, in: best) > 0 {
                pairHits += 1
            }
        }
        evidence.pairCoverage = pairTotal == 0 ? 0 : Float(pairHits) / Float(pairTotal)
        let knownOnly = [Self.start] + ids.filter { $0 >= 0 } + [Self.end]
        var knownHits = 0
        for i in 0..<(knownOnly.count - 1) {
            if let pair = pairIDs[Self.pairKey(knownOnly[i], knownOnly[i + 1])], weight(of: pair, in: best) > 0 {
                knownHits += 1
            }
        }
        evidence.knownPairCoverage = Float(knownHits) / Float(knownOnly.count - 1)
        var reversedHits = 0
        for i in 1..<max(1, knownOnly.count - 2) {
            if let pair = pairIDs[Self.pairKey(knownOnly[i + 1], knownOnly[i])], weight(of: pair, in: best) > 0 {
                reversedHits += 1
            }
        }
        evidence.reversedPairs = knownOnly.count > 3 ? Float(reversedHits) / Float(knownOnly.count - 3) : 0
        evidence.contributions = vector.map { ($0.feature, $0.weight * weight(of: $0.feature, in: best)) }
            .filter { $0.weight > 0 }
            .sorted { ($0.weight, -$0.feature) > ($1.weight, -$1.feature) }
        return evidence
    }

    /// The classifier's calibrated probability of its intent.
    func confidence(_ evidence: Evidence) -> Double {
        evidence.best >= 0 ? evidence.probability : 0
    }

    /// The articles, possessives and prepositions the class's phrase has, heaviest first: words a
    /// person leaves out without changing what is meant (no verbs, not even "do").
    func functionWords(of cls: Int32) -> [Int32] {
        (0..<Int32(words.count)).filter {
            LearnedWords.droppable.contains(words[Int($0)]) && weight(of: $0, in: cls) > 0
        }
        .sorted { (weight(of: $0, in: cls), -$0) > (weight(of: $1, in: cls), -$1) }
    }

    /// From this many phrase templates on, an intent's word order is the classifier's to judge, as
    /// an intent's known only from `training:` sentences is. (SNIPS's intents, converted, have 10
    /// phrases each and ~1,770 `training:` sentences, which the word-order checks never read.)
    static let orderJudgedFrom = 100

    /// The phrase templates of `cls`'s intent (its `training:` sentences left out): what word order
    /// is checked against. An intent known only from sentences people said (CLINC150's) has none, and
    /// its word order is the classifier's to judge, which learnt reversed sentences as none's: over
    /// a hundred such sentences some word ends one and starts none, and 117 of CLINC's right guesses
    /// (2.6 points) were taken for said backwards.
    func phraseClasses(of cls: Int32) -> [Int32] {
        let intent = classIntent[Int(cls)]
        return classIntent.indices.filter { classIntent[$0] == intent && classIsPhrase[$0] }.map(Int32.init)
    }

    /// Whether more of a sentence's word order stands the other way round in the phrases of `cls`'s
    /// intent than in their order ("career for fortune" for "my fortune for today"): word order the
    /// classifier's words alone cannot see. Each pair of neighbouring known words counts one way or
    /// the other; so does each edge, but only the other way round: a first word some phrase ends
    /// with and no phrase or `training:` sentence of the intent starts with, a last word some phrase
    /// starts with and none of them ends with (a sentence people said that starts with "block" says a
    /// request may: "block 45 minutes for reading", as "block out time to focus on …"). An edge
    /// alone is no proof: "compatibility between gemini and virgo" starts with the word "{yourSign}
    /// and {theirSign} compatibility" ends with, and goes on as "check the compatibility between …"
    /// does (one against one: in order). Where nothing else says anything, the edge decides
    /// ("fence garden capture"). An edge in its place vouches for nothing ("virgo and gemini between
    /// compatibility" ends as a phrase does, with "between compatibility" the other way round).
    /// Words next to each other across a value (`valueMarker`) are not neighbours: "sagittarius
    /// with leo, compatible?" has "with" and "compatible" apart.
    func readsBackwards(_ ids: [Int32], cls: Int32) -> Bool {
        guard ids.count >= 2, let first = ids.first, let last = ids.last else { return false }
        let classes = phraseClasses(of: cls)
        guard !classes.isEmpty else { return false }
        func anyHas(_ a: Int32, _ b: Int32) -> Bool {
            guard let pair = pairIDs[Self.pairKey(a, b)] else { return false }
            return classes.contains { weight(of: pair, in: $0) > 0 }
        }
        // Whether a phrase or a `training:` sentence of the intent has the pair: a sentence people
        // said that starts or ends with the word says it may start or end one.
        let intent = classIntent[Int(cls)]
        func anySentenceHas(_ a: Int32, _ b: Int32) -> Bool {
            guard let pair = pairIDs[Self.pairKey(a, b)] else { return false }
            return (Int(postingStart[Int(pair)])..<Int(postingStart[Int(pair) + 1])).contains {
                classIntent[Int(postingClass[$0])] == intent
            }
        }
        var forward = 0, backward = 0
        if first >= 0, anyHas(first, Self.end), !anySentenceHas(Self.start, first) { backward += 1 }
        if last >= 0, anyHas(Self.start, last), !anySentenceHas(last, Self.end) { backward += 1 }
        let known = ids.filter { $0 >= 0 || $0 == Self.valueMarker }
        for (a, b) in zip(known, known.dropFirst()) where a != b && a >= 0 && b >= 0 {
            if anyHas(a, b) { forward += 1 } else if anyHas(b, a) { backward += 1 }
        }
        return backward > forward
    }

    /// In a sentence's word ids for the word-order checks: a value of the intent's, no word of its
    /// wording.
    static let valueMarker: Int32 = -2

    /// The class's heaviest word that is not a function word: what its phrase is about.
    func tellingWord(of cls: Int32) -> Int32? {
        var best: (weight: Float, id: Int32)?
        for id in 0..<Int32(words.count) where !isFunctionWord[Int(id)] {
            let weight = weight(of: id, in: cls)
            if weight > 0, best == nil || weight > best!.weight { best = (weight, id) }
        }
        return best?.id
    }

    /// A feature as words: "radar", "create radar", "⟨start⟩ track", "about …" (… an unknown word).
    func describe(_ feature: Int32) -> String {
        func word(_ id: Int32) -> String {
            switch id {
            case Self.unknown: "…"
            case Self.start: "⟨start⟩"
            case Self.end: "⟨end⟩"
            default: words[Int(id)]
            }
        }
        if feature < words.count { return words[Int(feature)] }
        let key = pairs[Int(feature) - words.count]
        return word(Int32(bitPattern: UInt32(key >> 32))) + " " + word(Int32(bitPattern: UInt32(key & 0xFFFF_FFFF)))
    }
}
