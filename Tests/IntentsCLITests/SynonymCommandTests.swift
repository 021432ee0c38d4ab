import Foundation
import Testing

/// Words the author never wrote, at the command line: WordNet (Debian's `wordnet-base`) links them
/// to the definitions' words, `say` understands them, `explain` says what was read as what, and a
/// request to no app is still not acted on.
@Suite(
    "Words the author never wrote (WordNet) at the command line",
    .enabled(
        if: FileManager.default.fileExists(
            atPath: (ProcessInfo.processInfo.environment["INTENTS_WORDNET"] ?? "/usr/share/wordnet") + "/index.verb"),
        "WordNet (Debian wordnet-base) is not installed"))
struct SynonymCommandTests {
    let scratch = ScratchDirectory("synonyms")
    var directory: String { scratch.path }
    var store: String { directory + "/store.sqlite" }
    var definitions: String { directory + "/Intents" }

    static let garden = """
        app: Garden
        intents:
          WaterPlant:
            parameters:
              plant: { type: string, prompt: "Which plant?" }
            phrases:
              - "water the {plant}"
              - "give the {plant} some water"
            result: { dialog: "Watering the ${plant}." }
          ShowGarden:
            phrases:
              - "show my garden"
              - "what is growing in my garden"
            result: { dialog: "Your garden is green." }
          PickFlowers:
            parameters:
              flower: { type: string, prompt: "Which flowers?" }
            phrases:
              - "pick the {flower}"
              - "cut some {flower} for a vase"
            result: { dialog: "Picking ${flower}." }
        """

    func intents(_ arguments: [String], overrides: [String: String] = [:]) throws -> CommandLineTests.Run {
        try ConversationCommandTests.run(arguments, store: store, overrides: overrides)
    }

    func setUp() throws {
        try FileManager.default.createDirectory(atPath: definitions + "/garden", withIntermediateDirectories: true)
        try Self.garden.write(toFile: definitions + "/garden/app.yaml", atomically: true, encoding: .utf8)
    }

    @Test func aVerbTheAuthorNeverWroteIsUnderstood() throws {
        try setUp()
        // "irrigate" and "display" are in no phrase: WordNet has them as "water" and "show".
        #expect(try intents(["say", "--intents", definitions, "irrigate the ferns"]).stdout == "Watering the ferns.\n")
        #expect(
            try intents(["say", "--intents", definitions, "display my garden"]).stdout == "Your garden is green.\n")
    }

    @Test func explainSaysWhatWasReadAsWhat() throws {
        try setUp()
        let run = try intents(["explain", "--intents", definitions, "irrigate the ferns"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("   Garden.WaterPlant acts: confidence"), "\(run.stdout)")
        #expect(run.stdout.contains(#"read "irrigate" as "water" (WordNet)"#), "\(run.stdout)")
        #expect(run.stdout.contains("   plant = ferns\n"), "\(run.stdout)")
    }

    @Test(arguments: ["display the weather", "erase the whiteboard", "tell me a joke", "what's the weather like today"])
    func aRequestToNoAppIsNotActedOn(_ sentence: String) throws {
        try setUp()
        let run = try intents(["say", "--intents", definitions, sentence])
        #expect(run.stdout.hasPrefix("Sorry, I don't know how to do that."), "\(sentence): \(run.stdout)")
    }

    @Test func withoutWordNetTheWordIsNotKnown() throws {
        try setUp()
        let run = try intents(
            ["say", "--intents", definitions, "irrigate the ferns"], overrides: ["INTENTS_USE_WORDNET": "0"])
        #expect(run.stdout.hasPrefix("Sorry, I don't know how to do that."), "\(run.stdout)")
    }

    @Test func aDeleteSaidInOtherWordsAsksFirstEvenWithYes() throws {
        // The bundled apps: Radar's phrases say "delete", "remove", "drop", "get rid of", never "erase".
        #expect(try intents(["say", "create a radar on rust"]).stdout == "Now tracking “rust” (Neutral).\n")
        for arguments in [["say", "erase my rust radar"], ["say", "--yes", "erase the rust radar"]] {
            let run = try intents(arguments)
            #expect(run.stdout == "Delete rust? (yes/no)\n", "\(arguments): \(run.stdout)")
        }
        #expect(try intents(["store", "list", "Radar"]).stdout.contains("1 radar record"))
    }
}
