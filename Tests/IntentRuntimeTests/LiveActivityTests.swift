import Foundation
import IntentLanguage
import IntentModel
import IntentRendering
import ModelStore
import TestSupport
import Testing

@testable import IntentRuntime

/// Live activities: started, updated, made stale and ended by intents and shortcut steps, kept in
/// the store so that another session sees them.
@Suite("Live activities")
struct LiveActivityTests {
    let scratch = Scratch()

    /// A second session on the same store, its clock `minutes` after the tests' moment: another
    /// process, later.
    func later(_ minutes: Double, graph: IntentGraph = Bundled.graph) throws -> Conversation {
        let clock = Clock.fixed(Bundled.now.addingTimeInterval(minutes * 60), timeZone: TimeZone(identifier: "UTC")!)
        let store = try Store(path: scratch.path, graph: graph, clock: clock)
        return Conversation(session: try Session(graph: graph, store: store))
    }

    func activities(at minutes: Double, dismissed: Bool = false, graph: IntentGraph = Bundled.graph) throws
        -> [LiveActivitySnapshot]
    {
        let session = try later(minutes, graph: graph).session
        return try LiveActivityCenter(graph: graph, store: session.store)
            .current(at: Bundled.now.addingTimeInterval(minutes * 60), dismissed: dismissed)
    }

    @Test func startingAFocusBlockStartsACountdownThatAnotherSessionSees() throws {
        let conversation = try scratch.conversation()
        #expect(conversation.say("start a focus block for 50 minutes on the report").status == .done)
        let shown = try activities(at: 20)
        #expect(shown.count == 1)
        let focus = try #require(shown.first)
        #expect(focus.activity.name == "Focus")
        #expect(focus.status == .active)
        #expect(focus.remaining == 30 * 60)
        #expect(focus.progress == 0.4)
        #expect(focus.compactLeading == "Focus")
        #expect(focus.compactTrailing == "30:00")
        #expect(focus.lockScreenTitle == "the report")
        #expect(focus.lockScreenDetail == "50 minutes, until 10:50")
        #expect(LiveActivityRenderer().island(shown) == "[Focus 30:00 ▓▓░░░░]")
    }

    @Test func aCountdownThatHasPassedIsStaleUntilTheBlockIsEnded() throws {
        let conversation = try scratch.conversation()
        conversation.say("start a focus block for 25 minutes on email")
        let over = try #require(try activities(at: 30).first)
        #expect(over.status == .stale)
        #expect(over.remaining == 0)
        #expect(over.progress == 1)
        #expect(try later(31).say("end the focus block").status == .done)
        let ended = try #require(try activities(at: 32).first)
        #expect(ended.status == .ended)
        #expect(ended.endedAt == Bundled.now.addingTimeInterval(31 * 60))
        #expect(ended.remaining == 0)
        // EndFocusBlock dismisses it five minutes after it ends.
        #expect(try activities(at: 37).isEmpty)
        #expect(try activities(at: 37, dismissed: true).count == 1)
    }

    @Test func theSystemEndsAnActivityAfterEightHoursAndRemovesItFourHoursLater() throws {
        let conversation = try scratch.conversation()
        conversation.say("start a focus block for 240 minutes on the thesis")
        #expect(try activities(at: 7 * 60 + 59).first?.status == .stale)
        let ended = try #require(try activities(at: 8 * 60 + 1).first)
        #expect(ended.status == .ended)
        #expect(ended.endedAt == Bundled.now.addingTimeInterval(8 * 3_600))
        #expect(try activities(at: 12 * 60 - 1).count == 1)
        #expect(try activities(at: 12 * 60 + 1).isEmpty)
        // Ending it after the system did changes nothing, and the block still ends.
        #expect(try later(9 * 60).say("end the focus block").status == .done)
        #expect(try activities(at: 9 * 60 + 1).first?.endedAt == Bundled.now.addingTimeInterval(8 * 3_600))
    }

    @Test func undoingTheIntentEndsTheActivityItStarted() throws {
        let conversation = try scratch.conversation()
        conversation.say("start a focus block on taxes")
        #expect(try activities(at: 1).count == 1)
        _ = try conversation.session.undo()
        #expect(try activities(at: 1).isEmpty)
    }

    @Test func aFailedIntentStartsNothing() throws {
        let conversation = try scratch.conversation()
        conversation.say("start a focus block on taxes")
        // A second block is refused: the steps after the failure, and its activity, never happen.
        #expect(conversation.say("start a focus block on email").status == .error)
        let shown = try activities(at: 1)
        #expect(shown.map(\.lockScreenTitle) == ["taxes"])
    }

    static let upload = """
        app: Uploader
        activities:
          Upload:
            attributes: { total: integer }
            state:
              done: { type: integer, default: 0 }
              note: { type: string, optional: true }
            progress: "done * 1.0 / total"
            staleAfter: 2m
            compact: { trailing: "${done}/${total}" }
        intents:
          Begin:
            parameters: { total: integer }
            phrases: ["begin {total}"]
            perform:
              - start_activity: Upload
                with: { total: "${total}" }
          Step:
            parameters: { done: integer }
            phrases: ["step {done}"]
            perform:
              - update_activity: Upload
                with: { done: "${done}", note: "at ${done}" }
          Finish:
            phrases: ["finish"]
            perform:
              - end_activity: Upload
                with: { note: finished }
                dismiss: immediately
        """

    @Test func updatesChangeTheStateAndKeepTheAttributes() throws {
        let graph = compileGraph(Self.upload)
        #expect(try later(0, graph: graph).say("begin 4").status == .done)
        #expect(try activities(at: 0.5, graph: graph).first?.progress == 0)
        #expect(try later(1, graph: graph).say("step 1").status == .done)
        #expect(try later(2, graph: graph).say("step 3").status == .done)
        let upload = try #require(try activities(at: 2.5, graph: graph).first)
        #expect(upload.progress == 0.75)
        #expect(upload.compactTrailing == "3/4")
        #expect(upload.state["note"] == .string("at 3"))
        #expect(upload.attributes == ["total": .integer(4)])
        #expect(upload.updatedAt == Bundled.now.addingTimeInterval(120))
        #expect(upload.status == .active)
        // Two minutes without an update: stale.
        #expect(try activities(at: 4, graph: graph).first?.status == .stale)
        #expect(try later(5, graph: graph).say("finish").status == .done)
        #expect(try activities(at: 5, graph: graph).isEmpty, "dismissed immediately")
        let final = try #require(try activities(at: 5, dismissed: true, graph: graph).first)
        #expect(final.state == ["done": .integer(3), "note": .string("finished")])
        #expect(final.status == .ended)
    }

    @Test func updatingOrEndingWhenNothingRunsChangesNothing() throws {
        let graph = compileGraph(Self.upload)
        #expect(try later(0, graph: graph).say("step 2").status == .done)
        #expect(try later(0, graph: graph).say("finish").status == .done)
        #expect(try activities(at: 1, dismissed: true, graph: graph).isEmpty)
    }

    @Test func startingAgainReplacesTheRunningOne() throws {
        let graph = compileGraph(Self.upload)
        try later(0, graph: graph).say("begin 4", "step 2")
        try later(1, graph: graph).say("begin 10")
        let shown = try activities(at: 2, graph: graph)
        #expect(shown.map(\.attributes) == [["total": .integer(10)]])
        #expect(shown.first?.progress == 0)
    }

    @Test func theReadingListShortcutShowsItsProgressItemByItem() throws {
        let session = try scratch.conversation().session
        let source = try String(contentsOfFile: Bundled.root + "/Shortcuts/reading-list.yaml", encoding: .utf8)
        // The shortcut stops after the second address: the activity shows 2 of 3.
        let stopped = source.replacingOccurrences(
            of:
                "      - update_activity: sideBar.Upload\n        with: { done: \"${seen}\", current: \"${address.host}\" }\n",
            with:
                "      - update_activity: sideBar.Upload\n        with: { done: \"${seen}\", current: \"${address.host}\" }\n"
                + "      - if: \"seen == 2\"\n        then: [ { stop: true } ]\n")
        #expect(stopped != source)
        let compilation = ShortcutCompiler.compile(
            path: "t/main.yaml", graph: session.graph, matcher: session.matcher(clock: Bundled.clock),
            files: ["t/main.yaml": stopped])
        let shortcut = try #require(compilation.shortcut, "\(compilation.diagnostics)")
        _ = ShortcutRunner(session: session, shortcuts: compilation.shortcuts, options: .init(), prompt: nil).run(
            shortcut)
        let upload = try #require(try activities(at: 0).first)
        #expect(upload.activity.name == "Upload")
        #expect(upload.compactTrailing == "2/3")
        #expect(upload.lockScreenDetail == "www.sqlite.org")
        #expect(abs((upload.progress ?? 0) - 2.0 / 3) < 0.001)
    }

    @Test func aDryRunStartsNoActivity() throws {
        let session = try scratch.conversation().session
        let source = try String(contentsOfFile: Bundled.root + "/Shortcuts/reading-list.yaml", encoding: .utf8)
        let compilation = ShortcutCompiler.compile(
            path: "t/main.yaml", graph: session.graph, matcher: session.matcher(clock: Bundled.clock),
            files: ["t/main.yaml": source])
        let shortcut = try #require(compilation.shortcut)
        var options = ShortcutRunner.Options()
        options.dryRun = true
        let result = ShortcutRunner(session: session, shortcuts: compilation.shortcuts, options: options, prompt: nil)
            .run(shortcut)
        #expect(result.log.contains { $0.text.hasPrefix("Would start Upload with source: reading list, total: 3") })
        #expect(try activities(at: 0, dismissed: true).isEmpty)
    }

    @Test func aDamagedStoredValueShowsAsNothing() throws {
        let conversation = try scratch.conversation()
        conversation.say("start a focus block for 30 minutes on the report")
        let store = conversation.session.store
        _ = try store.write { transaction in
            try transaction.startLiveActivity(
                "FocusBlox.Focus", key: "", attributes: ["title": .integer(3), "minutes": .string("x")], state: [:],
                at: Bundled.now)
        }
        let shown = try activities(at: 1)
        #expect(shown.count == 1, "the second replaced the first")
        #expect(shown[0].remaining == nil, "no countdown from a damaged value")
        #expect(shown[0].lockScreenTitle == "Focus")
    }
}
