import Foundation
import Testing

/// Every `:command` of the REPL through the binary with piped input: none ends the session (issue 22,
/// item 1: `:widgets` built a `ParsableArguments` by hand and crashed reading its flags).
@Suite("REPL commands at the command line")
struct ReplCommandTests {
    let scratch = ScratchDirectory("repl-commands")
    var store: String { scratch.path + "/store.sqlite" }

    static let commands = [
        ":help", ":explain add buy milk to my tasks", ":intents", ":list Task", ":undo", ":widgets",
        ":widgets small", ":widgets bogus", ":controls", ":control Focus", ":activities", ":search milk",
        ":suggest", ":tips off", ":tips on", ":dismiss", ":context area=Kitchen", ":context", ":context clear",
        ":nonsense",
    ]

    @Test(arguments: Self.commands)
    func commandKeepsTheSessionGoing(_ command: String) throws {
        let input = "add buy milk to my tasks\n\(command)\nwhat's next\n"
        let run = try ConversationCommandTests.run([], store: store, input: Data(input.utf8))
        #expect(run.status == 0, "\(command): \(run.stderr)")
        #expect(!run.stderr.contains("Can't read a value"), "\(command): \(run.stderr)")
        // The phrase after the command is still answered.
        #expect(run.stdout.contains("› what's next"), "\(command): \(run.stdout)")
        #expect(run.stdout.components(separatedBy: "buy milk").count >= 3, "\(command): \(run.stdout)")
    }

    /// Issue 20, item 5: a follow-up at the prompt, and with `say --conversation` across processes.
    @Test func followUpsCarryTheLastRequestOver() throws {
        let input = "how compatible are leo and virgo\n:explain and libra\nand libra?\n"
        let repl = try ConversationCommandTests.run([], store: store, input: Data(input.utf8))
        #expect(repl.stdout.contains("follow-up of Check Compatibility: theirSign replaced; carried over: yourSign"))
        #expect(repl.stdout.contains("Leo and Libra"), "\(repl.stdout)")
        for (phrase, expected) in [
            ("how compatible are leo and virgo", "Leo and Virgo"), ("and libra?", "Leo and Libra"),
        ] {
            let run = try ConversationCommandTests.run(
                ["say", "--conversation", "c1", "--json", phrase], store: store)
            #expect(run.stdout.contains(expected), "\(run.stdout)")
        }
        let explained = try ConversationCommandTests.run(
            ["explain", "--conversation", "c1", "and aries"], store: store)
        #expect(explained.stdout.contains("in conversation c1: follow-up of Check Compatibility: theirSign replaced"))
        // Without the conversation, a new process knows nothing of the last request.
        let alone = try ConversationCommandTests.run(["say", "and libra?"], store: store)
        #expect(!alone.stdout.contains("Leo and Libra"))
    }
}
