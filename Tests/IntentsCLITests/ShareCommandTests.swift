import Foundation
import Testing

/// `intents share` through the binary: what is taken, what is refused and why, and the app choice.
@Suite("intents share")
struct ShareCommandTests {
    let scratch = ScratchDirectory("share")
    var directory: String { scratch.path }
    var store: String { directory + "/store.sqlite" }

    func intents(_ arguments: [String], input: Data = Data()) throws -> CommandLineTests.Run {
        try ConversationCommandTests.run(arguments, store: store, input: input)
    }

    func list(_ entity: String) throws -> String { try intents(["store", "list", entity]).stdout }

    @Test func oneURLToSideBarIsSavedWithItsTitle() throws {
        let run = try intents(["share", "--to", "sideBar", "https://example.com/articles/quantum-computing.html"])
        #expect(run.status == 0)
        #expect(run.stdout == "Saved quantum computing.\n")
        #expect(
            try list("Website").hasPrefix(
                "quantum computing — url: https://example.com/articles/quantum-computing.html"))
    }

    @Test func whenTwoAppsAcceptTheShareAsksWhich() throws {
        let run = try intents(["share", "https://example.com/quantum-computing"])
        #expect(run.status == 0)
        #expect(
            run.stdout == """
                Share with which app?
                  1. Radar — Create Radar
                  2. sideBar — Save Website
                (share again with --to Radar or --to sideBar)

                """)
        #expect(try list("Website") == "No website records.\n")
        let json = try intents(["share", "--json", "remember the milk"])
        let answer = try CommandLineTests.result(json)
        #expect(answer["status"] as? String == "needs_disambiguation")
        #expect(answer["choices"] as? [String] == ["Radar — Create Radar", "sideBar — Add Note"])
        let chosen = try intents(["share", "--to", "radar", "https://example.com/quantum-computing"])
        #expect(chosen.stdout == "Now tracking “quantum computing” (Neutral).\n")
    }

    @Test func threeURLsAreRefusedWithTheReason() throws {
        let run = try intents(["share", "--to", "sideBar", "https://a.com", "https://b.com", "https://c.com"])
        #expect(run.status == 2)
        #expect(run.stderr == "error: sideBar accepts at most 1 web page; you shared 3\n")
        let anyApp = try intents(["share", "https://a.com", "https://b.com", "https://c.com"])
        #expect(anyApp.status == 2)
        #expect(
            anyApp.stderr == """
                error: no app accepts this share:
                  Radar accepts at most 1 web page; you shared 3
                  sideBar accepts at most 1 web page; you shared 3

                """)
        #expect(try list("Website") == "No website records.\n")
    }

    @Test func textFromStandardInputBecomesANote() throws {
        let run = try intents(
            ["share", "--to", "sideBar", "-"], input: Data("the wifi password is on the fridge\n".utf8))
        #expect(run.status == 0)
        #expect(run.stdout == "Noted: “the wifi password is on the fridge”.\n")
    }

    @Test func anImageIsAttachedWithItsDetectedType() throws {
        let path = directory + "/holiday.jpg"
        #expect(FileManager.default.createFile(atPath: path, contents: Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10])))
        let run = try intents(["share", path])
        #expect(run.status == 0)
        #expect(run.stdout == "Attached “holiday.jpg” (image/jpeg, 6 bytes).\n")
        #expect(try list("Attachment").hasPrefix("holiday.jpg — path: \(path), type: image/jpeg, size: 6"))
    }

    @Test func aFileOverTheLimitIsRefusedBeforeAnythingIsWritten() throws {
        let small = directory + "/small.txt"
        let big = directory + "/big.bin"
        #expect(FileManager.default.createFile(atPath: small, contents: Data("hello".utf8)))
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: big))
        try handle.truncate(atOffset: 150 * 1024 * 1024)  // sparse: no 150 MB written
        try handle.close()
        let run = try intents(["share", "--to", "sideBar", "--file", small, "--file", big])
        #expect(run.status == 2)
        #expect(run.stderr == "error: sideBar accepts files up to 100 MB; big.bin is 150 MB\n")
        #expect(try list("Attachment") == "No attachment records.\n")
    }

    @Test func unreadableAndMissingFilesAreRefused() throws {
        let missing = try intents(["share", "--file", directory + "/nope.png"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "error: \(directory)/nope.png: no such file\n")
        let folder = try intents(["share", "--file", directory])
        #expect(folder.stderr == "error: \(directory) is a folder; share the files in it\n")
        let empty = try intents(["share"])
        #expect(empty.status == 2)
    }

    /// Found by FuzzShare: Foundation's path methods trapped on `//` before a one-letter non-ASCII
    /// name, so sharing `DIR//é` (an ordinary path to an existing file) killed the process.
    @Test func aPathWithADoubleSlashBeforeANonASCIINameIsShared() throws {
        #expect(FileManager.default.createFile(atPath: directory + "/é", contents: Data("bonjour".utf8)))
        let run = try intents(["share", "--to", "sideBar", "--file", directory + "//é"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "Attached “é” (text/plain, 7 bytes).\n")
        let store = try ConversationCommandTests.run(["store", "list", "Attachment"], store: directory + "//ü")
        #expect(store.status == 0, "a store path like it opens too")
    }
}
