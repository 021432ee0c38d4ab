import Foundation
import IntentModel
import PhraseMatching
import TestSupport
import Testing

@testable import IntentRuntime

/// The slot tagger through `say`: a small set of definitions written for these tests, whose
/// `training:` sentences mark their values, and the bundled apps.
@Suite("The slot tagger in a conversation: values where the sentence says them")
struct SlotTaggerConversationTests {
    static let atlas = """
        app: Atlas
        # The learned stage acts on any guess: these tests are about the values, not the intent.
        understanding: { act: 0.01, ask: 0.005 }
        intents:
          FindPlace:
            parameters:
              place: { type: string, prompt: "Which place?" }
            phrases:
              - "where is {place}"
            training:
              - "where is [Paris](place) located"
              - "where is [the Eiffel Tower](place) located"
              - "where is [Lake Geneva](place) located"
              - "where is [Mount Fuji](place)"
              - "where exactly is [Rome](place) located"
              - "where is [the nearest bakery](place) located"
            result: { dialog: "Looking up ${place}." }
          AddToPlaylist:
            parameters:
              item: { type: string, optional: true }
              owner: { type: string, optional: true }
              playlist: { type: string, prompt: "Which playlist?" }
            phrases:
              - "add this {item} to {owner} {playlist}"
              - "add this {item} to {playlist}"
            training:
              - "add this [song](item) to [my](owner) playlist [Chill Vibes](playlist)"
              - "add this [album](item) to [Classic Jazz Hits](playlist)"
              - "add this [track](item) to [Morning Run Mix](playlist)"
              - "add this [song](item) to [Heavy Rock Anthems](playlist)"
              - "add this [tune](item) to [Late Night Lofi](playlist)"
              - "add this [album](item) to [Sarah's](owner) playlist [Summer Road Trip](playlist)"
              - "add this [song](item) to [my](owner) [Chill Vibes](playlist)"
              - "add this [tune](item) to [Sarah's](owner) [Focus Flow](playlist)"
              - "add this [record](item) to [his](owner) [Sunday Morning Jazz](playlist)"
            result: { dialog: "Added to ${playlist}." }
          PlayMusic:
            parameters:
              artist: { type: string, optional: true }
              year: { type: integer, optional: true }
            phrases:
              - "play {artist}"
            training:
              - "play some [Miles Davis](artist) from [1959](year)"
              - "I want to hear [Nina Simone](artist) music from [1965](year)"
              - "proceed with [Daft Punk](artist) songs from [2001](year)"
              - "put on [Bob Marley](artist) music from [1977](year)"
              - "let me hear [Aretha Franklin](artist) from [1967](year)"
              - "proceed with [Fleetwood Mac](artist) music"
              - "I would like [Kate Bush](artist) music from [1985](year)"
            result: { dialog: "Playing." }
        """

    struct Case: CustomTestStringConvertible, Sendable {
        var say: String
        var intent: String
        var values: [String: String]
        var testDescription: String { say }
    }

    static let cases: [Case] = [
        // An exact match on "where is {place}" took "Belgium located"; "located" is a word the
        // intent says around its values.
        Case(say: "Where is Belgium located", intent: "Atlas.FindPlace", values: ["place": "Belgium"]),
        Case(
            say: "where is the old town hall located", intent: "Atlas.FindPlace", values: ["place": "the old town hall"]
        ),
        // A phrase without "located" is left as the template read it.
        Case(say: "where is Lisbon", intent: "Atlas.FindPlace", values: ["place": "Lisbon"]),
        // "add this {item} to {owner} {playlist}" read "Old" as the owner; the marked sentences
        // have owners like "my" and "Sarah's", and samples of two free-text slots side by side
        // teach no boundary.
        Case(
            say: "Add this album to Old School Death Metal", intent: "Atlas.AddToPlaylist",
            values: ["item": "album", "playlist": "Old School Death Metal"]),
        Case(
            say: "add this song to my Chill Mix", intent: "Atlas.AddToPlaylist",
            values: ["item": "song", "owner": "my", "playlist": "Chill Mix"]),
        // The learned stage chose the intent (no phrase says "proceed with"); the tagger fills the
        // artist and the year, the year through the number parser.
        Case(
            say: "Proceed with Hitomi Nabatame music from 2003.", intent: "Atlas.PlayMusic",
            values: ["artist": "Hitomi Nabatame", "year": "2003"]),
    ]

    /// An intent learnt from people's sentences (`LearnedStage.learntFromPeople` of them): titles
    /// said with their "The", which the phrase "find the {title}" leaves out.
    static let films: String = {
        let titles = [
            "Gamblers", "Quest of Iranon", "Garden of Eden", "Way West", "Banker", "Madwoman in the Attic",
            "Notebook of Trigorin", "Family Jams", "Beggar Maid", "Game of Their Lives", "Angry Birds Movie",
            "Crucible of Man", "Magical World", "Mustard Seed", "Stars and Stripes", "Greyest of Blue Skies",
            "Piano Bar", "Fire and the Wind", "Last Picture Show", "Long Goodbye", "Third Man", "Big Sleep",
        ]
        var yaml = """
            app: Films
            understanding: { act: 0.01, ask: 0.005 }
            intents:
              FindFilm:
                parameters:
                  title: { type: string, prompt: "Which film?" }
                phrases:
                  - "find the {title}"
                training:

            """
        for title in titles {
            for verb in ["find", "look for", "search for", "i want to find", "can you find"] {
                yaml += "      - \"\(verb) [The \(title)](title)\"\n"
            }
        }
        return yaml + "    result: { dialog: \"Looking for ${title}.\" }\n"
    }()

    @Test("A tagger learnt from people's sentences may take a template's word into a value")
    func learntFromPeople() throws {
        let scratch = GraphScratch(Self.films)
        let answer = try scratch.conversation(.init(dryRun: true)).say("find the hundred foot journey")
        #expect(answer.intent?.description == "Films.FindFilm", "\(answer.status) \(answer.dialog)")
        let values = answer.parameters.filter { $0.value != .null }.map { "\($0.name)=\(Self.text($0.value))" }
        #expect(values == ["title=the hundred foot journey"], "\(answer.dialog)")
    }

    static func text(_ value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        return value.description
    }

    /// The tagger read "remember" and "pay rent" as two titles, and the first was taken: "Did you
    /// mean “Capture remember”?". One value of a parameter cut in two spans is the longer one. Since
    /// `nlu13` the first sentence is Create Task's phrase `I (need|have|want) to remember to {title}`;
    /// the second is still the learned stage's, and its tagger, trained on that phrase, now gives
    /// "pay rent" one span. The rule itself: `SlotTaggerTests.longerOfTwoSpans`.
    @Test(
        "Of two spans the tagger gives one parameter, the longer is its value",
        arguments: ["i need to remember to pay rent", "we need to remember to pay rent"])
    func longerOfTwoSpans(_ sentence: String) throws {
        let answer = try Scratch().conversation(.init(dryRun: true)).say(sentence)
        #expect(answer.intent?.description == "FocusBlox.CreateTask", "\(answer)")
        let title = answer.parameters.first { $0.name == "title" }.map { Self.text($0.value) }
        #expect(title == "pay rent", "\(answer)")
    }

    @Test(arguments: cases)
    func fills(_ c: Case) throws {
        let scratch = GraphScratch(Self.atlas)
        let answer = try scratch.conversation(.init(dryRun: true)).say(c.say)
        #expect(answer.intent?.description == c.intent, "\(answer.status) \(answer.dialog)")
        let values = Dictionary(
            answer.parameters.filter { $0.value != .null }.map { ($0.name, Self.text($0.value)) },
            uniquingKeysWith: { first, _ in first })
        #expect(values == c.values, "\(answer.dialog)")
    }
}
