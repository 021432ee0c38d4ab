import Foundation
import TestSupport
import Testing

/// `intents open`, `intents link` and `store list --links`, through the binary.
@Suite("Deep links from the command line", .tags(.slow), .skippedWhenFast)
struct LinkCommandTests {
    let scratch = ScratchDirectory("links")
    var directory: String { scratch.path }
    var store: String { directory + "/store.sqlite" }

    func intents(_ arguments: [String], input: Data = Data()) throws -> CommandLineTests.Run {
        try ConversationCommandTests.run(arguments, store: store, input: input)
    }

    /// The store's radars as JSON text: what "nothing changed" is checked against.
    func radars() throws -> String { try intents(["store", "list", "Radar", "--json"]).stdout }

    func radarID(_ topic: String) throws -> String {
        let records = try #require(try CommandLineTests.result(stdout: try radars())["records"] as? [[String: Any]])
        return try #require(records.first { $0["topic"] as? String == topic }?["id"] as? String)
    }

    @Test func opensByTopicIdAndUniversalLink() throws {
        _ = try intents(["say", "create a radar on quantum computing"])
        let id = try radarID("quantum computing")
        for url in ["radar://open/quantum%20computing", "radar://open/\(id)/", "https://radar.app/radar/\(id)"] {
            let run = try intents(["open", url])
            #expect(run.status == 0)
            #expect(run.stdout == "Opening “quantum computing”.\n→ radar://open/\(id)\n")
        }
    }

    @Test func createsFromQueryItemsInAnyOrder() throws {
        let run = try intents(["open", "--json", "radar://create?position=skeptical&topic=AI+regulation"])
        #expect(run.status == 0)
        let answer = try CommandLineTests.result(run)
        #expect(answer["status"] as? String == "done")
        #expect(answer["intent"] as? String == "Radar.CreateRadar")
        #expect(answer["dialog"] as? String == "Now tracking “AI regulation” (Negative).")
    }

    @Test func dryRunChangesNothing() throws {
        let run = try intents(["open", "--dry-run", "radar://create?topic=rust"])
        #expect(run.stdout == "Ready: Track rust. (dry run: nothing was changed)\n")
        #expect(try radars() == #"{"version":1,"command":"store list","ok":true,"result":{"records":[]}}"# + "\n")
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        var url: String
        var message: String
        var testDescription: String { url.count > 50 ? String(url.prefix(50)) + "…" : url }
    }

    static let refusals: [Refusal] = [
        Refusal(
            url: "radr://open/rust",
            message:
                "error: no app handles 'radr:' links; did you mean 'radar:'? Schemes: focusblox:, fortune:, https:, radar:, sidebar:"
        ),
        Refusal(url: "radar://opne/rust", message: "error: Radar has no route 'radar://opne'; did you mean 'open'?"),
        Refusal(
            url: "radar://create?topic=x&position=sideways",
            message:
                "error: “sideways” is not a RadarPosition, as 'position' needs; one of: positive, neutral, negative"),
        Refusal(url: "radar://delete/no-such-radar", message: "error: no radar has the id or name “no-such-radar”"),
        Refusal(
            url: "radar://create?topic=" + String(repeating: "x", count: 2_040),
            message: "error: the link is 2061 bytes long; a link is at most 2048 bytes"),
        Refusal(
            url: "radar://create?topic=a\u{7}b",
            message: "error: the link holds a control character (U+0007); links are printable text"),
        Refusal(url: "radar://open/..", message: "error: the link has a '..' segment; links name things, not folders"),
        Refusal(url: "radar://create?topic=a&topic=b", message: "error: the query key 'topic' appears more than once"),
        Refusal(
            url: "radar://create?topic=a&colour=red",
            message:
                "error: the link has the query key 'colour', which 'radar://create?topic={topic}&position={position}' does not take (it takes: topic, position)"
        ),
    ]

    @Test(arguments: refusals)
    func refusedLinksExitTwoAndChangeNothing(_ c: Refusal) throws {
        _ = try intents(["say", "create a radar on rust"])
        let before = try radars()
        let run = try intents(["open", c.url])
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr.components(separatedBy: "\n")[0] == c.message)
        #expect(try radars() == before)
    }

    @Test func aRefusalInJSONCarriesItsCode() throws {
        let run = try intents(["open", "--json", "radar://open/a%0Ab"])
        #expect(run.status == 2)
        let envelope = try #require(try CommandLineTests.envelopes(run).first)
        #expect(envelope["ok"] as? Bool == false)
        let error = try #require(envelope["error"] as? [String: Any])
        #expect(error["code"] as? String == "control_character")
    }

    @Test func aDeleteLinkAsksFirstAndDeletesOnlyWithYes() throws {
        _ = try intents(["say", "create a radar on rust"])
        let asked = try intents(["open", "radar://delete/rust"])
        #expect(asked.status == 0)
        #expect(asked.stdout == "Delete rust? (yes/no)\n")
        #expect(try radars().contains("\"rust\""))
        let confirmed = try intents(["open", "--yes", "radar://delete/rust"])
        #expect(confirmed.stdout == "Deleted “rust”.\n")
        #expect(!(try radars().contains("\"rust\"")))
    }

    @Test func linkAndStoreListPrintTheCanonicalLink() throws {
        _ = try intents(["say", "create a radar on quantum computing"])
        let id = try radarID("quantum computing")
        let link = try intents(["link", "Radar", "quantum computing"])
        #expect(link.status == 0)
        #expect(link.stdout == "radar://open/\(id)\n")
        let listed = try intents(["store", "list", "Radar", "--links"])
        #expect(listed.stdout.contains("(id \(id.prefix(8)))  → radar://open/\(id)\n"))
        let json = try intents(["store", "list", "Radar", "--links", "--json"])
        #expect(json.stdout.contains("\"link\":\"radar://open/\(id)\""))

        let missing = try intents(["link", "Radar", "tulips"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "error: no radar is called “tulips”\n")
        let noLink = try intents(["link", "Task", "buy milk"])
        #expect(noLink.status == 2)
        #expect(noLink.stderr.hasPrefix("error: Task has no canonical link"))
    }

    @Test func theOpenedLinkOfAnOpenStepIsTheCanonicalOne() throws {
        _ = try intents(["say", "create a radar on solar power"])
        let id = try radarID("solar power")
        let opened = try intents(["say", "open the radar on solar power"])
        #expect(
            opened.stdout.hasSuffix(
                "→ \(try #require(try intents(["link", "Radar", id]).stdout.split(separator: "\n").first))\n"))
    }
}
