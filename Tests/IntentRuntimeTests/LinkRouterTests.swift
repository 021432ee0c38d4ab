import Foundation
import IntentLanguage
import IntentModel
import ModelStore
import TestSupport
import Testing

@testable import IntentRuntime

/// URLs in, routes (intent and typed values) or refusals out, over the bundled apps.
@Suite("Deep links: the router")
struct LinkRouterTests {
    struct Routed: CustomTestStringConvertible, Sendable {
        var url: String
        var route: String
        var intent: String
        var values: [String: Value]
        var testDescription: String { url }
    }

    /// At least one URL for every route of every bundled app (checked below).
    static let routed: [Routed] = [
        Routed(
            url: "radar://open/3f2a", route: "radar://open/{radar}", intent: "Radar.OpenRadar",
            values: ["radar": .string("3f2a")]),
        Routed(
            url: "radar://open/quantum%20computing", route: "radar://open/{radar}", intent: "Radar.OpenRadar",
            values: ["radar": .string("quantum computing")]),
        Routed(
            url: "RADAR://Open/rust/", route: "radar://open/{radar}", intent: "Radar.OpenRadar",
            values: ["radar": .string("rust")]),
        Routed(
            url: "radar://create?topic=quantum%20computing", route: "radar://create?topic={topic}&position={position}",
            intent: "Radar.CreateRadar", values: ["topic": .string("quantum computing")]),
        Routed(
            url: "radar://create?position=bullish&topic=rust+lang",
            route: "radar://create?topic={topic}&position={position}", intent: "Radar.CreateRadar",
            values: ["topic": .string("rust lang"), "position": .enumCase("positive")]),
        Routed(
            url: "radar://create/?topic=caf%C3%A9%20culture&position=negative",
            route: "radar://create?topic={topic}&position={position}", intent: "Radar.CreateRadar",
            values: ["topic": .string("café culture"), "position": .enumCase("negative")]),
        Routed(
            url: "radar://create", route: "radar://create?topic={topic}&position={position}",
            intent: "Radar.CreateRadar", values: [:]),
        Routed(
            url: "https://radar.app/radar/3f2a", route: "https://radar.app/radar/{radar}", intent: "Radar.OpenRadar",
            values: ["radar": .string("3f2a")]),
        Routed(
            url: "https://Radar.App:443/radar/3f2a//#top", route: "https://radar.app/radar/{radar}",
            intent: "Radar.OpenRadar", values: ["radar": .string("3f2a")]),
        Routed(
            url: "radar://refresh/rust", route: "radar://refresh/{radar}", intent: "Radar.RefreshRadar",
            values: ["radar": .string("rust")]),
        Routed(url: "radar://refresh", route: "radar://refresh", intent: "Radar.RefreshAllRadars", values: [:]),
        Routed(
            url: "radar://delete/rust", route: "radar://delete/{radar}", intent: "Radar.DeleteRadar",
            values: ["radar": .string("rust")]),
        Routed(
            url: "focusblox://add?title=buy+milk&urgency=urgent&due=2026-12-01",
            route: "focusblox://add?title={title}&urgency={urgency}&due={due}", intent: "FocusBlox.CreateTask",
            values: [
                "title": .string("buy milk"), "urgency": .enumCase("urgent"),
                "due": .date(DateValue.parse("2026-12-01")!),
            ]),
        Routed(
            url: "focusblox://add?due=tomorrow&title=call%20mom",
            route: "focusblox://add?title={title}&urgency={urgency}&due={due}", intent: "FocusBlox.CreateTask",
            values: ["title": .string("call mom"), "due": .date(DateValue.parse("tomorrow")!)]),
        Routed(
            url: "focusblox://complete/buy%20milk", route: "focusblox://complete/{task}",
            intent: "FocusBlox.CompleteTask", values: ["task": .string("buy milk")]),
        Routed(url: "focusblox://next", route: "focusblox://next", intent: "FocusBlox.GetNextUp", values: [:]),
        Routed(
            url: "focusblox://focus?minutes=50&title=the%20report",
            route: "focusblox://focus?title={title}&minutes={minutes}", intent: "FocusBlox.StartFocusBlock",
            values: ["title": .string("the report"), "minutes": .integer(50)]),
        Routed(
            url: "focusblox://focus/end/", route: "focusblox://focus/end", intent: "FocusBlox.EndFocusBlock",
            values: [:]),
        Routed(
            url: "fortune://today?type=love", route: "fortune://today?type={fortuneType}",
            intent: "Fortune.GetDailyFortune", values: ["fortuneType": .enumCase("love")]),
        Routed(
            url: "fortune://today", route: "fortune://today?type={fortuneType}", intent: "Fortune.GetDailyFortune",
            values: [:]),
        Routed(
            url: "fortune://compatibility/leo/the%20maiden", route: "fortune://compatibility/{yourSign}/{theirSign}",
            intent: "Fortune.CheckCompatibility",
            values: ["yourSign": .enumCase("leo"), "theirSign": .enumCase("virgo")]),
        Routed(
            url: "fortune://compatibility?with=Leo", route: "fortune://compatibility?with={theirSign}",
            intent: "Fortune.CheckCompatibility", values: ["theirSign": .enumCase("leo")]),
        Routed(
            url: "sidebar://save?url=https%3A%2F%2Fswift.org%2Fblog&title=Swift%20blog",
            route: "sidebar://save?url={url}&title={title}", intent: "sideBar.SaveWebsite",
            values: ["url": .url("https://swift.org/blog"), "title": .string("Swift blog")]),
        Routed(
            url: "sidebar://note?text=%E2%9C%93%20done%3A%20a%26b%3Dc", route: "sidebar://note?text={text}",
            intent: "sideBar.AddNote", values: ["text": .string("✓ done: a&b=c")]),
        Routed(url: "sidebar://notes", route: "sidebar://notes", intent: "sideBar.ShowRecentNotes", values: [:]),
        // Seed 000's deep links (§7) and the create-radar activity's page (§6).
        Routed(
            url: "radar://opinion/3f2a", route: "radar://opinion/{radar}", intent: "Radar.ShowOpinion",
            values: ["radar": .string("3f2a")]),
        Routed(url: "radar://explore", route: "radar://explore", intent: "Radar.ExploreRadars", values: [:]),
        Routed(url: "radar://settings/", route: "radar://settings", intent: "Radar.ShowRadarSettings", values: [:]),
        Routed(url: "radar://profile", route: "radar://profile", intent: "Radar.ShowRadarProfile", values: [:]),
        Routed(
            url: "radar://profile/u-42", route: "radar://profile/{userId}", intent: "Radar.ShowRadarProfile",
            values: ["userId": .string("u-42")]),
        Routed(
            url: "radar://subscription", route: "radar://subscription", intent: "Radar.ShowRadarSubscription",
            values: [:]),
        Routed(
            url: "https://radar.app/create?topic=solar%20power", route: "https://radar.app/create?topic={topic}",
            intent: "Radar.NewRadar", values: ["topic": .string("solar power")]),
        // Seed 002's widget links (task 15.2): notes, chats, websites, files, tasks.
        Routed(
            url: "sidebar://notes/9c1e", route: "sidebar://notes/{note}", intent: "sideBar.OpenNote",
            values: ["note": .string("9c1e")]),
        Routed(
            url: "sidebar://chats/9c1e", route: "sidebar://chats/{chat}", intent: "sideBar.OpenChat",
            values: ["chat": .string("9c1e")]),
        Routed(
            url: "sidebar://websites/9c1e", route: "sidebar://websites/{website}", intent: "sideBar.OpenWebsite",
            values: ["website": .string("9c1e")]),
        Routed(
            url: "sidebar://files/9c1e", route: "sidebar://files/{attachment}", intent: "sideBar.OpenFile",
            values: ["attachment": .string("9c1e")]),
        Routed(url: "sidebar://tasks", route: "sidebar://tasks", intent: "sideBar.ShowTasks", values: [:]),
        Routed(
            url: "sidebar://task?title=water%20the%20plants", route: "sidebar://task?title={title}&due={dueDate}",
            intent: "sideBar.AddTask", values: ["title": .string("water the plants")]),
        Routed(
            url: "sidebar://tasks/9c1e", route: "sidebar://tasks/{task}", intent: "sideBar.ShowTasks",
            values: ["task": .string("9c1e")]),
        Routed(url: "fortune://refresh", route: "fortune://refresh", intent: "Fortune.RefreshFortune", values: [:]),
    ]

    let router = LinkRouter(graph: Bundled.graph)

    @Test(arguments: routed)
    func routes(_ c: Routed) throws {
        let match = try router.match(c.url)
        #expect(match.route == c.route)
        #expect(match.intent.description == c.intent)
        #expect(Dictionary(uniqueKeysWithValues: match.values.map { ($0.parameter, $0.value) }) == c.values)
    }

    @Test func everyBundledRouteIsTested() {
        let tested = Set(Self.routed.map(\.route))
        for (app, route) in Bundled.graph.links {
            #expect(tested.contains(route.url), "\(app.name)'s route \(route.url) has no test")
        }
    }

    @Test func queryOrderDoesNotMatter() throws {
        let a = try router.match("focusblox://add?title=x&urgency=urgent&due=tomorrow")
        let b = try router.match("focusblox://add?due=tomorrow&title=x&urgency=urgent")
        #expect(
            Dictionary(uniqueKeysWithValues: a.values.map { ($0.parameter, $0.value) })
                == Dictionary(uniqueKeysWithValues: b.values.map { ($0.parameter, $0.value) }))
    }

    struct Refused: CustomTestStringConvertible, Sendable {
        var url: String
        var code: LinkError.Code
        var message: String
        var testDescription: String { url.count > 60 ? String(url.prefix(60)) + "…" : url }
    }

    static let refused: [Refused] = [
        Refused(
            url: "radr://open/x", code: .unknownScheme,
            message:
                "no app handles 'radr:' links; did you mean 'radar:'? Schemes: focusblox:, fortune:, https:, radar:, sidebar:"
        ),
        Refused(
            url: "https://example.com/radar/x", code: .unknownRoute, message: "no app handles links to example.com"),
        Refused(
            url: "radar://opne/x", code: .unknownRoute,
            message: "Radar has no route 'radar://opne'; did you mean 'open'?"),
        Refused(url: "radar://open", code: .unknownRoute, message: "no route matches radar://open"),
        Refused(url: "radar://open/a/b", code: .unknownRoute, message: "no route matches radar://open/a/b"),
        Refused(
            url: "focusblox://focus?minutes=abc", code: .badValue,
            message: "“abc” is not a whole number, as 'minutes' needs"),
        Refused(
            url: "fortune://compatibility/leo/dog", code: .badValue,
            message:
                "“dog” is not a ZodiacSign, as 'theirSign' needs; one of: aries, taurus, gemini, cancer, leo, virgo, libra, scorpio, sagittarius, capricorn, aquarius, pisces"
        ),
        Refused(
            url: "focusblox://add?title=x&due=someday", code: .badValue,
            message: "“someday” is not a date (2026-03-01, 2026-03-01T09:00, tomorrow), as 'due' needs"),
        Refused(
            url: "sidebar://save?url=swift", code: .badValue,
            message: "“swift” is not a web address (https://…), as 'url' needs"),
        Refused(
            url: "radar://open/" + String(repeating: "a", count: 2_036), code: .tooLong,
            message: "the link is 2049 bytes long; a link is at most 2048 bytes"),
        Refused(
            url: "radar://open/a\u{0}b", code: .controlCharacter,
            message: "the link holds a control character (U+0000); links are printable text"),
        Refused(
            url: "radar://open/a\u{1B}[31m", code: .controlCharacter,
            message: "the link holds a control character (U+001B); links are printable text"),
        Refused(
            url: "radar://open/a%0Ab", code: .controlCharacter,
            message: "the link holds an escaped control character (U+000A); links are printable text"),
        Refused(
            url: "radar://open/../etc", code: .dotSegment,
            message: "the link has a '..' segment; links name things, not folders"),
        Refused(
            url: "radar://open/%2e%2E", code: .dotSegment,
            message: "the link has a '%2e%2E' segment; links name things, not folders"),
        Refused(
            url: "radar://open/x%2F..%2Fy", code: .dotSegment,
            message: "the link has a 'x%2F..%2Fy' segment; links name things, not folders"),
        Refused(
            url: "radar://open/./x", code: .dotSegment,
            message: "the link has a '.' segment; links name things, not folders"),
        Refused(
            url: "radar://create?topic=a&topic=b", code: .duplicateQueryKey,
            message: "the query key 'topic' appears more than once"),
        Refused(
            url: "radar://create?topik=a", code: .unknownQueryKey,
            message:
                "the link has the query key 'topik', which 'radar://create?topic={topic}&position={position}' does not take; did you mean 'topic'? (it takes: topic, position)"
        ),
        Refused(
            url: "radar://refresh?all=1", code: .unknownQueryKey,
            message: "the link has the query key 'all', which 'radar://refresh' does not take (it takes none)"),
        Refused(
            url: "radar://open/%zz", code: .badEscape,
            message: "the link has a '%' that is not followed by two hex digits"),
        Refused(
            url: "radar://open/%C3", code: .badEscape, message: "a %-escape in the link does not decode to UTF-8 text"),
        Refused(url: "radar:open/x", code: .malformed, message: "a link has '//' after its scheme: radar://…"),
        Refused(
            url: "quantum computing", code: .malformed,
            message: "“quantum computing” is not a link: it has no scheme (radar://…)"),
        Refused(url: "", code: .malformed, message: "“” is not a link: it has no scheme (radar://…)"),
        Refused(url: "radar://open//x", code: .malformed, message: "the link has an empty path segment ('//')"),
        Refused(
            url: "https://me:pw@radar.app/radar/x", code: .malformed,
            message: "a link cannot carry a user name or password"),
    ]

    @Test(arguments: refused)
    func refuses(_ c: Refused) {
        switch router.route(c.url) {
        case .success(let match): Issue.record("routed to \(match.intent)")
        case .failure(let error):
            #expect(error.code == c.code)
            #expect(error.message.components(separatedBy: "\n")[0] == c.message)
        }
    }

    @Test func anUnknownRouteListsTheAppsRoutes() {
        guard case .failure(let error) = router.route("sidebar://nottes") else {
            Issue.record("routed")
            return
        }
        #expect(
            error.message == """
                sideBar has no route 'sidebar://nottes'; did you mean 'notes'?
                sideBar's routes:
                  sidebar://save?url={url}&title={title} → SaveWebsite
                  sidebar://note?text={text} → AddNote
                  sidebar://notes → ShowRecentNotes
                  sidebar://notes/{note} → OpenNote
                  sidebar://chats/{chat} → OpenChat
                  sidebar://websites/{website} → OpenWebsite
                  sidebar://files/{attachment} → OpenFile
                  sidebar://tasks → ShowTasks
                  sidebar://task?title={title}&due={dueDate} → AddTask
                  sidebar://tasks/{task} → ShowTasks
                """)
    }

    @Test func canonicalLinksFillTheIdPercentEncoded() {
        let radar = QualifiedName(app: "Radar", name: "Radar")
        #expect(Bundled.graph.canonicalLink(for: radar, id: "a b/c") == "radar://open/a%20b%2Fc")
        #expect(Bundled.graph.canonicalLink(for: QualifiedName(app: "FocusBlox", name: "Task")) == nil)
    }

    /// Random bytes and mutated links: an answer every time, never a trap (the fuzz target's seed corpus, run in-process).
    @Test func mutatedLinksNeverTrap() {
        var seed: UInt64 = 0x5EED
        func next() -> UInt64 {
            seed &+= 0x9E37_79B9_7F4A_7C15
            var z = seed
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let alphabet = Array("%/?&=#:.+{}~ aZ09\u{0}\u{7F}é✓".unicodeScalars)
        for base in Self.routed.map(\.url) {
            for _ in 0..<200 {
                var scalars = Array(base.unicodeScalars)
                for _ in 0..<(1 + Int(next() % 4)) {
                    let position = Int(next() % UInt64(scalars.count + 1))
                    switch next() % 3 {
                    case 0 where position < scalars.count: scalars.remove(at: position)
                    case 1: scalars.insert(alphabet[Int(next() % UInt64(alphabet.count))], at: position)
                    default:
                        if position < scalars.count {
                            scalars[position] = alphabet[Int(next() % UInt64(alphabet.count))]
                        }
                    }
                }
                var text = ""
                text.unicodeScalars.append(contentsOf: scalars)
                _ = router.route(text)
            }
        }
    }
}

/// `open` through a conversation: entities by id or name, questions, confirmation, nothing changed on refusal.
@Suite("Deep links: opening")
struct LinkOpeningTests {
    @Test func opensARadarByIdOrTopic() throws {
        let scratch = Scratch()
        let conversation = try scratch.conversation()
        conversation.say("create a radar on quantum computing")
        let id = try #require(try scratch.ids("Radar").first)
        for url in ["radar://open/\(id)", "radar://open/Quantum%20Computing", "https://radar.app/radar/\(id)/"] {
            let answer = try conversation.open(url).get()
            #expect(answer.status == .done)
            #expect(answer.dialog == "Opening “quantum computing”.")
            #expect(answer.opens == ["radar://open/\(id)"])
        }
    }

    @Test func anIdThatNamesNothingIsRefusedAndChangesNothing() throws {
        let scratch = Scratch()
        let conversation = try scratch.conversation()
        conversation.say("create a radar on rust")
        guard case .failure(let error) = conversation.open("radar://delete/nothing-here") else {
            Issue.record("opened")
            return
        }
        #expect(error.code == .noSuchEntity)
        #expect(error.message == "no radar has the id or name “nothing-here”")
        #expect(try conversation.titles("Radar") == ["rust"])
    }

    @Test func aLinkNeverDeletesWithoutConfirmation() throws {
        let scratch = Scratch()
        let conversation = try scratch.conversation()
        conversation.say("create a radar on rust")
        let asked = try conversation.open("radar://delete/rust").get()
        #expect(asked.status == .needsConfirmation)
        #expect(asked.dialog == "Delete rust? (yes/no)")
        #expect(try conversation.titles("Radar") == ["rust"])
        #expect(conversation.respond(to: "yes").dialog == "Deleted “rust”.")
        #expect(try conversation.titles("Radar") == [])
    }

    @Test func missingValuesAreAskedLikeAfterAPhrase() throws {
        let conversation = try Scratch().conversation()
        let asked = try conversation.open("fortune://compatibility?with=leo").get()
        #expect(asked.status == .needsValue)
        #expect(asked.dialog == "What's your zodiac sign?")
        #expect(conversation.respond(to: "virgo").dialog.hasPrefix("Virgo and Leo: "))
    }

    @Test func valuesAreCheckedByTheIntentsOwnRules() throws {
        let conversation = try Scratch().conversation()
        let answer = try conversation.open("radar://create?topic=x").get()
        #expect(answer.status == .needsValue)
        #expect(answer.dialog == "A topic needs at least two characters. What would you like to track?")
    }
}

extension Scratch {
    /// The ids of the records of `entity`, oldest first.
    func ids(_ entity: String) throws -> [String] {
        let graph = Bundled.graph
        let store = try Store(path: path, graph: graph, clock: Bundled.clock)
        let entity = graph.entities.first { $0.name.name == entity }!
        return try Listing.records(of: entity, where: nil, graph: graph, store: store).compactMap {
            $0.json["id"]?.string
        }
    }
}

@Suite("Deep links: open steps")
struct OpenStepTests {
    @Test func anOpenStepOfAnEntityOpensItsCanonicalLink() throws {
        let graph = compileGraph(
            """
            app: Shelf
            scheme: shelf
            entities:
              Book: { properties: { title: string }, matchBy: [title] }
            intents:
              AddBook:
                parameters: { title: string }
                phrases: ["add book {title}"]
                perform:
                  - create: Book
                    set: { title: "${title}" }
                    as: book
                  - open: "${book}"
                result: { dialog: "Added ${book.title}." }
              OpenBook:
                parameters: { book: Book }
                phrases: ["open book {book}"]
                result: { open: "${book}", dialog: "Opening ${book.title}." }
            links:
              - { url: "shelf://book/{book}", intent: OpenBook }
            """)
        let scratch = Scratch()
        let session = try Session(
            graph: graph, store: try Store(path: scratch.path, graph: graph, clock: Bundled.clock))
        let conversation = Conversation(session: session)
        let added = conversation.respond(to: "add book dune")
        let id = try #require(
            try session.store.read { try $0.search(QualifiedName(app: "Shelf", name: "Book"), text: "dune") }.first?
                .record.id)
        #expect(added.opens == ["shelf://book/\(id)"])
        #expect(conversation.respond(to: "open book dune").opens == ["shelf://book/\(id)"])
    }
}
