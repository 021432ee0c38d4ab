import Foundation
import Testing

/// Issue 22 at the command line: what another program wrote into a store is read as an error
/// naming its record and column, every `--json` output parses whatever the store holds, no raw
/// escape reaches stderr, and controls, undo and handoff do what a person expects.
@Suite("Defects at the command line")
struct DefectsCommandTests {
    let scratch = ScratchDirectory("defects")
    var directory: String { scratch.path }
    var store: String { directory + "/store.sqlite" }

    func intents(_ arguments: [String], input: String = "") throws -> CommandLineTests.Run {
        try ConversationCommandTests.run(arguments, store: store, input: Data(input.utf8))
    }

    /// Runs SQL on the store as another program would.
    static func sqlite(_ store: String, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", store, sql]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
    }

    static func parses(_ text: String) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil
    }

    // MARK: 2. A value its column cannot read

    @Test(
        "A REAL outside Int's range (or text) in an integer column is an error naming record and column",
        arguments: ["1e19", "-1e300", "'many'", "1.5"])
    func unreadableIntegerIsAnError(stored: String) throws {
        #expect(try intents(["say", "track rust"]).status == 0)
        try Self.sqlite(store, "UPDATE \"Radar.Radar\" SET refreshCount = \(stored)")
        for arguments in [["store", "list", "Radar"], ["widgets"], ["undo"], ["say", "refresh all radars"]] {
            let run = try intents(arguments)
            #expect(run.status < 128, "\(arguments) trapped: \(run.stderr)")
            #expect(run.status != 0, "\(arguments)")
            #expect(
                (run.stderr + run.stdout).contains("refreshCount holds"),
                "\(arguments): \(run.stdout) \(run.stderr)")
        }
    }

    @Test("export always works: an unreadable value is written as stored, reported, and refused by import")
    func exportAlwaysWorks() throws {
        #expect(try intents(["say", "track rust"]).status == 0)
        #expect(try intents(["say", "track swift"]).status == 0)
        try Self.sqlite(store, "UPDATE \"Radar.Radar\" SET refreshCount = 1e19 WHERE topic = 'rust'")
        let export = try intents(["store", "export"])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(Self.parses(export.stdout))
        #expect(export.stdout.contains("\"refreshCount\": 1e+19"))
        #expect(export.stdout.contains("\"topic\": \"swift\""))
        #expect(export.stderr.contains("warning: Radar ") && export.stderr.contains("refreshCount holds 1e+19"))
        let file = directory + "/export.json"
        try export.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let restore = try ConversationCommandTests.run(["store", "import", file], store: directory + "/new.sqlite")
        #expect(restore.status != 0)
        #expect(restore.stderr.contains("Radar.Radar[0]: Radar.refreshCount must be integer, not 1e+19"), "\(restore.stderr)")
    }

    // MARK: 10. JSON outputs parse whatever the store holds

    static let hostile = "'a' || char(1) || 'b' || char(27) || '[2J' || char(127) || char(128) || char(155) || char(159) || 'z'"

    @Test("Every --json output parses with stored C0, C1 and DEL characters")
    func jsonOutputsParse() throws {
        #expect(try intents(["say", "track rust"]).status == 0)
        #expect(try intents(["say", "add a task buy milk"]).status == 0)
        #expect(try intents(["say", "start a focus block called deep work for 25 minutes"]).status == 0)
        try Self.sqlite(
            store,
            "UPDATE \"Radar.Radar\" SET topic = \(Self.hostile); UPDATE \"FocusBlox.Task\" SET title = \(Self.hostile); "
                + "UPDATE \"FocusBlox.FocusBlock\" SET title = \(Self.hostile); UPDATE _executions SET dialog = \(Self.hostile); "
                + "UPDATE _names SET name = \(Self.hostile)")
        for arguments in [
            ["store", "list", "Radar", "--json"], ["store", "list", "Task", "--json"], ["say", "--json", "what's next"],
            ["search", "--json", "a"], ["store", "history", "--json"], ["activities", "--json"], ["widgets", "--json"],
            ["store", "export"], ["say", "--json", "refresh all radars"],
        ] {
            let run = try intents(arguments)
            #expect(Self.parses(run.stdout), "\(arguments): \(run.stdout)")
            #expect(!run.stdout.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) || $0 == "\u{1B}" })
        }
    }

    // MARK: 11. No raw escape on stderr

    @Test(
        "Errors quoting what was typed or read escape control characters",
        arguments: [
            ["describe", "Fo\u{1B}[2Jo"], ["store", "list", "T\u{1B}]0;x\u{07}ask"], ["widget", "x\u{1B}[2Jy"],
            ["control", "x\u{1B}[2Jy"], ["run", "x\u{1B}[2J.yaml"],
        ])
    func errorsEscapeWhatTheyQuote(arguments: [String]) throws {
        let run = try intents(arguments)
        #expect(run.status != 0)
        #expect(!run.stderr.contains("\u{1B}") && !run.stderr.contains("\u{07}"), "\(run.stderr)")
        #expect(run.stderr.contains(#"\u{1B}"#), "\(run.stderr)")
    }

    @Test("batch error lines and check's source lines escape control characters")
    func batchAndCheckEscape() throws {
        let phrases = directory + "/phrases.txt"
        try "refresh \u{1B}[2Jnothing\n".write(toFile: phrases, atomically: true, encoding: .utf8)
        let batch = try intents(["batch", phrases])
        #expect(batch.status != 0)
        #expect(!batch.stderr.contains("\u{1B}"), "\(batch.stderr)")
        let app = directory + "/Intents/evil"
        try FileManager.default.createDirectory(atPath: app, withIntermediateDirectories: true)
        try "app: Evil\nintents:\n  X:\n    title: \"x\u{1B}[2Jy\"\n".write(
            toFile: app + "/app.yaml", atomically: true, encoding: .utf8)
        let check = try intents(["check", directory + "/Intents"])
        #expect(check.status != 0)
        #expect(!check.stderr.contains("\u{1B}"), "\(check.stderr)")
        #expect(check.stderr.contains(#"    title: "x\u{1B}[2Jy""#), "\(check.stderr)")
    }

    // MARK: 16. A toggle named alone is shown

    @Test("control NAME with no state shows the toggle and changes nothing; toggle toggles")
    func controlWithoutStateShows() throws {
        #expect(try intents(["control", "Focus", "on"]).status == 0)
        let shown = try intents(["control", "Focus"])
        #expect(shown.status == 0)
        #expect(shown.stdout == "● on   ◷ Focus  (FocusBlox)\n")
        let json = try intents(["control", "Focus", "--json"])
        #expect(json.stdout.contains("\"isOn\":true"))
        #expect(try intents(["controls"]).stdout.contains("● on   ◷ Focus"))
        let repl = try intents([], input: ":control Focus\n")
        #expect(repl.stdout.contains("● on   ◷ Focus  (FocusBlox)"))
        #expect(try intents(["controls"]).stdout.contains("● on   ◷ Focus"))
        #expect(try intents(["control", "Focus", "toggle"]).status == 0)
        #expect(try intents(["controls"]).stdout.contains("○ off  ◷ Focus"))
    }

    // MARK: 17. Undo takes the donation back; one current activity per app

    @Test("undo removes the undone intent's donation from suggestions")
    func undoForgetsTheDonation() throws {
        #expect(try intents(["say", "track rust"]).status == 0)
        #expect(try intents(["store", "history", "--donations", "--json"]).stdout.contains("Radar.CreateRadar"))
        #expect(try intents(["undo"]).status == 0)
        let donations = try intents(["store", "history", "--donations", "--json"])
        #expect(!donations.stdout.contains("Radar.CreateRadar"), "\(donations.stdout)")
        #expect(!(try intents(["suggest"]).stdout.contains("Create Radar")))
    }

    @Test("Three opens leave one current activity for the app, the newest")
    func oneCurrentActivityPerApp() throws {
        #expect(try intents(["say", "track rust"]).status == 0)
        #expect(try intents(["say", "track swift"]).status == 0)
        for topic in ["rust", "rust", "swift"] { #expect(try intents(["say", "open \(topic) radar"]).status == 0) }
        let list = try intents(["continue", "--list"])
        let lines = list.stdout.split(separator: "\n").filter { $0.contains("view-radar") }
        #expect(lines.count == 1, "\(list.stdout)")
        #expect(lines.first?.contains("“swift”") == true, "\(list.stdout)")
    }
}
