import Foundation
import IntentLanguage
import IntentModel
import TestSupport
import Testing

@testable import PhraseMatching

@Suite("The intent classifier: probabilities, a none class, words over a sentence's shape, WordNet")
struct LearnedClassifierTests {
    /// An app whose author wrote a catch-all question template and, for the weather, example
    /// sentences: the exact matcher reads any "what is …" as the question.
    static let assistant = """
        app: Assistant
        intents:
          Define:
            parameters: { thing: string }
            phrases: ["what is {thing}"]
            result: { dialog: "${thing}" }
          Weather:
            parameters: { place: { type: string, optional: true } }
            phrases: ["weather in {place}"]
            training:
              - "what's the weather like in [paris](place)"
              - "what will the weather be in [tokyo](place) tomorrow"
              - "is the weather going to be nice in [rome](place)"
              - "what is the weather going to be in [berlin](place)"
              - "how is the weather in [madrid](place) today"
              - "tell me the weather for [oslo](place)"
              - "weather forecast for [lisbon](place)"
              - "what's the forecast in [vienna](place)"
            result: { dialog: "sunny" }
        """

    static let stage: LearnedStage = {
        let graph = IntentCompiler.compile(files: [("Intents/a/app.yaml", Array(assistant.utf8))], root: "Intents")
            .graph!
        return LearnedStage(index: PhraseIndex(graph: graph), training: LearnedStage.trainingSentences(of: graph))
    }()
    static var matcher: Matcher { Matcher(index: stage.index, clock: Bundled.clock) }

    /// Before, a marked value was the rarest word of its sentence, so "weather forecast for <an
    /// everyday word>" was taught as none's: the intent's own wording, and more of it with every example.
    @Test("A training sentence's marked value is never the word replaced to make the none class's sentences")
    func trainingValuesStayInNegatives() throws {
        let stage = Self.stage
        let weather = try #require(stage.index.graph.apps.first?.intents.first { $0.name.name == "Weather" })
        let marked = try #require(weather.trainingSentences.first { $0.text.contains("lisbon") })
        let example = LearnedTrainer.trainingExample(marked.text, marked: marked, intent: weather, cls: 0)
        #expect(example.words.contains("lisbon"))
        let samples = LearnedTrainer.classifierSamples(stage.model, examples: [example], seed: 1)
        let none = stage.model.intents.count
        let substituted = samples.filter {
            $0.label == none && $0.group == 0 && $0.words.map(\.said) != Array(example.words.reversed())
        }
        #expect(substituted.count == 1)
        for sample in substituted {
            #expect(sample.words.map(\.said).contains("lisbon"), "\(sample.words.map(\.said))")
            #expect(sample.words.map(\.said) != example.words)
        }
    }

    @Test("A reading mostly of free text gives way to the intent the words say")
    func wordsOverShape() throws {
        let text = "what is the weather going to be like in utah"
        guard case .match(let candidate) = Self.matcher.recognize(text).outcome else {
            Issue.record("the exact matcher should read it as Define")
            return
        }
        #expect(candidate.intent.name == "Define")
        let guess = try #require(Self.stage.review(candidate, text: text, matcher: Self.matcher))
        #expect(guess.candidate.intent.name == "Weather")
        #expect(guess.decision == .act)
    }

    @Test("A definition question the classifier does not doubt is left to the exact matcher")
    func shapeKeptWhenWordsAgree() throws {
        let text = "what is a quasar"
        guard case .match(let candidate) = Self.matcher.recognize(text).outcome else {
            Issue.record("the exact matcher should read it as Define")
            return
        }
        #expect(Self.stage.review(candidate, text: text, matcher: Self.matcher) == nil)
    }

    @Test("The guess ranks intents by probability and says what carried it")
    func explains() throws {
        let guess = try #require(
            LearnedStageTests.stage.guess("show me what i should work on", matcher: Bundled.matcher))
        #expect(guess.ranking.count >= 2)
        #expect(guess.ranking.first?.intent == guess.candidate.intent)
        #expect(zip(guess.ranking, guess.ranking.dropFirst()).allSatisfy { $0.probability >= $1.probability })
        let total = guess.ranking.reduce(0) { $0 + $1.probability } + guess.noneProbability
        #expect(total <= 1.000_1)
        #expect(
            abs(guess.confidence - guess.ranking[0].probability) < 1e-9 || guess.alignedLeavingOut != nil
                || guess.alignedAdding != nil)
        #expect(guess.reason.contains("none of them"))
        #expect(!guess.carriedBy.isEmpty)
    }

    @Test(
        "Sentences nobody would say to these apps are none's",
        arguments: ["the cat sat on the mat", "why is the sky blue", "my brother likes football"])
    func none(_ sentence: String) {
        let guess = LearnedStageTests.stage.guess(sentence, matcher: Bundled.matcher)
        #expect((guess?.decision ?? LearnedGuess.Decision.none) == LearnedGuess.Decision.none, "“\(sentence)”")
    }

    @Test("Character n-grams keep most of a misspelt word")
    func characterGrams() {
        let right = Set(LearnedClassifier.characterGrams("horoscope"))
        let typo = Set(LearnedClassifier.characterGrams("horoscpoe"))
        #expect(right.intersection(typo).count * 2 > right.count)
        #expect(LearnedClassifier.characterGrams("a").isEmpty)
    }

    @Test("Training sees each sentence's features as a person's sentence is read: the same names and values")
    func trainingFeatures() {
        typealias Word = LearnedClassifier.Word
        let related: (String) -> [String] = { $0 == "track" || $0 == "monitor" ? ["observe.v.01", "follow.v.02"] : [] }
        let sentences: [[Word]] = [
            [
                Word(said: "track", known: "track"), Word(said: "quantum", known: nil, free: true),
                Word(said: "in", known: "in"), Word(said: "radar", known: "radar"),
            ],
            // A typo read as its known word, a word nobody wrote, the same words again.
            [
                Word(said: "trakc", known: "track"), Word(said: "please", known: nil),
                Word(said: "radar", known: "radar"),
                Word(said: "radar", known: "radar"),
            ],
            [Word(said: "monitor", known: nil), Word(said: "x", known: "x")],
            [],
        ]
        var interner = LearnedClassifier.FeatureInterner()
        for words in sentences + sentences.reversed() {
            let ids = interner.features(words, related: related)
            let expected = LearnedClassifier.featureNames(words, related: related)
            #expect(ids.map { interner.names[Int($0.0)] } == expected.map(\.0))
            #expect(ids.map(\.1) == expected.map(\.1))
        }
        #expect(Set(interner.names).count == interner.names.count)
    }

    @Test("A cache of the first format is retrained, not read")
    func formatVersion() {
        #expect(LearnedModel.formatVersion >= 2)
    }

    @Test(
        "WordNet links a word the author never wrote to one they did",
        .enabled(if: WordNet() != nil, "WordNet (Debian wordnet-base) is not installed"))
    func wordNet() throws {
        let wordNet = try #require(WordNet())
        #expect(!Set(wordNet.synsets(of: "finish")).isDisjoint(with: wordNet.synsets(of: "complete")))
        let lexicon = wordNet.lexicon(["delete", "watch", "show", "write", "task"])
        // Synonyms of a common sense, a phrase WordNet has, an irregular form (the same word).
        #expect(lexicon["erase"]?.contains("delete") == true)
        #expect(lexicon["keep an eye on"]?.contains("watch") == true)
        #expect(lexicon["display"]?.contains("show") == true)
        #expect(lexicon["wrote"] == ["=write"])
        // A rare use is not linked ("task" is a verb only in untagged senses, one of them "to tax"),
        // nor are everyday verbs ("have" is not "hold").
        #expect(lexicon["taxes"] == nil && lexicon["tax"] == nil)
        #expect(lexicon["have"] == nil)
        // An inflected verb is read as its base form (the noun "tracking" is a word of its own).
        #expect(wordNet.synsets(of: "tracking").prefix(3) == wordNet.synsets(of: "track").prefix(3))
    }

    @Test("Without WordNet the model knows no synonyms, and says so")
    func withoutWordNet() {
        #expect(WordNet(directory: "/nonexistent") == nil)
        let model = LearnedModel(
            intents: [], classIntent: [], classTemplate: [], words: [], pairs: [], idf: [], postingStart: [0],
            postingClass: [], postingWeight: [], classifier: .empty)
        #expect(!model.usesWordNet)
        #expect(model.links(["monitor"], ids: [LearnedModel.unknown]).isEmpty)
    }

    @Test("Beyond the classes every step updates, the fit learns what a plain table of rows learns, bit for bit")
    func sampledFitAsPlainTable() {
        // Sentences of 12 features or fewer out of 60, 230 classes (none last), 12 candidates each
        // with their own class and none; every tenth held out; a pass's order by a seeded shuffle.
        let classes = 230, features = 60, passes = 3
        var random = SeededGenerator(seed: 20)
        var vectors: [[(feature: Int32, value: Float)]] = []
        var samples: [LearnedClassifier.Sample] = []
        var candidates = LearnedClassifier.Candidates()
        for index in 0..<400 {
            let label = random.below(classes)
            let chosen = Set((0..<(1 + random.below(12))).map { _ in Int32(random.below(features)) }).sorted()
            vectors.append(chosen.map { ($0, Float(1 + random.below(9)) / 10) })
            samples.append(.init(words: [], label: label, weight: random.chance(1, in: 3) ? 0.5 : 1, group: index))
            let among = Set((0..<10).map { _ in random.below(classes) } + [label, classes - 1]).sorted()
            candidates.classes += among.map(Int32.init)
            candidates.start.append(candidates.classes.count)
        }
        vectors[7] = []
        let heldOut = samples.indices.map { $0 % 10 == 9 }
        func order(_ pass: Int) -> [Int] {
            var shuffled = SeededGenerator(seed: UInt64(pass))
            return samples.indices.map { ($0, shuffled.next()) }.sorted { $0.1 < $1.1 }.map(\.0)
        }
        let fitted = LearnedClassifier.sampledFit(
            vectors, samples: samples, candidates: candidates, classes: classes, features: features, passes: passes,
            excluding: heldOut, order: order)

        // The same averaged SGD, written plainly: a weight and its averaging sum per feature and class.
        var weights = [Float](repeating: 0, count: features * classes), sums = weights
        var bias = [Float](repeating: 0, count: classes), biasSums = bias
        var steps: Float = 1
        for epoch in 0..<passes {
            let rate = LearnedClassifier.learningRate * Float(passes - epoch) / Float(passes)
            for index in order(epoch) where !heldOut[index] && !vectors[index].isEmpty {
                let among = candidates.classes[candidates.start[index]..<candidates.start[index + 1]].map(Int.init)
                var scores = among.map { bias[$0] }
                for (feature, value) in vectors[index] {
                    for i in among.indices { scores[i] += value * weights[Int(feature) * classes + among[i]] }
                }
                let top = scores.max()!
                var sum: Float = 0
                for i in among.indices {
                    scores[i] = exp(scores[i] - top)
                    sum += scores[i]
                }
                var changes: [(Int, Float)] = []
                for (i, k) in among.enumerated() {
                    var gradient = scores[i] / sum
                    if k == samples[index].label { gradient -= 1 }
                    guard abs(gradient) > 1e-4 else { continue }
                    let change = gradient * rate * samples[index].weight
                    bias[k] -= change
                    biasSums[k] -= steps * change
                    changes.append((k, change))
                }
                for (feature, value) in vectors[index] {
                    for (k, change) in changes {
                        weights[Int(feature) * classes + k] -= value * change
                        sums[Int(feature) * classes + k] -= steps * (value * change)
                    }
                }
                steps += 1
            }
        }
        for k in bias.indices { bias[k] -= biasSums[k] / steps }
        var rowStart: [Int32] = [0], rowClass: [Int32] = [], rowWeight: [Float] = []
        for feature in 0..<features {
            for k in 0..<classes {
                let weight = weights[feature * classes + k] - sums[feature * classes + k] / steps
                if abs(weight) >= LearnedClassifier.pruneBelow {
                    rowClass.append(Int32(k))
                    rowWeight.append(weight)
                }
            }
            rowStart.append(Int32(rowClass.count))
        }
        #expect(rowClass.count > 500)
        #expect(fitted.rowStart == rowStart)
        #expect(fitted.rowClass == rowClass)
        #expect(fitted.rowWeight.map(\.bitPattern) == rowWeight.map(\.bitPattern))
        #expect(fitted.bias.map(\.bitPattern) == bias.map(\.bitPattern))
    }

    @Test("The temperature fitted gives the held-out sentences the most likelihood")
    func temperature() {
        // Scores of held-out sentences, some right and sure, some wrong: neither the raw scores
        // (temperature 1) nor a guess on a grid is the best calibration, the fitted one is.
        var random = SeededGenerator(seed: 3)
        let held: [(scores: [Float], label: Int)] = (0..<400).map { n in
            let scores = (0..<6).map { _ in Float(random.below(1_000)) / 100 }
            let best = scores.indices.max { scores[$0] < scores[$1] }!
            return (scores, n % 3 == 0 ? (best + 1) % 6 : best)
        }
        func loss(_ temperature: Float) -> Double {
            held.reduce(0) {
                $0 - log(LearnedClassifier.probability(of: $1.label, $1.scores, temperature: temperature))
            }
        }
        let fitted = LearnedClassifier.fittedTemperature(held)
        #expect(fitted > 0.2 && fitted < 8)
        for other: Float in [0.25, 0.5, 1, 1.5, 2, 3, 4, 6, fitted * 0.95, fitted * 1.05] {
            #expect(loss(fitted) <= loss(other) + 1e-6, "temperature \(other)")
        }
    }

    @Test("The temperature and none's shift fitted give held-out sentences, none's among them, the most likelihood")
    func calibrationWithNone() {
        // Five intents and none (the last class). A third of the held-out sentences are none's, but
        // their scores favour an intent: a temperature alone cannot say so, the shift of none can.
        var random = SeededGenerator(seed: 5)
        let held: [(scores: [Float], label: Int)] = (0..<600).map { n in
            var scores = (0..<6).map { _ in Float(random.below(1_000)) / 200 }
            let best = scores.indices.max { scores[$0] < scores[$1] }!
            if n % 3 == 0 {
                scores[5] = scores[best] - 1
                return (scores, 5)
            }
            return (scores, best)
        }
        func loss(_ temperature: Float, _ shift: Float) -> Double {
            held.reduce(0) { total, sentence in
                var scores = sentence.scores
                scores[5] += shift * temperature
                return total - log(LearnedClassifier.probability(of: sentence.label, scores, temperature: temperature))
            }
        }
        let (temperature, shift) = LearnedClassifier.fittedCalibration(held, none: 5)
        #expect(shift > 0)
        #expect(loss(temperature, shift) < loss(LearnedClassifier.fittedTemperature(held), 0))
        for (t, c): (Float, Float) in [(0.9, 1), (1.1, 1), (1, 0.9), (1, 1.1), (0.95, 1.05), (1.05, 0.95)] {
            #expect(loss(temperature, shift) <= loss(temperature * t, shift * c) + 1e-6, "\(t) \(c)")
        }
        #expect(LearnedClassifier.fittedCalibration([], none: 5) == (1, 0))
    }

    @Test("A word every sentence has counts less than the word that tells an intent apart")
    func inverseDocumentFrequency() throws {
        let classifier = LearnedStageTests.stage.model.classifier
        func scale(_ feature: String) throws -> Float {
            classifier.scale[Int(try #require(classifier.featureIDs[feature], "\(feature)"))]
        }
        #expect(try scale("w:my") < scale("w:horoscope"))
    }

    /// Intents known only from sentences people said, in the word orders people use.
    static let said = """
        app: Helper
        intents:
          Forecast:
            training:
              - "will it rain tomorrow"
              - "is it going to rain tomorrow"
              - "do i need an umbrella tomorrow"
              - "what is the forecast for tomorrow"
              - "will it be sunny tomorrow"
              - "how much rain is expected tomorrow"
              - "is rain likely tomorrow"
            result: { dialog: "rain" }
          Alarm:
            training:
              - "wake me up at seven"
              - "set an alarm for six"
              - "set an alarm for the morning"
              - "i need an alarm at eight"
              - "wake me at five"
              - "an alarm at nine please"
            result: { dialog: "set" }
        """

    @Test("A sentence in an order the training sentences do not use is not taken for one said backwards")
    func trainingSentencesHaveNoBackwards() throws {
        let graph = IntentCompiler.compile(files: [("Intents/h/app.yaml", Array(Self.said.utf8))], root: "Intents")
            .graph!
        let stage = LearnedStage(
            index: PhraseIndex(graph: graph), thresholds: ["Helper": LearnedThresholds(act: 0.05, ask: 0.02)],
            training: LearnedStage.trainingSentences(of: graph))
        let matcher = Matcher(index: stage.index, clock: Bundled.clock)
        // "tomorrow" ends Forecast's sentences and starts none of them: no phrase was said backwards.
        let guess = try #require(stage.guess("tomorrow will it rain", matcher: matcher))
        #expect(guess.candidate.intent.name == "Forecast")
        #expect(guess.demotedBecause == nil)
        #expect(guess.decision == .act, "confidence \(guess.confidence)")
    }

    /// The same intents written as phrase templates, as SNIPS's are: a hundred for the forecast.
    static var phrased: String {
        let weather = [
            "rain", "snow", "hail", "sleet", "storm", "thunder", "fog", "frost", "wind", "drizzle", "sun", "heat",
            "cold", "ice", "mist", "lightning", "showers", "clouds", "gusts", "haze", "smog", "dew", "flooding",
            "humidity", "pollen",
        ]
        let forms = [
            "will there be %@ tomorrow", "is there going to be %@ tomorrow", "how much %@ is expected tomorrow",
            "is %@ likely tomorrow",
        ]
        let phrases = forms.flatMap { form in
            weather.map { "\"" + form.replacingOccurrences(of: "%@", with: $0) + "\"" }
        }
        return """
            app: Helper
            intents:
              Forecast:
                phrases: [\(phrases.joined(separator: ", "))]
                result: { dialog: "rain" }
              Alarm:
                phrases: ["wake me up at seven", "set an alarm for six", "i need an alarm at eight"]
                result: { dialog: "set" }
            """
    }

    @Test("An intent of a hundred phrase templates has its word order judged by the classifier, not its phrases'")
    func manyPhrasesHaveNoBackwards() throws {
        let graph = try #require(
            IntentCompiler.compile(files: [("Intents/h/app.yaml", Array(Self.phrased.utf8))], root: "Intents").graph)
        let stage = LearnedStage(
            index: PhraseIndex(graph: graph), thresholds: ["Helper": LearnedThresholds(act: 0.05, ask: 0.02)],
            training: LearnedStage.trainingSentences(of: graph))
        let matcher = Matcher(index: stage.index, clock: Bundled.clock)
        // "tomorrow" ends every forecast phrase and starts none: with a hundred phrases, no sign that
        // one was said backwards.
        let guess = try #require(stage.guess("tomorrow will there be rain", matcher: matcher))
        #expect(guess.candidate.intent.name == "Forecast")
        #expect(guess.demotedBecause == nil)
        #expect(guess.decision == .act, "confidence \(guess.confidence)")
    }
}
