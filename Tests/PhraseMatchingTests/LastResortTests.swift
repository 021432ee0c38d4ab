import IntentLanguage
import IntentModel
import TestSupport
import Testing

@testable import PhraseMatching

/// Sentences a person says with a word too many, a small word left out, in the wrong order or meant
/// for another app: read as the phrase when the phrase's own words say so, never acted on when they
/// do not.
@Suite("The last resort: one word off, one small word left out, modifiers, backwards and catch-all readings")
struct LastResortTests {
    static let radar = QualifiedName(app: "Radar", name: "Radar")
    static let task = QualifiedName(app: "FocusBlox", name: "Task")

    /// The bundled phrases, with the store's names: radars "chess" and "old photos", the task "blue harbor".
    static let named: Matcher = {
        var names = EntityNameIndex()
        names.add(["chess", "old photos"], for: radar)
        names.add(["blue harbor"], for: task)
        return Matcher(index: Bundled.matcher.index, entities: names, clock: Bundled.clock)
    }()

    static func match(_ matcher: Matcher, _ sentence: String) -> Candidate? {
        if case .match(let candidate) = matcher.recognize(sentence).outcome { return candidate }
        return nil
    }

    @Test(
        "A small word the sentence left out is read as said",
        arguments: [
            ("refresh radars", "Radar.RefreshAllRadars", [:], false),
            ("renew topics", "Radar.RefreshAllRadars", [:], false),
            // FocusBlox also says "delete {task}" bare: only the store's names tell "blue harbor from
            // todos" or "the radar old photos" from a task's name.
            ("remove blue harbor from todos", "FocusBlox.DeleteTask", ["task": "blue harbor"], true),
            ("delete the radar old photos", "Radar.DeleteRadar", ["radar": "old photos"], true),
            ("test compatibility leo and libra", "Fortune.CheckCompatibility", [:], false),
        ] as [(String, String, [String: String], Bool)])
    func smallWordLeftOut(_ sentence: String, _ intent: String, _ values: [String: String], namesOnly: Bool) throws {
        for matcher in namesOnly ? [Self.named] : [Bundled.matcher, Self.named] {
            let best = try #require(Self.match(matcher, sentence), "\(sentence)")
            #expect(best.intent.description == intent, "\(sentence)")
            #expect(best.score.missing == 1, "\(sentence)")
            for (name, text) in values {
                #expect(best.values[name]?.description.lowercased() == text, "\(sentence): \(name)")
            }
        }
    }

    @Test("A word that says what is done or to what is never taken as left out")
    func contentWordsAreNeverLeftOut() {
        // "take a note …" has "note": a photo is no note.
        for sentence in ["take a photo", "take a screenshot", "stop the music"] {
            if let best = Self.match(Bundled.matcher, sentence) {
                Issue.record("“\(sentence)” read as \(best.intent) (\(best.template))")
            }
        }
    }

    @Test("An entity slot whose words name nothing loses to a reading of more template words")
    func entitySlotNamingNothingLoses() throws {
        for matcher in [Bundled.matcher, Self.named] {
            // One word passed over: not a radar called "every pencil of radars".
            let pencil = try #require(Self.match(matcher, "renew every pencil of radars"))
            #expect(pencil.intent.description == "Radar.RefreshAllRadars")
            #expect(pencil.score.unknown == 1)
            // The reading that left a word out comes first, and explain shows why.
            let recognition = matcher.recognize("refresh radars")
            #expect(recognition.candidates.first?.intent.description == "Radar.RefreshAllRadars")
            #expect(recognition.candidates.first?.score.description.contains("missing 1") == true)
        }
        // A radar that exists is the radar, not all of them.
        let chess = try #require(Self.match(Self.named, "refresh my chess radar"))
        #expect(chess.intent.description == "Radar.RefreshRadar")
        #expect(chess.values["radar"] == .string("chess"))
        // One that does not is still asked about ("which radar?"), not read as "refresh my radars"
        // with "tennis" passed over: that reading has no more of the phrase's words.
        let tennis = try #require(Self.match(Self.named, "refresh my tennis radar"))
        #expect(tennis.intent.description == "Radar.RefreshRadar")
        #expect(tennis.slots.first?.unknownName == true)
    }

    @Test("A word between a determiner and the sentence's last word is what the sentence is about")
    func modifierOfTheLastWordIsNeverPassedOver() throws {
        let stage = LearnedStage(index: Bundled.matcher.index)
        for sentence in ["add milk to my shopping list", "what's on my shopping list"] {
            if let best = Self.match(Bundled.matcher, sentence) {
                Issue.record("“\(sentence)” read as \(best.intent) (\(best.template))")
            }
            let decision = stage.guess(sentence, matcher: Bundled.matcher)?.decision ?? LearnedGuess.Decision.none
            #expect(decision != .act, "“\(sentence)”")
        }
        // Inside the sentence an extra word is still passed over.
        let fortune = try #require(Self.match(Bundled.matcher, "what's my fortune today in fortune"))
        #expect(fortune.intent.description == "Fortune.GetDailyFortune")
        let task = try #require(Self.match(Bundled.matcher, "add buy milk to my tasks"))
        #expect(task.values["title"] == .string("buy milk"))
    }

    @Test(
        "One template word and free text is in doubt when it starts “my” or holds the intent's own words",
        arguments: [
            ("track electric cars", false), ("complete buy milk", false), ("note garden fence", false),
            ("follow the olympics", false), ("capture call the bank", false), ("track my package", true),
            ("complete as chess mark", true),
        ])
    func catchAllReadingsInDoubtAreReviewed(_ sentence: String, _ asks: Bool) throws {
        let stage = LearnedStage(index: Bundled.matcher.index)
        let best = try #require(Self.match(Bundled.matcher, sentence))
        #expect(stage.isInDoubt(best) == asks, "“\(sentence)”")
        let review = stage.review(best, text: sentence, matcher: Bundled.matcher)
        #expect((review != nil) == asks, "“\(sentence)”")
        #expect(review.map { $0.decision == .ask } ?? true)
    }

    @Test("A slot not said is not asked for after free text that took the word introducing it")
    func slotUnsaidAfterFreeTextTakingItsWord() throws {
        // "to" introduces the urgency in "(mark|set|make|flag) [the] [task] {task} [as|to] {urgency}".
        for matcher in [Bundled.matcher, Self.named] {
            #expect(Self.match(matcher, "set the thermostat to 68 degrees") == nil)
            #expect(Self.match(matcher, "make the music to my liking") == nil)
        }
        // With names known, a name no task has is no task whose urgency to ask for.
        #expect(Self.match(Self.named, "set the alarm for seven") == nil)
        // What the pass is for.
        let named = try #require(Self.match(Self.named, "mark the task blue harbor"))
        #expect(named.intent.description == "FocusBlox.SetTaskUrgency")
        #expect(named.score.unsaid == 1)
        #expect(Self.match(Self.named, "add a task")?.intent.description == "FocusBlox.CreateTask")
    }

    @Test("A word passed over as one too many is never one of the phrase's own, out of its place")
    func passedOverWordIsNoTemplateWord() throws {
        for matcher in [Bundled.matcher, Self.named] {
            #expect(Self.match(matcher, "list next my me tasks") == nil)
            // In its place it is read.
            #expect(Self.match(matcher, "list me my next tasks")?.intent.description == "FocusBlox.GetNextUp")
        }
    }

    @Test("A sentence said backwards is never acted on by the learned stage")
    func backwardsNeverActs() throws {
        let stage = LearnedStage(index: Bundled.matcher.index)
        let guess = try #require(stage.guess("compatibility libra and capricorn", matcher: Bundled.matcher))
        #expect(guess.candidate.intent.description == "Fortune.CheckCompatibility")
        #expect(guess.decision != .act)
        // Forwards it is a phrase.
        #expect(Self.match(Bundled.matcher, "capricorn and libra compatibility") != nil)
    }

    @Test(
        "A guess carried by a verb alone, its values words no phrase has, is no match",
        arguments: [
            "open settings", "open youtube", "what's your name", "start a workout", "show me the premier league table",
        ])
    func verbAloneIsNoMatch(_ sentence: String) {
        let stage = LearnedStage(index: Bundled.matcher.index)
        #expect(Self.match(Bundled.matcher, sentence) == nil)
        let decision = stage.guess(sentence, matcher: Bundled.matcher)?.decision ?? LearnedGuess.Decision.none
        #expect(decision == LearnedGuess.Decision.none, "“\(sentence)”")
    }

    /// The 1,000-intent load acted on "start a workout" as "(pin|star) [a] workout (called|named)
    /// {title}": "star" from a typo, the optional title not said. A reading with a slot not said and
    /// a typo besides stays only when it asks for a required value.
    @Test("A slot not said and a typo besides: asked for when required, never acted on when optional")
    func slotUnsaidWithATypo() throws {
        let graph = try #require(
            IntentCompiler.compile(
                files: [
                    (
                        "Intents/a/app.yaml",
                        Array(
                            """
                            app: Gym
                            intents:
                              PinWorkout:
                                parameters: { title: { type: string, optional: true } }
                                phrases: ["(pin|star) [the|a] workout (called|named) {title}"]
                                result: { dialog: "pinned" }
                              AddSession:
                                parameters: { title: string }
                                phrases: ["record a session (called|named) {title}"]
                                result: { dialog: "logged" }
                            """.utf8)
                    )
                ], root: "Intents"
            ).graph)
        let matcher = Matcher(index: PhraseIndex(graph: graph), clock: Bundled.clock)
        #expect(Self.match(matcher, "start a workout") == nil)
        #expect(Self.match(matcher, "star a workout")?.intent.description == "Gym.PinWorkout")
        #expect(Self.match(matcher, "record a sesion")?.intent.description == "Gym.AddSession")
    }
}
