import Foundation
import TestSupport
import Testing

/// 22.14. Small things a new user meets at the command line, each through the binary.
@Suite("Command-line fixes", .tags(.slow), .skippedWhenFast)
struct CommandLineFixesTests {
    let scratch = ScratchDirectory("cli-fixes")
    var directory: String { scratch.path }
    var store: String { directory + "/store.sqlite" }

    func intents(_ arguments: [String]) throws -> CommandLineTests.Run {
        try ConversationCommandTests.run(arguments, store: store)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = directory + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("suggest --at takes what widgets --at takes")
    func suggestAt() throws {
        let suggest = try intents(["suggest", "--at", "tomorrow at 9"])
        #expect(suggest.status == 0, "\(suggest.stderr)")
        let widgets = try intents(["widgets", "--at", "tomorrow at 9"])
        #expect(widgets.status == 0, "\(widgets.stderr)")
        #expect(try intents(["suggest", "--at", "2026-11-23T09:00"]).status == 0)
    }

    @Test(
        "--intents and --store may come before the command",
        arguments: [
            ["--intents", "Intents", "say", "add buy milk to my tasks"],
            ["--intents=Intents", "say", "add buy milk to my tasks"],
            ["--intents", "Intents", "store", "list", "Task"],
        ])
    func globalOptionsFirst(_ arguments: [String]) throws {
        let run = try intents(arguments)
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test("Outside a project the error says how to point at one")
    func outsideAProject() throws {
        let run = try CommandLineTests.intents(["say", "hi"], in: directory)
        #expect(run.status == 1)
        #expect(run.stderr.contains("--intents DIR"), "\(run.stderr)")
        #expect(run.stderr.contains("intents init"), "\(run.stderr)")
    }

    @Test("A misspelt file name given to share is refused with the name meant, not shared as text")
    func shareMisspeltFile() throws {
        _ = try write("report.pdf", "%PDF-1.4\n")
        let run = try intents(["share", directory + "/repot.pdf"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("no such file; did you mean 'report.pdf'?"), "\(run.stderr)")
        let bare = try CommandLineTests.intents(
            ["share", "--intents", CommandLineTests.root + "/Intents", "--store", store, "repot.pdf"], in: directory)
        #expect(bare.status == 2, "\(bare.stdout)")
        #expect(bare.stderr.contains("repot.pdf: no such file; did you mean 'report.pdf'?"), "\(bare.stderr)")
        // Words are still text.
        #expect(try intents(["share", "--dry-run", "--to", "sideBar", "a note about swift"]).status == 0)
    }

    @Test("A symlink to a readable file is shared as that file")
    func shareSymlink() throws {
        let target = try write("notes.txt", "some notes\n")
        let link = directory + "/link.txt"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let run = try intents(["share", "--dry-run", "--to", "sideBar", "--file", link])
        #expect(!run.stderr.contains("cannot be read"), "\(run.stderr)")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    }

    @Test(
        "A bad option value prints the command's usage, not the root's",
        arguments: [
            (["widgets", "--at", "bogus"], "Usage: intents widgets"),
            (["widgets", "--family", "bogus"], "Usage: intents widgets"),
            (["suggest", "--at", "bogus"], "Usage: intents suggest"),
        ])
    func usageOfTheCommand(_ arguments: [String], _ usage: String) throws {
        let run = try intents(arguments)
        #expect(run.status == 2)
        #expect(run.stderr.contains(usage), "\(run.stderr)")
        #expect(!run.stderr.contains("<subcommand>"), "\(run.stderr)")
    }

    static let numberShortcut = """
        shortcut: Plus one
        input:
          n: { type: integer }
        steps:
          - output: "${n + 1}"
        """

    @Test(
        "--input n= takes decimal digits that fit 64 bits and nothing else",
        arguments: [
            ("9007199254740993", "9007199254740994"),
            ("-12", "-11"),
            ("+12", "13"),
        ])
    func integerInputs(_ given: String, _ output: String) throws {
        let file = try write("plus.yaml", Self.numberShortcut)
        let run = try intents(["run", file, "--input", "n=" + given])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(output), "\(run.stdout)")
    }

    @Test(
        "--input n= refuses hexadecimal, exponents and fractions for an integer",
        arguments: ["0x10", "1e3", "1.5", "99999999999999999999"])
    func integerInputsRefused(_ given: String) throws {
        let file = try write("plus.yaml", Self.numberShortcut)
        let run = try intents(["run", file, "--input", "n=" + given])
        #expect(run.status == 1, "\(run.stdout)")
        #expect(run.stderr.contains("--input n=\(given): not integer"), "\(run.stderr)")
    }

    @Test("Dividing by zero is an error naming the values", arguments: ["${10 / n}", "${10 % n}", "${10.5 / n}"])
    func divisionByZero(_ expression: String) throws {
        let file = try write(
            "divide.yaml",
            """
            shortcut: Divide
            input:
              n: { type: integer }
            steps:
              - output: "\(expression)"
            """)
        let run = try intents(["run", file, "--input", "n=0"])
        #expect(run.status == 1, "\(run.stdout)")
        #expect(run.stderr.contains("division by zero"), "\(run.stderr)")
    }
}

extension CommandLineFixesTests {
    @Test("A damaged store is named, with what to do, never SQLite's or Codable's raw text", arguments: [2, 10])
    func damagedStore(_ page: Int) throws {
        #expect(try intents(["say", "add buy milk to my tasks"]).status == 0)
        for number in 1...30 { _ = try intents(["say", "add task \(number) to my tasks"]) }
        // `store list` closes the store, so the write-ahead log is folded into the file.
        #expect(try intents(["store", "list", "Task"]).status == 0)
        let size = try #require(FileManager.default.attributesOfItem(atPath: store)[.size] as? Int)
        let handle = try #require(FileHandle(forWritingAtPath: store))
        try handle.seek(toOffset: UInt64(page * 4096))
        handle.write(Data((0..<max(0, size - page * 4096)).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }))
        try handle.close()
        let run = try intents(["say", "add buy eggs to my tasks"])
        let shown = run.stdout + run.stderr
        #expect(run.status == 1, "\(shown)")
        #expect(!shown.contains("SQLite error") && !shown.contains("DecodingError"), "\(shown)")
        #expect(shown.contains(store), "\(shown)")
        #expect(shown.contains("intents store export"), "\(shown)")
    }
}

extension CommandLineFixesTests {
    @Test("continue --list --json prints JSON")
    func continueListJSON() throws {
        let empty = try intents(["continue", "--list", "--json"])
        #expect(empty.status == 0)
        #expect(
            empty.stdout == #"{"version":1,"command":"continue","ok":true,"result":{"continuations":[]}}"# + "\n",
            "\(empty.stdout)")
        _ = try intents(["say", "--conversation", "c1", "What's my fortune"])
        let run = try intents(["continue", "--list", "--json"])
        let items = try CommandLineTests.resultList(run, "continuations")
        #expect(items.first?["kind"] as? String == "activity", "\(run.stdout)")
        #expect(items.first?["text"] as? String == "Your daily fortune", "\(run.stdout)")
    }
}
