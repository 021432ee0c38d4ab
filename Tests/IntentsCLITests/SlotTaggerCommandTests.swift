import Foundation
import Testing

/// The slot tagger at the command line: `explain` prints its labels and why its reading was taken;
/// `intents test` checks the values `say` would use.
@Suite("The slot tagger at the command line")
struct SlotTaggerCommandTests {
    let scratch = ScratchDirectory("tagger")
    var directory: String { scratch.path }
    var store: String { directory + "/store.sqlite" }
    var definitions: String { directory + "/Intents" }

    static let atlas = """
        app: Atlas
        intents:
          FindPlace:
            parameters:
              place: { type: string, prompt: "Which place?" }
            phrases:
              - "where is {place}"
            training:
              - "where is [Paris](place) located"
              - "where is [the Eiffel Tower](place) located"
              - "where is [Lake Geneva](place) located"
              - "where is [Mount Fuji](place)"
            result: { dialog: "Looking up ${place}." }
            examples:
              - say: "Where is Belgium located"
                expect: { place: Belgium }
        """

    func intents(_ arguments: [String]) throws -> CommandLineTests.Run {
        try ConversationCommandTests.run(arguments, store: store)
    }

    func setUp() throws {
        try FileManager.default.createDirectory(atPath: definitions + "/atlas", withIntermediateDirectories: true)
        try Self.atlas.write(toFile: definitions + "/atlas/app.yaml", atomically: true, encoding: .utf8)
    }

    @Test func explainPrintsTheLabelsAndWhyTheReadingWasTaken() throws {
        try setUp()
        let run = try intents(["explain", "--intents", definitions, "Where is Belgium located"])
        #expect(run.status == 0)
        #expect(run.stdout.contains(#"place = Belgium located  ← "Belgium located" (tokens 2–3, free text)"#))
        #expect(run.stdout.contains(" Where/O is/O Belgium/B-place located/O\n"))
        #expect(
            run.stdout.contains("   takes: frame kept yes, dropped words known yes, values parse yes, differs yes\n"))
        #expect(run.stdout.contains("   place = Belgium\n"))
        let said = try intents(["say", "--intents", definitions, "Where is Belgium located"])
        #expect(said.stdout == "Looking up Belgium.\n")
    }

    @Test func testChecksTheValuesSayUses() throws {
        try setUp()
        let run = try intents(["test", definitions])
        #expect(run.stdout.hasSuffix("1 passed, 0 failed\n"), "\(run.stdout)")
    }
}
