import Foundation
import Testing

/// `intents activities` through the binary: an activity one process starts, another draws, in
/// every presentation; the prompt's Dynamic Island; a shortcut's upload.
@Suite("Live activities at the command line")
struct ActivityCommandTests {
    let scratch = ScratchDirectory("activities")
    var store: String { scratch.path + "/store.sqlite" }

    func intents(_ arguments: String..., at moment: String = "2026-11-22T10:00:00Z", input: String = "") throws
        -> CommandLineTests.Run
    {
        try ConversationCommandTests.run(
            arguments, store: store, input: Data(input.utf8), overrides: ["INTENTS_NOW": moment])
    }

    /// Started by one process, drawn by others later: every presentation, Unicode and ASCII, then ended.
    @Test func aFocusBlockIsDrawnInEveryPresentation() throws {
        #expect(try intents("say", "start a focus block for 50 minutes on the quarterly report").status == 0)
        #expect(try intents("run", "Shortcuts/reading-list.yaml", at: "2026-11-22T10:05:00Z").status == 0)
        var drawn: [String] = []
        let later = "2026-11-22T10:20:00Z"
        drawn.append(try intents("activities", "--all", at: later).stdout)
        for presentation in ["compact", "minimal", "expanded", "lockScreen"] {
            let unicode = try intents("activities", "--all", "--presentation", presentation, at: later)
            #expect(unicode.status == 0, "\(unicode.stderr)")
            drawn.append(unicode.stdout)
        }
        drawn.append(try intents("activities", "--all", "--presentation", "lockScreen", "--ascii", at: later).stdout)
        #expect(try intents("say", "end the focus block", at: "2026-11-22T10:30:00Z").status == 0)
        drawn.append(try intents("activities", at: "2026-11-22T10:31:00Z").stdout)
        drawn.append(try intents("activities", at: "2026-11-22T10:36:00Z").stdout)
        try CommandLineTests.golden("activities.txt", drawn.joined(separator: "\n"))
    }

    @Test func jsonHasTheStateProgressAndCountdown() throws {
        #expect(try intents("say", "start a focus block for 50 minutes on the report").status == 0)
        let run = try intents("activities", "--json", at: "2026-11-22T10:20:00Z")
        #expect(run.status == 0)
        let list = try CommandLineTests.resultList(run, "activities")
        #expect(list.count == 1)
        #expect(list[0]["activity"] as? String == "FocusBlox.Focus")
        #expect(list[0]["status"] as? String == "active")
        #expect(list[0]["progress"] as? Double == 0.4)
        #expect(list[0]["remaining"] as? Int == 1_800)
        #expect((list[0]["attributes"] as? [String: Any])?["minutes"] as? Int == 50)
        let stale = try intents("activities", "--json", at: "2026-11-22T11:00:00Z")
        let later = try CommandLineTests.resultList(stale, "activities")
        #expect(later.first?["status"] as? String == "stale")
        #expect(later.first?["remaining"] as? Int == 0)
    }

    @Test func thePromptShowsTheRunningActivity() throws {
        let run = try intents(
            "repl",
            input: "start a focus block for 30 minutes on taxes\nwhat's next\nend the focus block\n:activities\n")
        #expect(run.status == 0)
        #expect(run.stdout.contains("\n[Focus 30:00 ░░░░░░] › what's next\n"), "\(run.stdout)")
        #expect(run.stdout.contains("\n› :activities\n"), "no island once it has ended")
        #expect(run.stdout.contains("◷ Focus  taxes  ░░░░░░░░░░  30:00  ended 10:00"), "\(run.stdout)")
    }

    @Test func nothingRunning() throws {
        let run = try intents("activities")
        #expect(run.status == 0)
        #expect(run.stdout == "No live activity.\n")
        #expect(try intents("activities", "--presentation", "island").status == 2)
    }
}
