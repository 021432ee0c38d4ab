import Foundation
import Testing

/// Issue 23, `intents import`: a Home Assistant, Rasa or Alexa file in → our YAML and a report
/// out (goldens), then `check` clean and `test` passing on the result: the imported sentences
/// match their own intents.
struct ImportCommandTests {
    let scratch = ScratchDirectory("import")
    var directory: String { scratch.path }
    static let fixtures = CommandLineTests.root + "/Tests/IntentsCLITests/Fixtures/import"

    func intents(_ arguments: [String]) throws -> CommandLineTests.Run {
        try CommandLineTests.intents(arguments, in: directory)
    }

    /// Copies the fixtures into the scratch folder, so reports name short relative paths.
    func copyFixtures() throws {
        try FileManager.default.copyItem(atPath: Self.fixtures, toPath: directory + "/import")
    }

    struct Case: CustomStringConvertible, Sendable {
        var kind: String
        var path: String
        var app: String
        var examples: Int
        var sentence: String
        var answer: String
        var description: String { kind }
    }

    static let cases: [Case] = [
        Case(
            kind: "homeassistant", path: "import/homeassistant/custom_sentences", app: "home", examples: 7,
            sentence: "set the brightness at 40", answer: "Brightness set to 40 percent\n"),
        Case(
            kind: "rasa", path: "import/rasa/nlu.yml", app: "assistant", examples: 11,
            sentence: "get me a big pizza", answer: "Order Pizza.\n"),
        Case(
            kind: "alexa", path: "import/alexa/model.json", app: "planthelper", examples: 8,
            sentence: "water the fig tree", answer: "Water plant.\n"),
    ]

    @Test(arguments: Self.cases)
    func importsCheckCleanAndMatchThemselves(_ c: Case) throws {
        try copyFixtures()
        let imported = try intents(["import", c.kind, c.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.isEmpty)
        try CommandLineTests.golden("import-\(c.kind)-report.txt", imported.stdout)
        let file = directory + "/Intents/\(c.app)/app.yaml"
        try CommandLineTests.golden("import-\(c.kind).yaml", try String(contentsOfFile: file, encoding: .utf8))

        let check = try intents(["check"])
        #expect(check.status == 0)
        #expect(check.stderr.isEmpty, "\(check.stderr)")
        let test = try intents(["test"])
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        #expect(test.stdout.contains("\(c.examples) passed, 0 failed"), "\(test.stdout)")
        let say = try intents(["say", "--store", directory + "/store.sqlite", c.sentence])
        #expect(say.stdout == c.answer, "\(say.stdout)\(say.stderr)")
    }

    @Test("An app folder that exists is never written over")
    func refusesToOverwrite() throws {
        try copyFixtures()
        #expect(try intents(["import", "rasa", "import/rasa/nlu.yml"]).status == 0)
        let again = try intents(["import", "rasa", "import/rasa/nlu.yml"])
        #expect(again.status == 1)
        #expect(
            again.stderr
                == "error: 'Intents/assistant' already exists; nothing was written (choose another name with --app)\n")
        let renamed = try intents(["import", "rasa", "import/rasa/nlu.yml", "--app", "Pizzeria"])
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory + "/Intents/pizzeria/app.yaml"))
    }

    @Test(arguments: [
        (["import", "rasa", "missing.yml"], 1, "error: cannot read 'missing.yml'\n"),
        (
            ["import", "alexa", "broken.json"], 1,
            "error: 'broken.json' could not be read as YAML or JSON; nothing was imported\n"
        ),
        (["import", "homeassistant", "nowhere"], 1, "error: 'nowhere' does not exist\n"),
        (["import", "rasa", "broken.json", "--app", "two words"], 2, "'two words' cannot name an app"),
    ])
    func badInputIsAClearError(arguments: [String], status: Int32, message: String) throws {
        try "{ \"interactionModel\": [ }".write(toFile: directory + "/broken.json", atomically: true, encoding: .utf8)
        let run = try intents(arguments)
        #expect(run.status == status)
        #expect(run.stderr.hasSuffix(message) || run.stderr.contains(message), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/Intents"))
    }

    @Test("A report line names the item of an 'examples: |' block where it is written, at its '-'")
    func reportLinesInsideBlocks() throws {
        let source = """
            version: "3.1"
            nlu:
              - intent: note
                examples: |
                  - remember [buy milk](text) please
                  - [anything at all](text)
                  - remember [call mum](text)

            """
        try source.write(toFile: directory + "/nlu.yml", atomically: true, encoding: .utf8)
        let run = try intents(["import", "rasa", "nlu.yml"])
        #expect(run.status == 0, "\(run.stderr)")
        // "- [anything at all](text)" is line 6, its "-" in column 7.
        #expect(
            run.stdout.contains(
                "  nlu.yml:6:7: 'anything at all': a sentence that is only free text would match anything"),
            "\(run.stdout)")
    }

    /// A file `import rasa` cannot read as Rasa's: errors like a compiler's, at their place, with
    /// the source line and a caret; exit 1 and nothing written.
    static let unreadableRasa: [(file: String, source: String, stderr: String)] = [
        (
            "nlu.yml",
            """
            version: "3.1"
            nlu:
              - intent: fly
                examples: |
                  - fly to [Paris]{"entity": city}
                  - fly to [Rome]{"value": "ROM"}
                  - fly to [Oslo](city)

            """,
            """
            nlu.yml:5:23: error: the annotation {"entity": city} of 'Paris' is not JSON; write it as {"entity": "name", "value": "…"}
                  - fly to [Paris]{"entity": city}
                                  ^~~~~~~~~~~~~~~~
            nlu.yml:6:22: error: the annotation {"value": "ROM"} of 'Rome' names no "entity" (a string)
                  - fly to [Rome]{"value": "ROM"}
                                 ^~~~~~~~~~~~~~~~
            error: 'nlu.yml' has 2 errors; nothing was imported

            """
        ),
        (
            "rules.yml",
            "version: \"3.1\"\nrules: []\n",
            """
            rules.yml:1:1: error: the file has no 'nlu:' list; a Rasa nlu.yml holds 'nlu:' with intents and their examples
            version: "3.1"
            ^
            error: 'rules.yml' has 1 error; nothing was imported

            """
        ),
        (
            "nlu.md",
            "## intent:greet\n- hey\n- hello there\n",
            """
            nlu.md:2:1: error: the file is not a mapping; a Rasa nlu.yml holds 'nlu:' with intents and their examples
            - hey
            ^
            note: Rasa's Markdown training data is not read; convert it first: rasa data convert nlu -f yaml
            error: 'nlu.md' has 1 error; nothing was imported

            """
        ),
    ]

    @Test(arguments: Self.unreadableRasa)
    func unreadableRasaFilesGetErrorsAtTheirPlace(file: String, source: String, stderr: String) throws {
        try source.write(toFile: directory + "/" + file, atomically: true, encoding: .utf8)
        let run = try intents(["import", "rasa", file])
        #expect(run.status == 1)
        #expect(run.stderr == stderr)
        #expect(run.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory + "/Intents"))
    }

    @Test("A folder named as the file to import is an error, not an empty file")
    func folderIsNotAnEmptyFile() throws {
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        let run = try intents(["import", "rasa", "data"])
        #expect(run.status == 1)
        #expect(run.stderr == "error: 'data' is a folder; name the file to import\n")
        #expect(!FileManager.default.fileExists(atPath: directory + "/Intents"))
    }
}
