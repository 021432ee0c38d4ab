import Foundation
import IntentLanguage
import IntentModel
import ModelStore
import TestSupport
import Testing

@testable import IntentRuntime

/// Two shells on one store: questions and activities carried on from one to the other.
@Suite("Handoff")
struct HandoffTests {
    let scratch = Scratch()

    /// A shell: its own session and store connection on the shared file, at `offset` seconds after the fixed moment.
    func shell(after offset: TimeInterval = 0, handoff: Bool = true) throws -> Conversation {
        let clock = Clock.fixed(Bundled.now.addingTimeInterval(offset), timeZone: TimeZone(identifier: "UTC")!)
        let session = try Session(
            graph: Bundled.graph, store: try Store(path: scratch.path, graph: Bundled.graph, clock: clock))
        return Conversation(session: session, options: .init(handoff: handoff))
    }

    @Test func aQuestionAskedInOneShellIsAnsweredInAnotherAndClosedInTheFirst() throws {
        let first = try shell()
        #expect(first.say("check compatibility with leo").dialog == "What's your zodiac sign?")

        let second = try shell(after: 60)
        let offered = try second.continuations()
        #expect(
            offered.map(\.line) == [
                "question  Fortune.CheckCompatibility: “What's your zodiac sign?” (asked 2026-11-22T10:00:00Z)"
            ])
        let asked = second.carryOn(try #require(offered.first))
        #expect(asked.status == .needsValue)
        #expect(asked.dialog == "What's your zodiac sign?")
        #expect(asked.parameters.map(\.name) == [])
        let done = second.respond(to: "virgo")
        #expect(done.status == .done)
        #expect(done.dialog.hasPrefix("Virgo and Leo: "))

        let late = first.respond(to: "aries")
        #expect(late.status == .cancelled)
        #expect(late.dialog == "That question was carried on in another shell; nothing more to answer here.")
        #expect(!first.isWaiting)
        #expect(try second.continuations().isEmpty)
    }

    @Test func aQuestionAnsweredOrCancelledWhereItWasAskedIsNoLongerOffered() throws {
        let first = try shell()
        first.say("check compatibility with leo", "virgo")
        first.say("start a focus block")
        #expect(try shell().continuations().count == 1)
        first.cancel()
        #expect(try shell().continuations().isEmpty)
    }

    @Test func withoutHandoffNothingIsSaved() throws {
        let first = try shell(handoff: false)
        first.say("check compatibility with leo")
        #expect(try shell().continuations().isEmpty)
    }

    @Test func aChoiceBetweenRecordsIsCarriedOnWithItsChoices() throws {
        let first = try shell()
        // Two radars the name "rust" fits (one radar a topic: the same topic twice is refused).
        first.say("create a radar on rust language")
        first.say("create a radar on rust compiler")
        let asked = first.say("refresh rust")
        #expect(asked.status == .needsDisambiguation)
        #expect(Set(asked.choices) == ["rust language", "rust compiler"])
        let second = try shell()
        let carried = second.carryOn(try #require(try second.continuations().first))
        #expect(carried.status == .needsValue)
        #expect(carried.choices == asked.choices)
        let chosen = try #require(asked.choices.last)
        #expect(second.respond(to: "2").dialog == "Refreshed “\(chosen)”; that makes 1 refresh.")
    }

    @Test func anActivityIsRecordedWithItsTitleLinkAndParameters() throws {
        let first = try shell()
        first.say("create a radar on quantum computing")
        #expect(first.say("open the radar on quantum computing").status == .done)
        let id = try #require(try scratch.ids("Radar").first)
        let activities = try first.session.store.read { try $0.activities(at: Bundled.now) }
        #expect(activities.count == 1)
        let activity = try #require(activities.first)
        #expect(activity.type == "view-radar")
        #expect(activity.title == "quantum computing")
        #expect(activity.link == "radar://open/\(id)")
        #expect(activity.eligible == [.handoff, .search, .prediction])
        #expect(activity.parameters["radar"]?.object?["id"]?.string == id)
        #expect(activity.expires == Bundled.now.addingTimeInterval(8 * 3600))

        let second = try shell(after: 3600)
        let answer = second.carryOn(try #require(try second.continuations().first))
        #expect(answer.dialog == "Opening “quantum computing”.")
    }

    @Test func anActivityIsOfferedUntilItExpires() throws {
        let first = try shell()
        first.say("create a radar on rust", "open the rust radar")
        #expect(try shell(after: 8 * 3600 - 1).continuations().count == 1)
        #expect(try shell(after: 8 * 3600).continuations().isEmpty)
        #expect(try shell(after: 9 * 3600).continuations().isEmpty)
    }

    @Test func eligibilityDecidesWhereAnActivityIsOffered() throws {
        let first = try shell()
        first.say("create a radar on rust", "open the rust radar", "what's my love fortune")
        let read = { (eligible: IntentGraph.Activity.Eligibility) in
            try first.session.store.read { try $0.activities(at: Bundled.now, eligible: eligible).map(\.type) }
        }
        #expect(try read(.handoff) == ["read-fortune", "view-radar"])
        #expect(try read(.search) == ["view-radar"])
        #expect(try read(.prediction) == ["read-fortune", "view-radar"])
    }

    /// A store a newer build wrote may hold an eligibility this one does not know: the activity is
    /// still offered where it is eligible, and reading it is no error.
    @Test func anEligibilityThisBuildDoesNotKnowIsLeftOut() throws {
        let first = try shell()
        first.say("create a radar on rust", "open the rust radar")
        let sql = #"UPDATE _activities SET eligible = '["handoff","watch"]'"#
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", scratch.path, sql]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        let activities = try first.session.store.read { try $0.activities(at: Bundled.now) }
        #expect(activities.map(\.eligible) == [[.handoff]])
        #expect(try shell().continuations().map(\.line).first?.hasPrefix("activity  view-radar") == true)
    }

    @Test func anActivityIsRecordedOnlyWhenItsIntentLands() throws {
        let graph = compileGraph(
            """
            app: Shop
            intents:
              Buy:
                parameters: { item: string }
                phrases: ["buy {item}"]
                perform:
                  - if: "item == 'nothing'"
                    then: [ { fail: "Nothing to buy." } ]
                result: { dialog: "Bought ${item}." }
                activity: { type: buy, title: "${item}" }
            """)
        let store = try Store(path: scratch.path, graph: graph, clock: Bundled.clock)
        let conversation = Conversation(session: try Session(graph: graph, store: store))
        #expect(conversation.respond(to: "buy nothing").status == .error)
        conversation.options.dryRun = true
        #expect(conversation.respond(to: "buy bread").status == .ready)
        conversation.options.dryRun = false
        #expect(conversation.respond(to: "buy milk").dialog == "Bought milk.")
        #expect(try store.read { try $0.activities(at: Bundled.now) }.map(\.title) == ["milk"])
    }
}
