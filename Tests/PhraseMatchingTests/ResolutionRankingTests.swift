import IntentLanguage
import IntentModel
import TestSupport
import Testing

@testable import PhraseMatching

/// Readings whose values resolve beat readings that matched more template words; typos are looked
/// for even when a free-text template takes the whole sentence; one word too many does not break a
/// phrase.
struct ResolutionRankingTests {
    static let home = """
        app: Home
        enums:
          Cover:
            cases:
              window: { title: Window, synonyms: [windows] }
              garage_door: Garage door
        entities:
          Area: { properties: { name: string }, matchBy: [name] }
          Device: { properties: { name: string }, matchBy: [name] }
          Scene: { properties: { name: string }, matchBy: [name] }
        intents:
          TurnOffArea:
            parameters: { area: Area }
            phrases: ["turn off [the] {area} (light|lights)"]
            result: { dialog: "off ${area}" }
          TurnOffDevice:
            parameters: { name: Device }
            phrases: ["turn off [the] {name}"]
            result: { dialog: "off ${name}" }
          TurnOnArea:
            parameters: { area: Area }
            phrases: ["turn on the lights in [the] {area}"]
            result: { dialog: "on ${area}" }
          ActivateScene:
            parameters: { scene: Scene }
            phrases: ["turn on {scene}", "activate {scene}"]
            result: { dialog: "on ${scene}" }
          OpenCover:
            parameters: { cover: Cover }
            phrases: ["open [the] {cover}"]
            result: { dialog: "open ${cover}" }
          Launch:
            parameters: { thing: string }
            phrases: ["open {thing}"]
            result: { dialog: "launch ${thing}" }
          SetTimer:
            parameters: { minutes: integer }
            phrases: ["can you set a timer for {minutes} minutes [please]"]
            result: { dialog: "timer ${minutes}" }
        """

    static func graph(_ yaml: String) throws -> IntentGraph {
        try #require(
            IntentCompiler.compile(files: [("Intents/home/app.yaml", Array(yaml.utf8))], root: "Intents").graph)
    }

    static func matcher(names: Bool) throws -> Matcher {
        let index = PhraseIndex(graph: try graph(home))
        guard names else { return Matcher(index: index, clock: Bundled.clock) }
        var known = EntityNameIndex()
        known.add(["Kitchen", "Living Room"], for: QualifiedName(app: "Home", name: "Area"))
        known.add(["Overhead Light", "Fan"], for: QualifiedName(app: "Home", name: "Device"))
        known.add(["Movie Night"], for: QualifiedName(app: "Home", name: "Scene"))
        return Matcher(index: index, entities: known, clock: Bundled.clock)
    }

    static func match(_ matcher: Matcher, _ sentence: String) -> Candidate? {
        if case .match(let candidate) = matcher.recognize(sentence).outcome { return candidate }
        return nil
    }

    @Test func anEntityThatResolvesBeatsMoreTemplateWords() throws {
        let recognition = try Self.matcher(names: true).recognize("turn off Overhead Light")
        guard case .match(let best) = recognition.outcome else {
            Issue.record("expected a match, got \(recognition.outcome)")
            return
        }
        #expect(best.intent.name == "TurnOffDevice")
        #expect(best.values["name"] == .string("Overhead Light"))
        // The area reading matched more words ("light") but names no area: it comes later, and why.
        let area = try #require(recognition.candidates.first { $0.intent.name == "TurnOffArea" })
        #expect(area.score.unresolved == 1)
        #expect(area.score.literalWords > best.score.literalWords)
        #expect(area.score.decidingPart(against: best.score) == "unresolved")
    }

    @Test func anUnresolvedEntityIsTheLastResortThatAsks() throws {
        let matcher = try Self.matcher(names: true)
        // No area and no device is called "bedroom": the reading with more template words asks.
        let bedroom = try #require(Self.match(matcher, "turn off the bedroom light"))
        #expect(bedroom.intent.name == "TurnOffArea")
        #expect(bedroom.slots.first?.unknownName == true)
        // An area that exists still reads as the area.
        let kitchen = try #require(Self.match(matcher, "turn off the kitchen light"))
        #expect(kitchen.intent.name == "TurnOffArea")
        #expect(kitchen.values["area"] == .string("Kitchen"))
    }

    /// A name whose last record went (deleted or renamed) is not found through a typo either, and
    /// one added again is.
    @Test func aRemovedNameIsNoTypoTargetAndComesBackWhenAdded() throws {
        let index = PhraseIndex(graph: try Self.graph(Self.home))
        let device = QualifiedName(app: "Home", name: "Device")
        var known = EntityNameIndex()
        known.add(["Overhead Light", "Fan"], for: device)
        func named(_ sentence: String) -> Value? {
            Self.match(Matcher(index: index, entities: known, clock: Bundled.clock), sentence)?.values["name"]
        }
        #expect(named("turn off the overhed light") == .string("Overhead Light"))
        known.remove(["Overhead Light"], for: device)
        #expect(named("turn off the overhed light") != .string("Overhead Light"))
        known.add(["Overhead Light"], for: device)
        #expect(named("turn off the overhed light") == .string("Overhead Light"))
    }

    /// Names said with a typo are found at the edges of what rules a span out before its look-up
    /// (`EntityNameBounds`): a misspelt word beside one a name has, a one-word name misspelt (no
    /// word of it known), three letters more or fewer than the name; a span no name is near stays
    /// no name.
    @Test("Misspelt names at the edges of the spans ruled out before a look-up")
    func misspeltNamesAtTheEdgesOfTheBounds() throws {
        let index = PhraseIndex(graph: try Self.graph(Self.home))
        let device = QualifiedName(app: "Home", name: "Device")
        var known = EntityNameIndex()
        known.add(["Overhead Light", "Fan", "Dehumidifier", "Reading Lamp by the Window"], for: device)
        let matcher = Matcher(index: index, entities: known, clock: Bundled.clock)
        func named(_ sentence: String) -> Value? { Self.match(matcher, sentence)?.values["name"] }
        #expect(named("turn off the overhed light") == .string("Overhead Light"))
        #expect(named("turn off the overhead lihgt") == .string("Overhead Light"))
        #expect(named("turn off the dehumidifer") == .string("Dehumidifier"))
        #expect(named("turn off the dehumidifierss") == .string("Dehumidifier"))
        #expect(named("turn off the reading lamp by the windw") == .string("Reading Lamp by the Window"))
        #expect(named("turn off the reading lamp by the window please") == .string("Reading Lamp by the Window"))
        // Nothing is near these: read as a name nobody has, to be asked about.
        let nothing = try #require(Self.match(matcher, "turn off the garden hose"))
        #expect(nothing.slots.first?.unknownName == true)
    }

    @Test func typosAreTriedWhenAFreeTextTemplateTakesTheSentence() throws {
        for names in [true, false] {
            let best = try #require(Self.match(try Self.matcher(names: names), "turn on the ligths in the kitchen"))
            #expect(best.intent.name == "TurnOnArea", "names: \(names)")
            #expect(best.score.edits == 1)
            #expect(best.values["area"] == .string(names ? "Kitchen" : "kitchen"))
        }
    }

    @Test func anExactEnumSynonymIsNoTypo() throws {
        let best = try #require(Self.match(try Self.matcher(names: false), "open the windows"))
        #expect(best.intent.name == "OpenCover")
        #expect(best.values["cover"] == .enumCase("window"))
        #expect(best.score.corrections == 0)
        #expect(best.score.edits == 0)
    }

    @Test func freeTextTakesNoMoreWordsThanItNeeds() throws {
        let matcher = try Self.matcher(names: false)
        let fan = try #require(Self.match(matcher, "turn off the fan"))
        #expect(fan.values["name"] == .string("fan"))
        // The free-text intent does not take a sentence whose words another template spells out.
        let window = try #require(Self.match(matcher, "open the garage door"))
        #expect(window.intent.name == "OpenCover")
    }

    @Test func politenessWrittenIntoATemplateMayBeLeftOut() throws {
        let matcher = try Self.matcher(names: false)
        for sentence in [
            "set a timer for 5 minutes", "can you set a timer for 5 minutes please", "you set a timer for 5 minutes",
        ] {
            let best = try #require(Self.match(matcher, sentence), "\(sentence)")
            #expect(best.intent.name == "SetTimer")
            #expect(best.values["minutes"] == .integer(5))
        }
    }

    @Test func oneWordTooManyDoesNotBreakABundledPhrase() throws {
        let cases: [(String, String, [String: Value])] = [
            ("what's my fortune today in fortune", "Fortune.GetDailyFortune", [:]),
            ("start a focus block called deep work", "FocusBlox.StartFocusBlock", ["title": .string("deep work")]),
            ("show my love fortune", "Fortune.GetDailyFortune", ["fortuneType": .enumCase("love")]),
        ]
        for (sentence, intent, values) in cases {
            let best = try #require(Self.match(Bundled.matcher, sentence), "\(sentence)")
            #expect(best.intent.description == intent, "\(sentence)")
            for (name, value) in values { #expect(best.values[name] == value, "\(sentence)") }
        }
        // A word passed over is a cost, and never a way to read another domain's request.
        for sentence in ["what's my weather", "what's the weather like today", "tell me a joke", "play some jazz"] {
            guard case .noMatch = Bundled.matcher.recognize(sentence).outcome else {
                Issue.record("\(sentence) should not match")
                continue
            }
        }
    }
}
