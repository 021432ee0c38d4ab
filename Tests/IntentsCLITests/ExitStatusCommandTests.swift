import Foundation
import Testing

/// 22.12. One table of exit statuses (`intents help exit-codes`, the README): each command's
/// refusals run through the binary and land on the code the table gives them.
@Suite("Exit statuses")
struct ExitStatusCommandTests {
    let scratch = ScratchDirectory("exit-status")
    var store: String { scratch.path + "/store.sqlite" }

    /// 0 done, 1 not done, 2 a wrong command line: `ExitStatus`.
    enum Status: Int32, CustomStringConvertible {
        case done = 0
        case notDone = 1
        case usage = 2
        var description: String { "\(rawValue)" }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var status: Status
        var testDescription: String { arguments.joined(separator: " ") + " → \(status)" }
        init(_ arguments: String..., exits status: Status) {
            self.arguments = arguments
            self.status = status
        }
    }

    static let cases: [Case] = [
        // Done.
        Case("say", "add buy milk to my tasks", exits: .done),
        Case("say", "--dry-run", "track rust as bullish", exits: .done),
        Case("store", "list", "Radar", exits: .done),
        Case("help", "exit-codes", exits: .done),
        Case("suggest", exits: .done),
        // Not done: nothing matched is not done, in say as in batch.
        Case("say", "order a pizza with anchovies", exits: .notDone),
        Case("say", "delete the radar on rust", exits: .notDone),
        // A wrong command line: unknown options (argument-parser's 64 before) …
        Case("say", "--bogus", "hi", exits: .usage),
        Case("store", "list", "--bogus", exits: .usage),
        Case("undo", "--bogus", exits: .usage),
        Case("link", "--bogus", exits: .usage),
        Case("continue", "--bogus", exits: .usage),
        Case("widgets", "--bogus", exits: .usage),
        Case("--bogus", exits: .usage),
        Case("sya", "hi", exits: .usage),
        // … option values out of range or malformed …
        Case("search", "--top", "0", "rust", exits: .usage),
        Case("suggest", "--limit", "0", exits: .usage),
        Case("suggest", "--at", "bogus", exits: .usage),
        Case("activities", "--presentation", "island", exits: .usage),
        Case("widgets", "--at", "bogus", exits: .usage),
        Case("widgets", "--family", "bogus", exits: .usage),
        Case("say", "--context", "area", "hi", exits: .usage),
        Case("say", "--lang", "fr", "bonjour", exits: .usage),
        // … files that cannot be read …
        Case("run", "/nonexistent/none.yaml", exits: .usage),
        Case("batch", "/nonexistent/none.txt", exits: .usage),
        // … and input that is not a phrase: C0, DEL and C1 alike.
        Case("say", "   ", exits: .usage),
        Case("say", "clear \u{1B}[2J", exits: .usage),
        Case("say", "clear \u{7F}this", exits: .usage),
        Case("say", "clear \u{9B}2J", exits: .usage),
        Case("say", "next \u{85}line", exits: .usage),
        Case("open", "ftp://example.com/x", exits: .usage),
    ]

    @Test(arguments: cases)
    func exitsAsTheTableSays(_ c: Case) throws {
        let run = try ConversationCommandTests.run(c.arguments, store: store)
        #expect(run.status == c.status.rawValue, "\(run.stdout)\(run.stderr)")
    }

    @Test("batch counts a phrase that matched nothing as not done, as say exits")
    func batchAgreesWithSay() throws {
        let file = scratch.path + "/phrases.txt"
        try "order a pizza with anchovies\n".write(toFile: file, atomically: true, encoding: .utf8)
        let batch = try ConversationCommandTests.run(["batch", file], store: store)
        let say = try ConversationCommandTests.run(["say", "order a pizza with anchovies"], store: store)
        #expect(batch.status == Status.notDone.rawValue)
        #expect(say.status == batch.status)
    }

    @Test("An unknown option is a usage error naming the command's usage, exit 2")
    func unknownOption() throws {
        let run = try ConversationCommandTests.run(["say", "--bogus", "hi"], store: store)
        #expect(run.status == 2)
        #expect(run.stderr.contains("Unknown option '--bogus'"), "\(run.stderr)")
    }

    @Test("help exit-codes prints the table docs/commands.md holds")
    func tableIsTheReadmes() throws {
        let run = try ConversationCommandTests.run(["help", "exit-codes"], store: store)
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("| code | means |\n"))
        #expect(run.stdout.contains("| 2 | the command line was wrong"))
        let page = try String(contentsOfFile: CommandLineTests.root + "/docs/commands.md", encoding: .utf8)
        #expect(page.contains(run.stdout), "docs/commands.md's exit-code table differs from `intents help exit-codes`")
    }
}
