import Foundation
import TestSupport
import Testing

/// `intents widgets`, `widget`, `controls` and `control` through the binary: every family drawn
/// against golden files, a button pressed, a timeline, toggles.
@Suite("Widgets and controls at the command line", .tags(.slow), .skippedWhenFast)
struct SurfaceCommandTests {
    let scratch = ScratchDirectory("surfaces")
    var directory: String { scratch.path }
    var store: String { directory + "/store.sqlite" }

    func intents(_ arguments: String...) throws -> CommandLineTests.Run {
        try ConversationCommandTests.run(arguments, store: store)
    }

    func seed() throws {
        for phrase in [
            "add buy milk to my tasks", "add an urgent task renew the passport before the trip to Lisbon in March",
            "remind me to call mom today at 11", "create a radar about quantum computing",
            "create a radar about rust as bullish",
        ] {
            #expect(try intents("say", phrase).status == 0, "\(phrase)")
        }
    }

    /// Golden drawings of two widgets in every family they come in, Unicode and ASCII.
    @Test(arguments: ["QuickCapture", "RadarStatus", "DueSoon"])
    func everyFamilyIsDrawn(_ widget: String) throws {
        try seed()
        let unicode = try intents("widget", widget, "--family", "all")
        #expect(unicode.status == 0, "\(unicode.stderr)")
        let ascii = try intents("widget", widget, "--family", "all", "--ascii")
        try CommandLineTests.golden("widget-\(widget).txt", unicode.stdout + "\n" + ascii.stdout)
    }

    @Test func theSmartStackPutsTheMostRelevantWidgetOnTop() throws {
        let empty = try intents("widgets", "--explain", "--family", "accessoryRectangular")
        #expect(
            empty.stdout.hasPrefix(
                "FocusBlox · Quick Capture · accessoryRectangular · relevance rule 4 of 4 (always) → 10"))
        try seed()
        #expect(try intents("say", "start a focus block for 50 minutes on the report").status == 0)
        let run = try intents("widgets", "--explain")
        #expect(run.status == 0)
        try CommandLineTests.golden("widgets-explain.txt", run.stdout)
        let json = try intents("widgets", "--json")
        let stack: [[String: Any]]? = try CommandLineTests.resultList(json, "widgets")
        #expect(
            stack?.compactMap { ($0["relevance"] as? [String: Any])?["score"] as? Int } == [
                100, 35, 30, 30, 10, 0, 0, 0, 0,
            ])
    }

    /// Widget items and search hits carry the record's canonical deep link (issue 14).
    @Test func widgetItemsAndSearchHitsCarryTheirLink() throws {
        try seed()
        let widget = try intents("widget", "RadarStatus", "--json")
        let entries = try CommandLineTests.resultList(widget, "widgets")
        let items = try #require(entries.first?["items"] as? [[String: Any]])
        let id = try #require(items.first?["id"] as? String)
        #expect(items.first?["link"] as? String == "radar://open/\(id)")
        let search = try intents("search", "quantum", "--json")
        let hits = try CommandLineTests.resultList(search, "hits")
        let radar = try #require(hits.first { $0["type"] as? String == "Radar" })
        #expect(radar["link"] as? String == "radar://open/\(radar["id"] as? String ?? "")")
        #expect(try intents("search", "quantum", "--open", "1").stdout.contains("  link: radar://open/"))
    }

    @Test func pressingAButtonRunsItsIntentAndRedrawsTheWidget() throws {
        try seed()
        let run = try intents("widget", "QuickCapture", "--family", "medium", "--press", "2")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Nice — “buy milk” is done.\n"))
        #expect(!run.stdout.contains("buy milk  "), "the widget reloaded without it")
        #expect(run.stdout.contains("2 open"))
        let missing = try intents("widget", "QuickCapture", "--press", "9")
        #expect(missing.status == 2)
        #expect(missing.stderr == "error: Quick Capture has no button 9 now\n")
    }

    @Test func aTimelineListsEntriesWhereTheContentChanges() throws {
        try seed()
        let run = try intents("widget", "DueSoon", "--timeline", "2h", "--family", "accessoryRectangular", "--explain")
        #expect(run.status == 0)
        try CommandLineTests.golden("widget-timeline.txt", run.stdout)
    }

    @Test func badNamesAndOptionsAreClearErrors() throws {
        let cases: [([String], Int32, String)] = [
            (["widget", "QuickCaptur"], 2, "error: no widget named 'QuickCaptur'; did you mean 'QuickCapture'?"),
            (
                ["widget", "Weather"], 2,
                "error: no widget named 'Weather'; widgets: FocusBlox.QuickCapture, FocusBlox.DueSoon,"
            ),
            (["widget", "QuickCapture", "--family", "large"], 2, "Quick Capture does not come in large"),
            (["widget", "QuickCapture", "--family", "huge"], 2, "--family: unknown family 'huge'"),
            (["widget", "QuickCapture", "--timeline", "forever"], 2, "--timeline: expected a duration"),
            (["widget", "QuickCapture", "--press", "0"], 2, "--press: buttons are numbered from 1"),
            (["widgets", "--at", "someday"], 2, "--at: expected an ISO-8601 moment"),
            (
                ["control", "Lights"], 2,
                "error: no control named 'Lights'; controls: Focus, Refresh Fortune, Refresh Radars"
            ),
            (["control", "Focsu"], 2, "error: no control named 'Focsu'; did you mean 'Focus'?"),
            (["control", "Refresh Radars", "on"], 2, "is a button: press it"),
        ]
        for (arguments, status, message) in cases {
            let run = try ConversationCommandTests.run(arguments, store: store)
            #expect(run.status == status, "\(arguments)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
    }

    @Test func controlsShowTheirStateAndToggle() throws {
        #expect(
            try intents("controls").stdout
                == "○ off  ◷ Focus  (FocusBlox)\n▷ run  ↻ Refresh Fortune  (Fortune)\n▷ run  ↻ Refresh Radars  (Radar)\n"
        )
        #expect(try intents("control", "Focus", "on").stdout == "Focusing on “Focus” for 25 minutes. Ends at 10:25.\n")
        #expect(try intents("controls", "--ascii").stdout.hasPrefix("[on ]  [timer] Focus  (FocusBlox)\n"))
        #expect(try intents("control", "focus", "on").stdout == "Focus is already on.\n")
        // Named alone, a toggle is shown (issue 22, item 16); toggle flips it.
        #expect(try intents("control", "FocusBlox.Focus").stdout == "● on   ◷ Focus  (FocusBlox)\n")
        #expect(try intents("control", "FocusBlox.Focus", "toggle").stdout == "Ended “Focus”. Well done.\n")
        #expect(try intents("control", "Refresh Radars").stdout == "Refreshed 0 radars.\n")
    }
}

/// `--watch` from a pipe: a button pressed by number, and a redraw when another process writes.
@Suite("Watching widgets")
struct WidgetWatchTests {
    @Test func watchRedrawsWhenAnotherProcessWritesAndPressesButtons() throws {
        let directory = NSTemporaryDirectory() + "intents-watch-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = directory + "/store.sqlite"
        #expect(try ConversationCommandTests.run(["say", "add buy milk to my tasks"], store: store).status == 0)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: IntentsBinary.path)
        process.arguments = ["widget", "QuickCapture", "--family", "medium", "--watch"]
        process.currentDirectoryURL = URL(fileURLWithPath: CommandLineTests.root)
        var environment = ProcessInfo.processInfo.environment
        environment["INTENTS_STORE"] = store
        environment["INTENTS_NOW"] = "2026-11-22T10:00:00Z"
        environment["TZ"] = "UTC"
        process.environment = environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        let collected = Collected()
        output.fileHandleForReading.readabilityHandler = { handle in collected.append(handle.availableData) }
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        /// Waits (up to ten minutes: the machine may be slow) until the output has `count` drawings.
        func drawings(_ count: Int) -> Bool {
            for _ in 0..<6_000 where collected.text.components(separatedBy: "Quick Capture · medium").count - 1 < count
            {
                Thread.sleep(forTimeInterval: 0.1)
            }
            return collected.text.components(separatedBy: "Quick Capture · medium").count - 1 >= count
        }
        #expect(drawings(1))
        #expect(try ConversationCommandTests.run(["say", "add pay the rent to my tasks"], store: store).status == 0)
        #expect(drawings(2), "another process's write redraws the widget")
        input.fileHandleForWriting.write(Data("1\n".utf8))
        #expect(drawings(3))
        // More than the watcher's one-second wait passes before q: the press's own write, which
        // drawing 3 shows, draws nothing more (it drew the widget a fourth time).
        Thread.sleep(forTimeInterval: 1.5)
        input.fileHandleForWriting.write(Data("q\n".utf8))
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let drawn = collected.text.components(separatedBy: "FocusBlox · Quick Capture · medium")
        #expect(drawn.count == 4)
        #expect(drawn[1].contains("buy milk") && !drawn[1].contains("pay the rent"))
        #expect(drawn[2].contains("buy milk") && drawn[2].contains("pay the rent"))
        #expect(drawn[2].hasSuffix("Nice — “buy milk” is done.\n"))
        #expect(!drawn[3].contains("buy milk") && drawn[3].contains("1 open"))
    }

    /// Output gathered from another thread.
    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()

        func append(_ more: Data) { lock.withLock { data.append(more) } }
        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
    }
}
