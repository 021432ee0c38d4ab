import Foundation
import IntentModel
import TestSupport
import Testing

/// Issue 22 at the command line: what another program wrote into a store is read as an error
/// naming its record and column, every `--json` output parses whatever the store holds, no raw
/// escape reaches stderr, and controls, undo and handoff do what a person expects.
@Suite("Defects at the command line", .tags(.slow), .skippedWhenFast)
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
        #expect(
            restore.stderr.contains("Radar.Radar[0]: Radar.refreshCount must be integer, not 1e+19"),
            "\(restore.stderr)")
    }

    // MARK: 10. JSON outputs parse whatever the store holds

    static let hostile =
        "'a' || char(1) || 'b' || char(27) || '[2J' || char(127) || char(128) || char(155) || char(159) || 'z'"

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
            ["store", "list", "Radar", "--json"], ["store", "list", "Task", "--json"],
            ["say", "--json", "what's next"],
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

// MARK: 5. Import refuses what it cannot keep as given

extension DefectsCommandTests {
    struct BadImport: Sendable, CustomTestStringConvertible {
        var bytes: [UInt8]
        var message: String
        var testDescription: String { message }

        init(_ text: String, _ message: String) {
            bytes = Array(text.utf8)
            self.message = message
        }

        init(bytes: [UInt8], _ message: String) {
            self.bytes = bytes
            self.message = message
        }
    }

    static let badImports: [BadImport] = [
        BadImport(
            bytes: Array(#"{"Radar.Radar": [{"topic": "ok"}, {"topic": "a"#.utf8) + [0xFF] + Array(#"b"}]}"#.utf8),
            "Radar.Radar[1] holds bytes that are not UTF-8 text"),
        BadImport(#"{"Radar.Radar": [{"id": "", "topic": "ab"}]}"#, "Radar.Radar[0]: Radar.id: the id is empty"),
        BadImport(
            #"{"Radar.Radar": [{"id": "a b", "topic": "ab"}]}"#,
            #"Radar.Radar[0]: Radar.id: the id "a b" may hold only"#),
        BadImport(
            #"{"Radar.Radar": [{"id": "../x", "topic": "ab"}]}"#,
            #"Radar.Radar[0]: Radar.id: the id "../x" may hold only"#),
        BadImport(
            #"{"Radar.Radar": [{"id": "x1", "topic": "ab"}, {"id": "x1", "topic": "cd"}]}"#,
            #"Radar.Radar[1]: the id "x1" is already taken"#),
        BadImport(
            #"{"sideBar.Website": [{"url": "not a url", "title": "t"}]}"#,
            #"sideBar.Website[0]: Website.url: "not a url" is not a URL"#),
        BadImport(
            #"{"sideBar.Website": [{"url": "example.com", "title": "t"}]}"#,
            #"sideBar.Website[0]: Website.url: "example.com" is not a URL"#),
    ]

    @Test("store import refuses each bad record by its position and changes nothing", arguments: badImports)
    func importRefuses(_ bad: BadImport) throws {
        let bytes = bad.bytes, message = bad.message
        #expect(try intents(["say", "track rust"]).status == 0)
        let file = directory + "/import.json"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let before = try intents(["store", "export"]).stdout
        let run = try intents(["store", "import", file])
        #expect(run.status != 0)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(try intents(["store", "export"]).stdout == before)
    }

    @Test("A key from another system is a fine id, and import keeps it")
    func otherSystemsKeysAreIds() throws {
        let file = directory + "/import.json"
        try #"{"Radar.Radar": [{"id": "rust-2024_v1.0~x", "topic": "rust"}]}"#.write(
            toFile: file, atomically: true, encoding: .utf8)
        #expect(try intents(["store", "import", file]).stdout == "Imported 1 record.\n")
        #expect(try intents(["store", "list", "Radar", "--json"]).stdout.contains(#""id":"rust-2024_v1.0~x""#))
    }
}

// MARK: 8. Every input is limited as its bytes arrive

extension DefectsCommandTests {
    struct Measured {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Peak resident memory of the process, in KB (`/usr/bin/time -f %M`).
        var peakKB: Int
    }

    /// Runs `intents` under `/usr/bin/time`, its standard input fed `total` bytes made by
    /// repeating `pattern` (or a file given as `stdin`), and reports its peak memory.
    func measured(
        _ arguments: [String], pattern: [UInt8] = [], total: Int = 0, stdin: String? = nil, in folder: String = ""
    ) throws -> Measured {
        let timing = directory + "/time-\(UUID().uuidString)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M", "-o", timing, IntentsBinary.path] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: PathText.appending(CommandLineTests.root, folder))
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["INTENTS_STORE"] = store
        environment["INTENTS_NOW"] = "2026-11-22T10:00:00Z"
        process.environment = environment
        let input = Pipe(), out = Pipe(), err = Pipe()
        if let stdin {
            process.standardInput = FileHandle(forReadingAtPath: stdin)
        } else {
            process.standardInput = input
        }
        process.standardOutput = out
        process.standardError = err
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        let writer = Thread {
            guard stdin == nil else { return }
            let handle = input.fileHandleForWriting
            var chunk: [UInt8] = []
            while chunk.count < 1 << 16 { chunk += pattern }
            var written = 0
            while written < total {
                // The process may stop reading (it refused the input): then the write fails.
                guard (try? handle.write(contentsOf: chunk)) != nil else { break }
                written += chunk.count
            }
            try? handle.close()
        }
        writer.start()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let peak =
            (try? String(contentsOfFile: timing, encoding: .utf8))?
            .split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        return Measured(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self), peakKB: peak)
    }

    /// Far below the input: the process held no more than a line (plus what it always holds).
    static let boundedKB = 200_000

    @Test("say < /dev/zero is refused at once, not read whole")
    func sayFromZeros() throws {
        let run = try measured(["say"], stdin: "/dev/zero")
        #expect(run.status == 2)
        #expect(run.stderr.contains("holds a NUL byte"), "\(run.stderr)")
        #expect(run.peakKB < Self.boundedKB)
    }

    @Test("A line longer than the limit is refused at its limit and the next line answered")
    func longLineThenPhrase() throws {
        var input = Array(repeating: UInt8(ascii: "x"), count: 300 << 20)
        input += Array("\ntrack rust\n".utf8)
        let file = directory + "/input.txt"
        try Data(input).write(to: URL(fileURLWithPath: file))
        input = []
        for arguments in [["say"], []] {
            let run = try measured(arguments, stdin: file)
            #expect(
                run.stdout.contains("Now tracking “rust”") || run.stdout.contains("You already track “rust”"),
                "\(arguments): \(run.stdout)")
            #expect(run.stderr.contains("line 1"), "\(arguments): \(run.stderr)")
            #expect(run.peakKB < Self.boundedKB, "\(arguments): \(run.peakKB) KB")
        }
    }

    @Test("Endless phrases through a pipe: each answered as it comes, memory flat")
    func endlessPhrases() throws {
        // 40 MB of one short phrase: answering them all would take long; the process is killed by
        // the closed pipe or finishes, and in either case never held the input.
        let run = try measured(["batch", "-"], pattern: Array("what's next\n".utf8), total: 40 << 20)
        #expect(run.status == 2)
        #expect(run.stderr.contains("is more than 16 MB"), "\(run.stderr)")
        #expect(run.peakKB < Self.boundedKB)
        let answers = try measured(
            ["run", "Shortcuts/morning-review.yaml", "--answers", "-"], pattern: Array("yes\n".utf8), total: 40 << 20)
        #expect(answers.status == 2)
        #expect(answers.stderr.contains("is more than 16 MB"), "\(answers.stderr)")
        #expect(answers.peakKB < Self.boundedKB)
    }

    @Test("A definition or shortcut file over 4 MB is refused after 4 MB, whatever its size")
    func hugeYAML() throws {
        let intents = directory + "/Intents/huge"
        try FileManager.default.createDirectory(atPath: intents, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: intents + "/app.yaml", withDestinationPath: "/dev/zero")
        let check = try measured(["check", directory + "/Intents"])
        #expect(check.status == 1)
        #expect(check.stderr.contains("app.yaml:1:1: error: the file is more than 4 MB"), "\(check.stderr)")
        #expect(check.peakKB < Self.boundedKB)
        let shortcut = directory + "/zero.yaml"
        try FileManager.default.createSymbolicLink(atPath: shortcut, withDestinationPath: "/dev/zero")
        let run = try measured(["run", shortcut, "--run-anywhere"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("the file is more than 4 MB; a shortcut file is at most 4 MB"), "\(run.stderr)")
        #expect(run.peakKB < Self.boundedKB)
    }

    @Test("One huge string in an import is refused as it arrives")
    func hugeImportString() throws {
        var text = Array(#"{"Radar.Radar": [{"topic": ""#.utf8)
        text += Array(repeating: UInt8(ascii: "x"), count: 300 << 20)
        text += Array(#""}]}"#.utf8)
        let file = directory + "/big.json"
        try Data(text).write(to: URL(fileURLWithPath: file))
        text = []
        let run = try measured(["store", "import", file])
        #expect(run.status != 0)
        #expect(run.stderr.contains("Radar.Radar[0] holds a text longer than 1 MB"), "\(run.stderr)")
        #expect(run.peakKB < Self.boundedKB)
    }
}

// MARK: 3. Shared content holds no control character

extension DefectsCommandTests {
    @Test(
        "share neutralises control characters in a URL's title and refuses them in text, links and file names",
        arguments: [
            (["share", "--to", "Radar", "https://example.com/a/%1B%5B2J"], "Now tracking “[2J”"),
            (["share", "--to", "Radar", "https://example.com/nul%00topic"], "Now tracking “nul topic”"),
            (["share", "--to", "sideBar", "hello \u{9B} there"], "error: the text holds control characters"),
            (["share", "--to", "sideBar", "hello \u{7F} there"], "error: the text holds control characters"),
            (["share", "--to", "sideBar", "https://x.com/\u{1B}[2J"], "error: the link holds a control character"),
        ])
    func shareKeepsControlsOut(arguments: [String], expected: String) throws {
        let run = try intents(arguments)
        #expect((run.stdout + run.stderr).contains(expected), "\(run.stdout) \(run.stderr)")
        let export = try intents(["store", "export"]).stdout
        #expect(!export.contains(#"\u00"#), "\(export)")
        #expect(!export.contains(#"\u001b"#) && !export.contains(#"\u009b"#))
    }

    @Test("A file whose name holds ESC is refused, not stored")
    func shareFileWithEscape() throws {
        let file = directory + "/f\u{1B}[2Jname.txt"
        try "hello".write(toFile: file, atomically: true, encoding: .utf8)
        let run = try intents(["share", "--file", file])
        #expect(run.status != 0)
        #expect(run.stderr.contains("the file's path holds a control character (U+001B)"), "\(run.stderr)")
        #expect(!run.stderr.contains("\u{1B}"))
        #expect(try intents(["store", "list", "Attachment"]).stdout.hasPrefix("No attachment records"))
    }
}

// MARK: 4. What intents writes, export writes and import reads back identically

extension DefectsCommandTests {
    /// Every bundled example phrase, then the shortcuts, then shares: a store filled only through `intents`.
    func fillThroughIntents(extra: [String] = []) throws {
        var phrases = Bundled.graph.intents.flatMap(\.examples).map(\.say)
        phrases += extra
        let file = directory + "/phrases.txt"
        try phrases.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        _ = try intents(["batch", "--yes", file])
        for shortcut in ["morning-review", "plan-my-day", "reading-list", "weekly-cleanup", "fortune-for-every-sign"] {
            _ = try intents(["run", "Shortcuts/\(shortcut).yaml", "--answers", "-"], input: "yes\nrust\n2\n")
        }
        for shared in [
            ["share", "--to", "sideBar", "https://example.com/articles/quantum-computing.html"],
            ["share", "--to", "Radar", "https://example.com/a/%E2%80%9Cquoted%E2%80%9D%20%5C%22back%22"],
            ["share", "--to", "sideBar", "a note\nwith two lines\tand a tab, \"quotes\" and \\ backslashes"],
        ] {
            _ = try intents(shared)
        }
        try "file".write(toFile: directory + "/notes.txt", atomically: true, encoding: .utf8)
        _ = try intents(["share", "--file", directory + "/notes.txt"])
    }

    /// Exports, imports into a new store, exports again: the two exports are the same bytes.
    func expectRoundTrip(_ context: String = "") throws {
        let first = try intents(["store", "export"])
        #expect(first.status == 0 && first.stderr.isEmpty, "\(first.stderr)")
        let file = directory + "/export.json"
        try first.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let restored = directory + "/restored.sqlite"
        let load = try ConversationCommandTests.run(["store", "import", file], store: restored)
        #expect(load.status == 0, "\(context) \(load.stderr)")
        let second = try ConversationCommandTests.run(["store", "export"], store: restored)
        #expect(second.stdout == first.stdout, "\(context)")
    }

    @Test("Every bundled example, shortcut and share: export, import, export again gives the same bytes")
    func bundledRoundTrip() throws {
        try fillThroughIntents()
        let export = try intents(["store", "export"]).stdout
        #expect(export.components(separatedBy: "\"id\"").count > 20, "\(export)")
        try expectRoundTrip()
    }

    @Test("A fuzzed store (phrases of random text) round-trips byte for byte")
    func fuzzedRoundTrip() throws {
        var random = SystemRandomNumberGenerator()
        var seed = UInt64.random(in: 0...UInt64.max, using: &random)
        let context = "seed \(seed)"
        func next() -> UInt64 {
            seed &+= 0x9E37_79B9_7F4A_7C15
            var z = seed
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        // Letters, quotes, backslashes, emoji, combining marks, RTL, look-alikes; and the
        // characters every input path must refuse (C0, DEL, C1), which must never reach the store.
        let pieces = [
            "a", "Z", "ß", "é", "e\u{301}", "\"", "\\", "'", "“", "”", "😀", "👩‍👩‍👧", "\u{202E}", "א", "日本",
            "\u{1B}[2J", "\u{9B}", "\u{7F}", "\u{0}", "\u{85}", "\u{2028}", "%1B", "%00", "/", " ", "  ", "0", "1e19",
        ]
        var phrases: [String] = []
        for _ in 0..<60 {
            var text = ""
            for _ in 0..<(1 + Int(next() % 6)) { text += pieces[Int(next() % UInt64(pieces.count))] }
            let template = [
                "add a task \(text)", "track \(text)", "note \(text)", "save https://example.com/\(text)",
                "start a focus block called \(text) for 10 minutes",
            ]
            phrases.append(template[Int(next() % UInt64(template.count))])
        }
        // Lines the batch reads as one phrase each (a line break inside a piece would split it).
        try fillThroughIntents(
            extra: phrases.map {
                $0.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\u{2028}", with: " ")
            })
        let export = try intents(["store", "export"]).stdout
        #expect(
            !export.contains(#"\u001b"#) && !export.contains(#"\u009b"#) && !export.contains(#"\u0000"#), "\(context)")
        try expectRoundTrip(context)
    }
}

// MARK: 15. A shortcut run by its bare name runs the files beside it

extension DefectsCommandTests {
    @Test("In Shortcuts/, run plan-my-day.yaml runs morning-review.yaml beside it, with or without --run-anywhere")
    func runByBareName() throws {
        let answers = directory + "/answers.txt"
        try "ship the release\n25\n".write(toFile: answers, atomically: true, encoding: .utf8)
        for extra in [[], ["--run-anywhere"]] {
            let run = try measured(
                ["run", "plan-my-day.yaml", "--intents", "../Intents", "--dry-run", "--answers", answers] + extra,
                in: "Shortcuts")
            #expect(run.status == 0, "\(extra): \(run.stderr)")
            #expect(!run.stderr.contains("outside the folders") && !run.stderr.contains("'/morning-review.yaml'"))
        }
    }
}

extension DefectsCommandTests {
    /// Found by FuzzImport: Foundation's Gregorian calendar is Julian before 1582, `gmtime` is not,
    /// so a date of 1013 moved by 12 days on each import.
    @Test(
        "A date before 1583 survives export and import",
        arguments: ["1013-12-05T09:00:00Z", "0001-01-01T00:00:00Z", "1582-10-10T12:30:00Z"])
    func earlyDatesRoundTrip(date: String) throws {
        let file = directory + "/early.json"
        try
            #"{"FocusBlox.Task": [{"id": "t1", "title": "old", "due": "\#(date)", "createdAt": "2026-11-22T10:00:00Z", "updatedAt": "2026-11-22T10:00:00Z"}]}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try intents(["store", "import", file]).status == 0)
        #expect(try intents(["store", "export"]).stdout.contains(#""due": "\#(date)""#))
        try expectRoundTrip(date)
    }
}
