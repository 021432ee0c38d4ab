import Foundation
import IntentEngine
import IntentModel
import IntentRuntime
import TestSupport
import Testing

/// A fresh folder for a store, removed when the test ends.
final class EngineScratch: Sendable {
    let directory: String
    var store: String { directory + "/store.sqlite" }

    init() {
        directory = NSTemporaryDirectory() + "intents-engine-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// An engine over the bundled definitions and this store, its clock at `now` (default: the tests' moment).
    func engine(at now: Date = Bundled.now, readOnly: Bool = false) throws -> IntentEngine {
        try IntentEngine(
            .init(
                definitions: Bundled.root + "/Intents", store: store,
                clock: .fixed(now, timeZone: TimeZone(identifier: "UTC")!), readOnly: readOnly))
    }
}

/// The front door: phrases in, answers out, conversations kept in the store under their id.
@Suite("The engine's front door")
struct IntentEngineTests {
    let scratch = EngineScratch()

    struct Turn: Sendable, CustomStringConvertible {
        var say: String
        var status: Answer.Status
        var dialog: String
        var description: String { say }
    }

    static let conversations: [[Turn]] = [
        [
            Turn(say: "add buy milk to my tasks", status: .done, dialog: "Added “buy milk”."),
            Turn(say: "what's next", status: .done, dialog: "buy milk"),
        ],
        [
            Turn(say: "check compatibility", status: .needsValue, dialog: "What's your zodiac sign?"),
            Turn(say: "leo", status: .needsValue, dialog: "What's their zodiac sign?"),
            Turn(say: "virgo", status: .done, dialog: "Leo and Virgo: 78% compatible."),
        ],
        [
            Turn(say: "create a radar", status: .needsValue, dialog: "What would you like to track?"),
            Turn(say: "cancel", status: .cancelled, dialog: "Cancelled"),
        ],
    ]

    /// Each conversation's turns, every one through a new engine over the same store: the state
    /// travels in the store, under the conversation's id.
    @Test(arguments: Self.conversations)
    func phrasesInAnswersOut(_ turns: [Turn]) throws {
        let request = EngineRequest(conversation: .make())
        for turn in turns {
            let answer = try scratch.engine().respond(to: turn.say, request)
            #expect(answer.status == turn.status, "\(turn.say): \(answer.dialog)")
            #expect(answer.dialog.contains(turn.dialog), "\(turn.say): \(answer.dialog)")
        }
    }

    @Test("Another conversation id does not answer this one's question")
    func conversationsAreApart() throws {
        let engine = try scratch.engine()
        let mine = EngineRequest(conversation: .make())
        #expect(engine.respond(to: "check compatibility", mine).status == .needsValue)
        let other = engine.respond(to: "leo", EngineRequest(conversation: .make()))
        #expect(other.status != .needsValue || other.asking != "theirSign")
        #expect(try engine.isWaiting(mine))
        #expect(engine.respond(to: "leo", mine).asking == "theirSign")
        // Another user with the same id has a conversation of their own.
        let stranger = EngineRequest(conversation: mine.conversation, user: User("someone"))
        #expect(try !engine.isWaiting(stranger))
    }

    @Test(arguments: ["", String(repeating: "x", count: 201), "a\u{1B}[2J"])
    func badConversationIdsAreRefused(_ id: String) throws {
        let answer = try scratch.engine().respond(
            to: "add buy milk to my tasks", EngineRequest(conversation: ConversationID(id)))
        #expect(answer.status == .error)
        #expect(answer.dialog.hasPrefix("A conversation id"))
        #expect(try scratch.engine().search("buy milk").hits.isEmpty)
    }

    @Test("A conversation not kept lives in its engine only, and writes nothing")
    func unkeptConversationsStayInMemory() throws {
        let engine = try scratch.engine()
        let request = EngineRequest(conversation: .make(), kept: false)
        #expect(engine.respond(to: "check compatibility", request).status == .needsValue)
        #expect(try !scratch.engine().isWaiting(EngineRequest(conversation: request.conversation)))
        #expect(engine.respond(to: "leo", request).asking == "theirSign")
        #expect(engine.respond(to: "virgo", request).status == .done)
        #expect(engine.respond(to: "and libra?", request).dialog.contains("Leo and Libra"))
    }

    @Test("A conversation expires: after its lifetime the question is no longer waiting")
    func conversationsExpire() throws {
        let request = EngineRequest(conversation: .make())
        #expect(try scratch.engine().respond(to: "check compatibility", request).status == .needsValue)
        #expect(try scratch.engine(at: Bundled.now.addingTimeInterval(29 * 60)).isWaiting(request))
        let later = try scratch.engine(at: Bundled.now.addingTimeInterval(31 * 60))
        #expect(try !later.isWaiting(request))
        // "leo" is then a phrase of its own, not the answer to the forgotten question.
        #expect(later.respond(to: "leo", request).asking != "theirSign")
    }

    // MARK: Follow-ups (issue 20, item 5)

    struct FollowUpCase: Sendable, CustomStringConvertible {
        var first: String
        var then: String
        /// nil: not taken as a follow-up.
        var replaced: String?
        var dialog: String
        var description: String { "\(first) → \(then)" }
    }

    static let followUps: [FollowUpCase] = [
        .init(
            first: "how compatible are leo and virgo", then: "and libra?", replaced: "theirSign",
            dialog: "Leo and Libra"),
        .init(
            first: "how compatible are leo and virgo", then: "what about aries", replaced: "theirSign",
            dialog: "Leo and Aries"),
        .init(
            first: "how compatible are leo and virgo", then: "how about a scorpio?", replaced: "theirSign",
            dialog: "Leo and Scorpio"),
        .init(first: "what's my love fortune", then: "and career?", replaced: "fortuneType", dialog: "career"),
        .init(
            first: "how compatible are leo and virgo", then: "ok and what about libra then?", replaced: "theirSign",
            dialog: "Leo and Libra"),
        .init(
            first: "how compatible are leo and virgo", then: "and also libra", replaced: "theirSign",
            dialog: "Leo and Libra"),
        .init(
            first: "how compatible are leo and virgo", then: "so how about aries instead", replaced: "theirSign",
            dialog: "Leo and Aries"),
        .init(
            first: "remind me to call mom today at 11", then: "what about tomorrow?", replaced: "due",
            dialog: "call mom"),
        // An explicit request is a request, never a follow-up.
        .init(
            first: "how compatible are leo and virgo", then: "are aries and libra compatible", replaced: nil,
            dialog: "Aries and Libra"),
        .init(
            first: "how compatible are leo and virgo", then: "and add buy milk to my tasks", replaced: nil,
            dialog: "buy milk"),
    ]

    @Test(arguments: Self.followUps)
    func followUpRerunsTheLastRequest(_ c: FollowUpCase) throws {
        let request = EngineRequest(conversation: .make())
        #expect(try scratch.engine().respond(to: c.first, request).status == .done)
        // A second engine over the same store carries the conversation on.
        let answer = try scratch.engine().respond(to: c.then, request)
        #expect(answer.carried?.replaced == c.replaced, "\(answer.dialog)")
        if c.replaced != nil {
            #expect(answer.status == .done, "\(answer.dialog)")
            #expect(answer.json.followUp != nil)
        }
        #expect(answer.dialog.contains(c.dialog), "\(answer.dialog)")
    }

    @Test("A follow-up says what it carried over, in the answer and in explain")
    func followUpIsExplained() throws {
        let engine = try scratch.engine()
        let request = EngineRequest(conversation: .make())
        _ = engine.respond(to: "how compatible are leo and virgo", request)
        let explained = try #require(engine.explainFollowUp("and libra?", request))
        #expect(explained.contains("theirSign replaced"))
        #expect(explained.contains("carried over: yourSign"))
        let answer = engine.respond(to: "and libra?", request)
        #expect(answer.carried == FollowUp(replaced: "theirSign", kept: ["yourSign"]))
        #expect(answer.parameters.map(\.name) == ["yourSign", "theirSign"])
    }

    @Test("Only within the window, and only in the same conversation")
    func followUpsHaveAWindow() throws {
        let request = EngineRequest(conversation: .make())
        #expect(try scratch.engine().respond(to: "how compatible are leo and virgo", request).status == .done)
        let late = try scratch.engine(at: Bundled.now.addingTimeInterval(5 * 60)).respond(to: "and libra?", request)
        #expect(late.carried == nil)
        let elsewhere = try scratch.engine().respond(to: "and libra?", EngineRequest(conversation: .make()))
        #expect(elsewhere.carried == nil)
    }

    @Test("A follow-up of a delete still confirms, even with confirmAll")
    func destructiveFollowUpsConfirm() throws {
        let engine = try scratch.engine()
        let request = EngineRequest(conversation: .make(), confirmAll: true)
        for phrase in ["create a radar about rust", "create a radar about quantum computing"] {
            #expect(engine.respond(to: phrase, request).status == .done)
        }
        #expect(engine.respond(to: "delete the radar on rust", request).status == .done)
        let asked = engine.respond(to: "and quantum computing?", request)
        #expect(asked.status == .needsConfirmation, "\(asked.dialog)")
        #expect(asked.carried?.replaced == "radar")
        #expect(engine.respond(to: "no", request).status == .cancelled)
        #expect(try engine.search("quantum computing").hits.isEmpty == false)
    }

    // MARK: Dry runs (issue 22, item 6)

    @Test("A dry run's question stays a dry run, and is never saved for another process")
    func dryRunQuestionsStayDry() throws {
        let engine = try scratch.engine()
        _ = engine.respond(to: "add buy milk to my tasks", EngineRequest(conversation: .make()))
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.store))
        let dry = EngineRequest(conversation: .make(), dryRun: true)
        #expect(engine.respond(to: "create a radar", dry).status == .needsValue)
        // Answered without --dry-run, the question asked in a dry run is still only a dry run.
        let reply = engine.respond(to: "quantum computing", EngineRequest(conversation: dry.conversation))
        #expect(reply.status == .ready, "\(reply.dialog)")
        #expect(try engine.continuations().isEmpty)
        #expect(try engine.search("quantum computing").hits.isEmpty)
        // Another engine (another process) does not see the dry run's conversation at all.
        #expect(try !scratch.engine().isWaiting(dry))
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.store)) == before)
    }

    @Test("Conversations held in memory are bounded: a client cannot grow the process with new ids")
    func memoryConversationsAreBounded() throws {
        let engine = try scratch.engine()
        let requests = (0..<(IntentEngine.memoryConversationLimit + 76)).map { _ in
            EngineRequest(conversation: .make(), dryRun: true)
        }
        for request in requests {
            #expect(engine.respond(to: "create a radar", request).status == .needsValue)
        }
        // The least recently used went first; the newest still waits for its answer.
        #expect(try !engine.isWaiting(requests[0]))
        #expect(try engine.isWaiting(requests[requests.count - 1]))
        #expect(engine.respond(to: "quantum computing", requests[requests.count - 1]).status == .ready)
    }
}
