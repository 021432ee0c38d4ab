import Foundation
import TestSupport
import Testing

/// The seeds' missing pieces through the binary (issue 22, items 19–22): Fortune's widget, control
/// and live activity; sideBar's links, Tasks widget and upload activity; Radar's lock screen stats,
/// links, create-radar activity and phrase; configurable widgets and links from widgets.
@Suite("The seeds' widgets, links and activities at the command line", .tags(.slow), .skippedWhenFast)
struct SeedSurfaceCommandTests {
    let scratch = ScratchDirectory("seeds")
    var store: String { scratch.path + "/store.sqlite" }

    func intents(_ arguments: String...) throws -> CommandLineTests.Run {
        try ConversationCommandTests.run(arguments, store: store)
    }

    /// The result of the one envelope `run` wrote; a list of widgets, records or activities as that list.
    func json(_ run: CommandLineTests.Run) throws -> Any {
        let result = try CommandLineTests.result(run)
        for key in ["widgets", "records", "activities"] { if let list = result[key] { return list } }
        return result
    }

    /// The id of the first record `store list ENTITY --json` prints.
    func firstID(_ entity: String) throws -> String {
        let list = try intents("store", "list", entity, "--json")
        let object = try json(list)
        let records = (object as? [[String: Any]]) ?? []
        return try #require(records.first?["id"] as? String, "\(list.stdout)")
    }

    // MARK: 19 Fortune

    @Test func fortuneHasADailyFortuneWidgetInEveryPlannedFamily() throws {
        let run = try intents("widget", "DailyFortune", "--family", "all")
        #expect(run.status == 0, "\(run.stderr)")
        try CommandLineTests.golden("widget-DailyFortune.txt", run.stdout)
        for family in ["small", "medium", "accessoryRectangular", "accessoryCircular", "accessoryInline"] {
            #expect(run.stdout.contains("Fortune · Daily Fortune · \(family)\n"), "\(family)")
        }
    }

    @Test func theWidgetsButtonSwitchesTheFortuneType() throws {
        #expect(try intents("widget", "DailyFortune", "--family", "medium").stdout.contains("[1 Love]"))
        let first = try intents("widget", "DailyFortune", "--family", "medium", "--press", "1")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("The Daily Fortune widget shows your love fortune.\n"))
        #expect(first.stdout.contains("Love fortune") && first.stdout.contains("[1 Career]"))
        let second = try intents("widget", "DailyFortune", "--family", "medium", "--press", "1")
        #expect(second.stdout.contains("Career fortune") && second.stdout.contains("[1 Daily]"))
        let third = try intents("widget", "DailyFortune", "--press", "1")
        #expect(third.stdout.hasPrefix("The Daily Fortune widget shows your daily fortune.\n"))
    }

    @Test func refreshFortuneReachesFortuneAndIsAControl() throws {
        let said = try intents("say", "refresh fortune", "--json")
        let answer = try #require(try json(said) as? [String: Any])
        #expect(answer["status"] as? String == "done", "\(said.stdout)")
        #expect(answer["intent"] as? String == "Fortune.RefreshFortune")
        #expect(try intents("controls").stdout.contains("▷ run  ↻ Refresh Fortune  (Fortune)\n"))
        let pressed = try intents("control", "Refresh Fortune")
        #expect(pressed.status == 0)
        #expect(pressed.stdout.hasPrefix("A fresh daily fortune: "))
        // The reading drawn again is the one the widget shows and "what's my fortune" says.
        let reading = pressed.stdout.dropFirst("A fresh daily fortune: ".count).trimmingCharacters(in: .newlines)
        #expect(try intents("say", "what's my fortune").stdout == "Your daily fortune: \(reading)\n")
        let shown = try json(try intents("widget", "DailyFortune", "--json")) as? [[String: Any]]
        #expect(shown?.first?["text"] as? String == reading)
    }

    @Test func trackingTheFortuneStartsItsLiveActivity() throws {
        let started = try intents("say", "start fortune tracking")
        #expect(started.stdout.hasPrefix("Tracking your fortune for the next hour: "), "\(started.stdout)")
        let shown = try intents("activities")
        #expect(shown.stdout.contains("Fortune") && shown.stdout.contains("Your fortune: "), "\(shown.stdout)")
        let activities = try json(try intents("activities", "--json"))
        #expect("\(activities)".contains("Fortune Active"), "the expanded Dynamic Island's center")
        #expect(try intents("say", "stop fortune tracking").stdout == "Stopped tracking your fortune.\n")
    }

    // MARK: 20 sideBar

    @Test func sideBarsWidgetLinksRouteToTheirIntents() throws {
        #expect(try intents("say", "take a note that the wifi password is on the fridge").status == 0)
        #expect(try intents("say", "bookmark https://example.com/article as the long read").status == 0)
        #expect(try intents("say", "start a chat about the reading group").status == 0)
        #expect(try intents("open", "sidebar://task?title=send%20the%20invoice").status == 0)
        let file = scratch.path + "/report.pdf"
        try Data("%PDF-1.4 hello".utf8).write(to: URL(fileURLWithPath: file))
        #expect(try intents("share", file).status == 0)
        let cases: [(String, String)] = [
            ("sidebar://notes/\(try firstID("Note"))", "Your note: “the wifi password is on the fridge”."),
            ("sidebar://chats/\(try firstID("Chat"))", "Opening the chat about “the reading group”."),
            ("sidebar://websites/\(try firstID("Website"))", "Opening the long read (https://example.com/article)."),
            ("sidebar://files/\(try firstID("Attachment"))", "“report.pdf”: application/pdf"),
            ("sidebar://tasks", "Open tasks: send the invoice."),
            ("sidebar://tasks/\(try firstID("TaskItem"))", "“send the invoice” is open. Open tasks: send the invoice."),
        ]
        for (url, dialog) in cases {
            let run = try intents("open", url)
            #expect(run.status == 0, "\(url): \(run.stderr)")
            #expect(run.stdout.hasPrefix(dialog), "\(url): \(run.stdout)")
        }
    }

    @Test func recentNotesComesSmallAndItsItemsOpenTheirNote() throws {
        #expect(try intents("say", "take a note that chapter 4 needs sources").status == 0)
        let small = try intents("widget", "RecentNotes", "--family", "small")
        #expect(small.status == 0, "\(small.stderr)")
        #expect(small.stdout.contains("sideBar · Recent Notes · small"))
        let opened = try intents("widget", "RecentNotes", "--open", "1")
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(opened.stdout.hasPrefix("Opening sidebar://notes/"))
        #expect(opened.stdout.contains("Your note: “chapter 4 needs sources”."))
        let tapped = try intents("widget", "RecentNotes", "--open", "widget")
        #expect(tapped.stdout.contains("Your recent notes: chapter 4 needs sources."), "\(tapped.stdout)")
        let none = try intents("widget", "RecentNotes", "--open", "5")
        #expect(none.status == 2)
        #expect(none.stderr == "error: Recent Notes has no item 5 now\n")
    }

    @Test func theTasksWidgetListsOpenTasksAndTicksThemOff() throws {
        #expect(try intents("widget", "Tasks", "--family", "small").stdout.contains("No tasks"))
        #expect(try intents("open", "sidebar://task?title=water%20the%20plants").status == 0)
        let medium = try intents("widget", "Tasks", "--family", "medium")
        #expect(medium.stdout.contains("water the plants") && medium.stdout.contains("[1 Done]"), "\(medium.stdout)")
        let pressed = try intents("widget", "Tasks", "--family", "medium", "--press", "1")
        #expect(pressed.stdout.hasPrefix("Done: “water the plants”.\n"), "\(pressed.stdout)")
        #expect(pressed.stdout.contains("0 open"))
    }

    @Test func sharingAFileShowsTheUploadActivityAndAnEmptyOneFails() throws {
        let file = scratch.path + "/notes.pdf"
        try Data("%PDF-1.4 notes".utf8).write(to: URL(fileURLWithPath: file))
        #expect(try intents("share", file).stdout.hasPrefix("Attached “notes.pdf”"))
        let empty = scratch.path + "/empty.pdf"
        try Data().write(to: URL(fileURLWithPath: empty))
        let refused = try intents("share", empty)
        #expect(refused.stdout.hasPrefix("Could not upload “empty.pdf”: the file is empty."), "\(refused.stdout)")
        let activities = try intents("activities")
        #expect(activities.stdout.contains("Upload failed: empty.pdf"), "\(activities.stdout)")
        #expect(activities.stdout.contains("Importing notes.pdf"))
        #expect(try intents("store", "list", "sideBar.Attachment").stdout.contains("1 attachment record"))
    }

    // MARK: 21 Radar

    @Test func radarsLockScreenWidgetShowsActiveTodayAndThisWeek() throws {
        #expect(try intents("say", "create a radar about rust").status == 0)
        #expect(try intents("say", "create a radar about solar power").status == 0)
        // A week later one is refreshed: two active, one with a new opinion today and this week.
        let later = ["INTENTS_NOW": "2026-11-29T10:00:00Z"]
        #expect(
            try ConversationCommandTests.run(["say", "refresh my rust radar"], store: store, overrides: later).status
                == 0)
        let run = try ConversationCommandTests.run(
            ["widget", "RadarQuickStats", "--family", "all"], store: store, overrides: later)
        #expect(run.status == 0, "\(run.stderr)")
        try CommandLineTests.golden("widget-RadarQuickStats.txt", run.stdout)
        #expect(run.stdout.contains("2 Active"))
        #expect(run.stdout.contains("1 Today · 1 This Week"))
    }

    @Test func radarsDeepLinksAndPhrase() throws {
        #expect(try intents("say", "create a radar about rust").status == 0)
        let id = try firstID("Radar")
        let cases: [(String, String)] = [
            ("radar://explore", "You track rust."),
            ("radar://settings", "Opening Radar's settings."),
            ("radar://profile", "Opening your profile."),
            ("radar://profile/u-42", "Opening the profile of u-42."),
            ("radar://subscription", "Opening your subscription."),
            ("radar://opinion/\(id)", "On “rust” you are neutral; refreshed 0 times."),
        ]
        for (url, dialog) in cases {
            let run = try intents("open", url)
            #expect(run.status == 0, "\(url): \(run.stderr)")
            #expect(run.stdout.hasPrefix(dialog + "\n"), "\(url): \(run.stdout)")
        }
        let check = try intents("say", "Check rust radar")
        #expect(check.stdout.hasPrefix("Opening “rust”.\n"), "\(check.stdout)")
    }

    @Test func theCreateRadarActivityIsHandedOff() throws {
        let opened = try intents("say", "draft a new radar about solar power")
        #expect(opened.stdout.hasPrefix("The new radar form is open for “solar power”"), "\(opened.stdout)")
        let list = try intents("continue", "--list")
        #expect(list.stdout.contains("Create Radar: solar power"), "\(list.stdout)")
    }

    // MARK: 22 Configurable widgets and links

    @Test func aConfigurableWidgetIsAddedListedShownAndRemoved() throws {
        #expect(try intents("say", "create a radar about rust as bullish").status == 0)
        #expect(try intents("say", "create a radar about gold").status == 0)
        let unadded = try intents("widget", "OneRadar")
        #expect(unadded.status == 2)
        #expect(
            unadded.stderr.contains("error: One Radar needs 'radar' (Radar): add --set radar=…"), "\(unadded.stderr)")
        #expect(!(try intents("widgets").stdout.contains("One Radar")), "not in the stack before it is added")

        let added = try intents("widget", "add", "OneRadar", "--set", "radar=rust", "--family", "medium")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(
            added.stdout.hasPrefix("Added One Radar #1 (radar: rust).\nRadar · One Radar #1 (radar: rust) · medium\n"))
        #expect(try intents("widget", "add", "OneRadar", "--set", "radar=gold").status == 0)
        #expect(
            try intents("widget", "list").stdout
                == "#1  Radar.OneRadar  medium  radar: rust\n#2  Radar.OneRadar  radar: gold\n")
        let stack = try intents("widgets")
        #expect(stack.stdout.contains("Radar · One Radar #1 (radar: rust) · medium"), "\(stack.stdout)")
        #expect(stack.stdout.contains("Radar · One Radar #2 (radar: gold) · small"))

        let several = try intents("widget", "OneRadar", "--press", "1")
        #expect(several.status == 2)
        #expect(several.stderr.contains("One Radar is added 2 times (#1, #2): choose one with --instance N"))
        let pressed = try intents("widget", "OneRadar", "--instance", "2", "--press", "1")
        #expect(pressed.stdout.hasPrefix("Refreshed “gold”; that makes 1 refresh.\n"), "\(pressed.stdout)")
        let tapped = try intents("widget", "OneRadar", "--instance", "1", "--open", "widget")
        #expect(tapped.stdout.contains("Opening “rust”."), "\(tapped.stdout)")

        #expect(try intents("widget", "remove", "1").stdout == "Removed One Radar #1.\n")
        #expect(try intents("widget", "list").stdout == "#2  Radar.OneRadar  radar: gold\n")
        let gone = try intents("widget", "remove", "1")
        #expect(gone.status == 2)
        #expect(gone.stderr == "error: no added widget is numbered 1; see 'intents widget list'\n")
    }

    @Test func aWidgetWhoseRadarIsDeletedSaysSoAndOpensExplore() throws {
        #expect(try intents("say", "create a radar about rust").status == 0)
        #expect(try intents("widget", "add", "OneRadar", "--set", "radar=rust").status == 0)
        let stack = try json(try intents("widgets", "--json")) as? [[String: Any]]
        let added = try #require(stack?.first { $0["widget"] as? String == "OneRadar" })
        #expect(added["instance"] as? Int == 1)
        #expect(added["parameters"] as? [String: String] == ["radar": "rust"])
        #expect((added["link"] as? String)?.hasPrefix("radar://open/") == true)
        #expect(try intents("say", "delete the rust radar", "--yes").status == 0)
        let shown = try intents("widget", "OneRadar")
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("Radar deleted"), "\(shown.stdout)")
        let tapped = try intents("widget", "OneRadar", "--open", "widget")
        #expect(tapped.stdout.hasPrefix("Opening radar://explore\nYou track nothing yet"), "\(tapped.stdout)")
    }

    @Test func configurationsAreCheckedWhenAdded() throws {
        #expect(try intents("say", "create a radar about rust").status == 0)
        let cases: [([String], String)] = [
            (["widget", "add", "OneRadar"], "error: One Radar needs 'radar' (Radar): add --set radar=…"),
            (
                ["widget", "add", "OneRadar", "--set", "radr=rust"],
                "error: One Radar has no parameter 'radr'; did you mean 'radar'?"
            ),
            (["widget", "add", "OneRadar", "--set", "radar=gold"], "error: no radar has the id or name “gold”"),
            (
                ["widget", "add", "OneRadar", "--set", "radar=rust", "--set", "radar=rust"],
                "error: 'radar' is set twice"
            ),
            (["widget", "add", "QuickCapture", "--set", "x=1"], "error: Quick Capture has no parameters"),
            (["widget", "add", "OneRadar", "--set", "rust"], "--set: expected name=value, not 'rust'"),
            (
                ["widget", "add", "OneRadar", "--set", "radar=rust", "--family", "large"],
                "One Radar does not come in large"
            ),
            (["widget", "QuickCapture", "--open", "first"], "--open: expected an item's number (from 1) or 'widget'"),
            (
                ["widget", "add", "OneRadar", "--set", "radar=a\u{1B}[2J"],
                "the value of 'radar' holds a control character (U+001B)"
            ),
            (["widget", "add", "OneRadar", "--set", "\u{1B}]0;x=rust"], "has no parameter '\\u{1B}]0;x'"),
        ]
        for (arguments, message) in cases {
            let run = try ConversationCommandTests.run(arguments, store: store)
            #expect(run.status != 0, "\(arguments)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("\u{1B}"), "\(arguments): raw ESC on stderr")
        }
        #expect(try intents("widget", "list").stdout.hasPrefix("No widget is added"), "nothing was added")
    }

    @Test func tappingAnItemRunsItsLinksIntent() throws {
        #expect(try intents("say", "create a radar about quantum computing").status == 0)
        let run = try intents("widget", "RadarStatus", "--open", "1")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Opening radar://open/"))
        #expect(run.stdout.contains("Opening “quantum computing”."))
        let none = try intents("widget", "QuickCapture", "--open", "widget")
        #expect(none.status == 2)
        #expect(none.stderr.contains("error: Quick Capture has no link of its own; its items may: --open 1"))
    }
}
