import Foundation
import TestSupport
import Testing

/// Hostile text and files from the command line: terminal escapes, `run:` paths, store paths.
@Suite("Safety at the command line", .tags(.slow), .skippedWhenFast)
struct SafetyCommandTests {
    let scratch = ScratchDirectory("safety")
    var directory: String { scratch.path }
    var store: String { directory + "/store.sqlite" }

    func intents(_ arguments: [String], input: Data = Data()) throws -> CommandLineTests.Run {
        try ConversationCommandTests.run(arguments, store: store, input: input)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = directory + "/" + name
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let evil = "evil\u{1B}[2J\u{1B}]0;pwned\u{07}"

    // MARK: 15. Terminal escapes

    @Test("Stored text with control characters is printed escaped, never raw")
    func storedTextIsEscapedOnOutput() throws {
        // A store written by another program (or an older version) may hold anything.
        #expect(try intents(["say", "add placeholder to my tasks"]).status == 0)
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = [
            "sqlite3", store,
            "UPDATE \"FocusBlox.Task\" SET title = 'evil' || char(27) || '[2J' || char(27) || ']0;pwned' || char(7)",
        ]
        try sqlite.run()
        sqlite.waitUntilExit()
        try #require(sqlite.terminationStatus == 0)
        let list = try intents(["store", "list", "Task"])
        #expect(!list.stdout.contains("\u{1B}") && !list.stdout.contains("\u{07}"))
        #expect(list.stdout.contains(#"evil\u{1B}[2J\u{1B}]0;pwned\u{7}"#))
        let repl = try intents([], input: Data(":list Task\nwhat's next\n".utf8))
        #expect(!repl.stdout.contains("\u{1B}") && !repl.stdout.contains("\u{07}"))
        #expect(repl.stdout.contains(#"evil\u{1B}[2J"#))
        let say = try intents(["say", "what's next"])
        #expect(!say.stdout.contains("\u{1B}"))
    }

    @Test("Stored text quoted in an error on stderr is escaped too")
    func storedTextIsEscapedInErrors() throws {
        #expect(try intents(["say", "add placeholder to my tasks"]).status == 0)
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = [
            "sqlite3", store,
            "UPDATE \"FocusBlox.Task\" SET isCompleted = 1, title = 'evil ' || char(27) || '[2J'; "
                + "UPDATE _names SET name = 'evil ' || char(27) || '[2J'",
        ]
        try sqlite.run()
        sqlite.waitUntilExit()
        let phrases = try write("phrases.txt", "complete evil\n")
        let batch = try intents(["batch", phrases])
        #expect(batch.status == 1)
        #expect(batch.stderr.contains("is already done"), "\(batch.stderr)")
        #expect(!batch.stderr.contains("\u{1B}"))
        let file = try write("s/complete.yaml", "shortcut: C\nsteps:\n  - say: \"complete evil\"\n")
        let run = try intents(["run", file])
        #expect(run.status == 1)
        #expect(run.stderr.contains("is already done"), "\(run.stderr)")
        #expect(!run.stderr.contains("\u{1B}"))
    }

    @Test("Control characters are refused on every input path")
    func controlCharactersAreRefusedOnInput() throws {
        let export = try write("evil.json", #"{"Task": [{"title": "evil\u001b[2J"}]}"#)
        let imported = try intents(["store", "import", export])
        #expect(imported.status != 0)
        #expect(imported.stderr.contains("control character (U+001B)"))

        let answers = try write("answers.txt", Self.evil + "\n25\n")
        let run = try intents(["run", "Shortcuts/plan-my-day.yaml", "--answers", answers])
        #expect(run.status != 0)
        #expect(run.stderr.contains("control character (U+001B)"))
        #expect(!run.stderr.contains("\u{1B}[2J"))

        let input = try intents(["run", "Shortcuts/morning-review.yaml", "--input", "minutes=2\u{1B}[2J5"])
        #expect(input.status == 2)
        #expect(input.stderr.contains("control character (U+001B)"))

        let repl = try intents([], input: Data("add \(Self.evil) to my tasks\n".utf8))
        #expect(repl.stdout.contains("control character"))
        let list = try intents(["store", "list", "Task", "--json"])
        #expect(!list.stdout.contains("pwned"))
    }

    // MARK: 16. run: paths

    @Test("run: sub/../self.yaml is the file running itself, found at once")
    func runThroughDotDotIsItself() throws {
        try FileManager.default.createDirectory(atPath: directory + "/s/sub", withIntermediateDirectories: true)
        let path = try write("s/d.yaml", "shortcut: D\nsteps:\n  - run: sub/../d.yaml\n")
        let started = Date()
        let run = try intents(["run", path])
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(run.status == 1)
        #expect(run.stderr.contains("runs itself"))
    }

    @Test(
        "run: outside the shortcut's folder is refused without reading the file",
        arguments: ["/etc/passwd", "../../../../../../../../../../etc/passwd", "/etc/hostname"])
    func runOutsideIsRefused(_ target: String) throws {
        let path = try write("s/leak.yaml", "shortcut: Leak\nsteps:\n  - run: \(target)\n")
        let run = try intents(["run", path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("outside"))
        #expect(!run.stderr.contains("root:"))
        #expect(!run.stderr.contains("Shortcuts/etc"))
        #expect(!run.stderr.contains("s/etc/"))
    }

    @Test("A flag allows running a file outside the folder")
    func runOutsideWithTheFlag() throws {
        _ = try write("other/child.yaml", "shortcut: Child\nsteps:\n  - output: \"from outside\"\n")
        let path = try write(
            "s/parent.yaml", "shortcut: Parent\nsteps:\n  - run: ../other/child.yaml\n    as: x\n  - output: \"${x}\"\n"
        )
        let refused = try intents(["run", path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("outside"))
        let allowed = try intents(["run", "--run-anywhere", path])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout.contains("from outside"))
    }

    // MARK: 19. Store paths

    @Test(
        "A store that cannot be a store says why, in words a user can act on",
        arguments: [
            ("directory", "is a directory, not a store file"),
            ("file/store.sqlite", "is a file, not a directory"),
            ("/dev/null", "is not a regular file"),
        ])
    func unusableStore(_ name: String, _ message: String) throws {
        try FileManager.default.createDirectory(atPath: directory + "/directory", withIntermediateDirectories: true)
        _ = try write("file", "not a directory")
        let path = name.hasPrefix("/") ? name : directory + "/" + name
        let run = try ConversationCommandTests.run(["say", "add milk to my tasks"], store: path)
        #expect(run.status == 1)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(!run.stderr.contains("NSCocoaErrorDomain"))
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-journal"))
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-wal"))
    }
}

/// 17. Definitions reached through symlinks; folders without apps.
@Suite("Definitions folders: symlinks followed, loops detected, empty folders reported")
struct DefinitionFolderTests {
    let scratch = ScratchDirectory("folders")
    var directory: String { scratch.path }

    init() throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: directory + "/real/radar", withIntermediateDirectories: true)
        try manager.copyItem(
            atPath: CommandLineTests.root + "/Intents/radar/app.yaml", toPath: directory + "/real/radar/app.yaml")
        try manager.createSymbolicLink(atPath: directory + "/linked", withDestinationPath: directory + "/real")
        try manager.createDirectory(atPath: directory + "/apps", withIntermediateDirectories: true)
        try manager.createSymbolicLink(
            atPath: directory + "/apps/radar", withDestinationPath: directory + "/real/radar")
        try manager.createDirectory(atPath: directory + "/looping/radar", withIntermediateDirectories: true)
        try manager.copyItem(
            atPath: CommandLineTests.root + "/Intents/radar/app.yaml", toPath: directory + "/looping/radar/app.yaml")
        try manager.createSymbolicLink(
            atPath: directory + "/looping/radar/again", withDestinationPath: directory + "/looping")
        try manager.createDirectory(atPath: directory + "/empty/nothing", withIntermediateDirectories: true)
    }

    @Test(
        "A symlinked definitions folder, app folder, or a loop of links loads the app once",
        arguments: ["linked", "apps", "looping"])
    func followsSymlinks(_ folder: String) throws {
        let run = try CommandLineTests.intents(["graph", "--intents", directory + "/" + folder])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Radar"))
        #expect(run.stderr.isEmpty)
        let check = try CommandLineTests.intents([
            "check", directory + "/" + folder, "--shortcuts", directory + "/none",
        ])
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test("A folder without apps says so")
    func emptyFolder() throws {
        let run = try CommandLineTests.intents(["check", directory + "/empty"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("no apps found in '\(directory)/empty'"))
    }
}

/// 25. `intents check DIR` checks the shortcut files that belong with DIR.
@Suite("check DIR: the Shortcuts folder beside DIR")
struct CheckShortcutFolderTests {
    @Test("check DIR reads DIR/../Shortcuts, not the current folder's; --shortcuts may name files")
    func shortcutsBesideTheDefinitions() throws {
        let scratch = ScratchDirectory("check")
        let directory = scratch.path
        let manager = FileManager.default
        try manager.createDirectory(atPath: directory + "/Intents/radar", withIntermediateDirectories: true)
        try manager.copyItem(
            atPath: CommandLineTests.root + "/Intents/radar/app.yaml", toPath: directory + "/Intents/radar/app.yaml")
        let clean = try CommandLineTests.intents(["check", directory + "/Intents", "--no-sampling"])
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(!clean.stderr.contains("morning-review"))

        try manager.createDirectory(atPath: directory + "/Shortcuts", withIntermediateDirectories: true)
        try "shortcut: Bad\nsteps:\n  - intent: Radar.CreateRadr\n".write(
            toFile: directory + "/Shortcuts/bad.yaml", atomically: true, encoding: .utf8)
        let broken = try CommandLineTests.intents(["check", directory + "/Intents", "--no-sampling"])
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("Shortcuts/bad.yaml:3:13: error: unknown intent"), "\(broken.stderr)")

        let named = try CommandLineTests.intents(
            ["check", "--no-sampling", "--shortcuts", CommandLineTests.root + "/Shortcuts/morning-review.yaml"])
        #expect(named.status == 0, "\(named.stderr)")
    }
}

@Suite("intents-bench --help")
struct BenchHelpTests {
    @Test("--help prints the usage at once instead of running every benchmark", arguments: ["--help", "-h", "help"])
    func help(_ flag: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: IntentsBinary.executable("intents-bench"))
        process.arguments = [flag]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        // Running every benchmark takes many minutes; the usage takes a moment even on a loaded machine.
        let deadline = Date().addingTimeInterval(300)
        while process.isRunning, Date() < deadline { usleep(50_000) }
        let finished = !process.isRunning
        if !finished { process.terminate() }
        #expect(finished, "still running after 300 s")
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0 || !finished)
        #expect(text.hasPrefix("Usage: intents-bench"))
    }
}

@Suite("The REPL at a terminal: undo as a phrase, history without answers")
struct ReplTerminalTests {
    let scratch = ScratchDirectory("repl")
    var directory: String { scratch.path }

    @Test("undo typed at the prompt works like :undo")
    func undoAsAPhrase() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let run = try ConversationCommandTests.run(
            [], store: directory + "/store.sqlite", input: Data("add milk to my tasks\nundo\n:list Task\n".utf8))
        #expect(run.stdout.contains("Undid Create Task"), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("No task records.\n"))
    }

    @Test("Answers to questions are not kept in the history (run under a pseudo-terminal)")
    func historyKeepsPhrasesOnly() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = [
            "-qec", IntentsBinary.path + " --intents " + CommandLineTests.root + "/Intents", "/dev/null",
        ]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment
        environment["INTENTS_STORE"] = directory + "/store.sqlite"
        environment["INTENTS_NOW"] = "2026-11-22T10:00:00Z"
        environment["TZ"] = "UTC"
        process.environment = environment
        let input = Pipe(), out = Pipe()
        process.standardInput = input
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        let output = OutputCollector(out.fileHandleForReading)
        input.fileHandleForWriting.write(Data("add milk to my tasks\nstart a focus block\ntaxes\n".utf8))
        // Once the answer to the question is printed, every line has been taken and the history
        // saved; then Ctrl-D ends the REPL. The deadline only stops a run that hangs.
        let deadline = Date().addingTimeInterval(600)
        while process.isRunning, Date() < deadline, !output.text.contains("Focusing on") { usleep(50_000) }
        input.fileHandleForWriting.write(Data("\u{04}".utf8))
        // `script` itself stays until its own input ends.
        try input.fileHandleForWriting.close()
        while process.isRunning, Date() < deadline { usleep(50_000) }
        let finished = !process.isRunning
        if !finished { process.terminate() }
        output.finish()
        #expect(finished, "the REPL did not end at Ctrl-D: \(output.text)")
        let history = (try? String(contentsOfFile: directory + "/history", encoding: .utf8)) ?? ""
        #expect(history.contains("start\\040a\\040focus\\040block"), "\(history)")
        #expect(!history.contains("taxes"), "\(history)")
    }
}

@Suite("Reads beside a writer")
struct ReadsBesideAWriterTests {
    @Test("While another process holds the write lock, say --dry-run and store list answer at once")
    func dryRunWhileLocked() throws {
        let scratch = ScratchDirectory("lock")
        let directory = scratch.path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let store = directory + "/store.sqlite"
        #expect(try ConversationCommandTests.run(["say", "add buy milk to my tasks"], store: store).status == 0)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["sqlite3", store]
        let input = Pipe()
        holder.standardInput = input
        holder.standardOutput = Pipe()
        try holder.run()
        input.fileHandleForWriting.write(Data("BEGIN IMMEDIATE;\nUPDATE \"FocusBlox.Task\" SET title = title;\n".utf8))
        usleep(500_000)
        defer {
            try? input.fileHandleForWriting.close()
            holder.waitUntilExit()
        }
        // Had either waited for the lock, it would have failed after the store's busy timeout (the
        // holder keeps it until the end): their success is the proof, not a stopwatch.
        let dry = try ConversationCommandTests.run(["say", "--dry-run", "add eggs to my tasks"], store: store)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("dry run"))
        let list = try ConversationCommandTests.run(["store", "list", "Task"], store: store)
        #expect(list.stdout.contains("buy milk"), "\(list.stderr)")
    }
}
