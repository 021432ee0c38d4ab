import Foundation
import Testing

/// The compiled cache beside the store (`compiled-<hash>.bin`: graph, warnings, index and learned
/// models): `say` answers the same with it and
/// without it, a changed definition file is never answered from the old cache, a corrupt one is rebuilt.
@Suite("The compiled cache at the command line")
struct CompiledCacheCommandTests {
    let scratch = ScratchDirectory("compiled-cache")
    var directory: String { scratch.path }
    var store: String { directory + "/store.sqlite" }

    func intents(_ arguments: [String]) throws -> CommandLineTests.Run {
        try ConversationCommandTests.run(arguments, store: store)
    }

    func cacheFiles(_ prefix: String = "compiled-") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter {
            $0.hasPrefix(prefix) && $0.hasSuffix(".bin")
        }.sorted()
    }

    static let sentences = [
        "add buy milk to my tasks", "what's my fortune in fortune", "ad pay rent to my tasks", "tell me a joke",
        "start a focus block called deep work for 25 minutes", "show my love fortune",
    ]

    @Test func theBundledAppsAnswerTheSameWithAndWithoutTheCache() throws {
        var first: [String] = []
        for sentence in Self.sentences {
            // Each answered without a cache (removed first), which it writes.
            for name in try cacheFiles() { try FileManager.default.removeItem(atPath: directory + "/" + name) }
            let run = try intents(["say", "--dry-run", "--json", sentence])
            first.append(run.stdout)  // stderr: the learned stage's note that it trained, the first time
            // Written by the first `say`, read by every later one: one file, the learned models in it.
            #expect(try cacheFiles().count == 1)
            #expect(try cacheFiles("index-").isEmpty && cacheFiles("learned-").isEmpty && cacheFiles("tagger-").isEmpty)
        }
        var again: [String] = []
        for sentence in Self.sentences {
            let run = try intents(["say", "--dry-run", "--json", sentence])
            again.append(run.stdout)
        }
        #expect(again == first)
        // A corrupt cache is rebuilt: the same answers, and a readable file again.
        let file = directory + "/" + (try cacheFiles()).first!
        let bytes = try #require(FileManager.default.contents(atPath: file))
        try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: file))
        let rebuilt = try intents(["say", "--dry-run", "--json", Self.sentences[0]])
        #expect(rebuilt.stdout == first[0])
        let rewritten = try #require(FileManager.default.contents(atPath: file))
        #expect(rewritten != bytes.prefix(bytes.count / 2), "the cut file was not rewritten")
        // ... and read by the next process, which leaves it as it is.
        #expect(try intents(["say", "--dry-run", "--json", Self.sentences[0]]).stdout == first[0])
        #expect(FileManager.default.contents(atPath: file) == rewritten)
    }

    static let notes = """
        app: Notes
        intents:
          AddNote:
            parameters: { text: string }
            phrases: ["note down {text}"]
            result: { dialog: "Noted: ${text}." }
            examples:
              - say: "note down buy milk"
                expect: { text: buy milk }
        """

    @Test func aChangedDefinitionIsNeverAnsweredFromTheOldCompiledProject() throws {
        let definitions = directory + "/Intents"
        try FileManager.default.createDirectory(atPath: definitions + "/notes", withIntermediateDirectories: true)
        try Self.notes.write(toFile: definitions + "/notes/app.yaml", atomically: true, encoding: .utf8)
        #expect(try intents(["say", "--intents", definitions, "note down buy milk"]).stdout == "Noted: buy milk.\n")
        #expect(try intents(["say", "--intents", definitions, "note down pay rent"]).stdout == "Noted: pay rent.\n")
        let before = try cacheFiles()
        #expect(before.count == 1)

        // The same length, one byte changed: another key all the same.
        try Self.notes.replacingOccurrences(of: "Noted:", with: "Noted;")
            .write(toFile: definitions + "/notes/app.yaml", atomically: true, encoding: .utf8)
        #expect(try intents(["say", "--intents", definitions, "note down buy milk"]).stdout == "Noted; buy milk.\n")
        let after = try cacheFiles()
        #expect(after.count == 1)
        #expect(after != before)

        // A new app's file is a definition too.
        try FileManager.default.createDirectory(atPath: definitions + "/memos", withIntermediateDirectories: true)
        try Self.notes.replacingOccurrences(of: "Notes", with: "Memos").replacingOccurrences(
            of: "AddNote", with: "AddMemo"
        )
        .replacingOccurrences(of: "note down", with: "memo down").replacingOccurrences(of: "Noted:", with: "Memo:")
        .write(toFile: definitions + "/memos/app.yaml", atomically: true, encoding: .utf8)
        #expect(try intents(["say", "--intents", definitions, "memo down buy milk"]).stdout == "Memo: buy milk.\n")
        #expect(try cacheFiles().count == 1 && cacheFiles() != after)
    }

    @Test func definitionsWithWarningsAreCachedWithTheirWarnings() throws {
        let definitions = directory + "/Intents"
        try FileManager.default.createDirectory(atPath: definitions + "/notes", withIntermediateDirectories: true)
        // No examples: a warning.
        let yaml = Self.notes.components(separatedBy: "    examples:")[0]
        try yaml.write(toFile: definitions + "/notes/app.yaml", atomically: true, encoding: .utf8)
        for _ in 0..<2 {
            #expect(
                try intents(["say", "--intents", definitions, "note down buy milk"]).stdout == "Noted: buy milk.\n")
            #expect(try cacheFiles().count == 1)
            let check = try intents(["check", "--intents", definitions])
            #expect(check.stderr.contains("intent 'AddNote' has no examples"))
        }

    }

    @Test func aChangedDefinitionIsNeverAnsweredFromTheOldCache() throws {
        let definitions = directory + "/Intents"
        try FileManager.default.createDirectory(atPath: definitions + "/notes", withIntermediateDirectories: true)
        let yaml = """
            app: Notes
            intents:
              AddNote:
                parameters: { text: string }
                phrases: ["note down {text}"]
                result: { dialog: "Noted: ${text}." }
            """
        try yaml.write(toFile: definitions + "/notes/app.yaml", atomically: true, encoding: .utf8)
        #expect(try intents(["say", "--intents", definitions, "note down buy milk"]).stdout == "Noted: buy milk.\n")
        #expect(try intents(["say", "--intents", definitions, "note down pay rent"]).stdout == "Noted: pay rent.\n")
        // Definitions with a warning (no examples) are cached whole too.
        let before = try cacheFiles()
        #expect(before.count == 1)

        try yaml.replacingOccurrences(of: "note down", with: "jot down")
            .write(toFile: definitions + "/notes/app.yaml", atomically: true, encoding: .utf8)
        #expect(try intents(["say", "--intents", definitions, "jot down buy milk"]).stdout == "Noted: buy milk.\n")
        let after = try cacheFiles()
        #expect(after.count == 1)
        #expect(after != before)

        // Two intents sharing a phrase is an error, reported as before (the check runs until a cache exists).
        let conflicting =
            yaml.replacingOccurrences(of: "note down", with: "jot down") + """

                  AddMemo:
                    parameters: { text: string }
                    phrases: ["jot down {text}"]
                    result: { dialog: "Memo: ${text}." }
                """
        try conflicting.write(toFile: definitions + "/notes/app.yaml", atomically: true, encoding: .utf8)
        let broken = try intents(["say", "--intents", definitions, "jot down buy milk"])
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("is a phrase of both 'AddMemo' and 'AddNote'"))
        #expect(try cacheFiles() == after)
    }
}
