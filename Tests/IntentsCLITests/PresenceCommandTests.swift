import Foundation
import TestSupport
import Testing

/// `intents search`, `suggest` and `tips`, and the REPL's `:search`, suggestions and tips, from the binary.
@Suite("search, suggest and tips from the command line", .tags(.slow), .skippedWhenFast)
struct PresenceCommandTests {
    let scratch = ScratchDirectory("cli")
    var directory: String { scratch.path }
    var store: String { directory + "/store.sqlite" }

    func intents(_ arguments: [String], input: String = "", at moment: String = "2026-11-22T10:00:00Z") throws
        -> CommandLineTests.Run
    {
        try ConversationCommandTests.run(
            arguments, store: store, input: Data(input.utf8), overrides: ["INTENTS_NOW": moment])
    }

    /// Random ids and the reindex time out of the text, so goldens stay stable.
    static func stable(_ text: String) -> String {
        text.replacingOccurrences(
            of: #"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"#, with: "<id>",
            options: .regularExpression
        ).replacingOccurrences(of: #"in [0-9.]+ s\."#, with: "in … s.", options: .regularExpression)
    }

    @Test func searchExplainsAndOpens() throws {
        for phrase in [
            "add a task Einkaufen: Milch, Brot, Butter", "add a task buy milk", "create a radar on quantum computing",
            "add a task Müll rausbringen", "take a note that the milk is sour",
        ] {
            #expect(try intents(["say", phrase]).status == 0)
        }
        var transcript = ""
        for arguments in [
            ["search", "milch"], ["search", "--explain", "mlk"], ["search", "--explain", "focus", "--limit", "3"],
            ["search", "mull"], ["search", "quantm", "--open", "1"], ["search", "--open", "1", "focus"],
            ["search", "--reindex"], ["search", "nothing", "like", "this"],
        ] {
            let run = try intents(arguments)
            transcript += "$ intents \(arguments.joined(separator: " "))\n\(run.stdout)\(run.stderr)"
        }
        try CommandLineTests.golden("search.txt", Self.stable(transcript))
    }

    @Test func searchJSONAndBadInput() throws {
        #expect(try intents(["say", "add a task Einkaufen: Milch, Brot, Butter"]).status == 0)
        let json = try intents(["search", "--json", "butter"])
        #expect(json.status == 0)
        let hits = try CommandLineTests.result(json)["hits"] as? [[String: Any]]
        #expect(hits?.first?["title"] as? String == "Einkaufen: Milch, Brot, Butter")
        #expect(hits?.first?["type"] as? String == "Task")
        #expect((hits?.first?["score"] as? [String: Any])?["typos"] as? Int == 0)
        // Hostile input: quotes, FTS operators, huge words: a clean answer, no error.
        for text in [#"" OR "*"#, "NEAR(a b)", String(repeating: "x", count: 5_000), "title:milch", "-", "^*"] {
            let run = try intents(["search", text])
            #expect(run.status == 0, "\(text)")
            #expect(run.stderr.isEmpty, "\(text)")
        }
        let wrong = try intents(["search", "butter", "--open", "7"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr == "error: there is no hit 7 (there are 1)\n")
    }

    @Test func suggestAndForget() throws {
        // Three weekday mornings: what's next, then a deep-work block.
        for day in ["2026-11-16", "2026-11-17", "2026-11-18"] {
            #expect(try intents(["say", "add a task report \(day)"], at: day + "T08:30:00Z").status == 0)
            #expect(try intents(["say", "what's next"], at: day + "T09:00:00Z").status == 0)
            let start = try intents(["say", "start a focus block for 50 minutes on deep work"], at: day + "T09:01:00Z")
            #expect(start.status == 0)
            #expect(try intents(["say", "end the focus block"], at: day + "T10:00:00Z").status == 0)
        }
        #expect(try intents(["say", "what's next"], at: "2026-11-19T09:00:00Z").status == 0)
        var transcript = ""
        for arguments in [
            ["suggest", "--explain"], ["suggest", "--at", "2026-11-19T08:30:00", "--limit", "2"],
            ["suggest", "--forget", "StartFocusBlok"], ["suggest", "--forget", "StartFocusBlock"], ["suggest"],
        ] {
            let run = try intents(arguments, at: "2026-11-19T09:00:00Z")
            transcript += "$ intents \(arguments.joined(separator: " "))\n\(run.stdout)\(run.stderr)"
        }
        try CommandLineTests.golden("suggest.txt", transcript)
    }

    @Test func replSearchSuggestionsAndTips() throws {
        for day in ["2026-11-16", "2026-11-17", "2026-11-18"] {
            #expect(try intents(["say", "what's next"], at: day + "T09:00:00Z").status == 0)
            #expect(
                try intents(["say", "start a focus block for 50 minutes on deep work"], at: day + "T09:01:00Z").status
                    == 0)
            #expect(try intents(["say", "end the focus block"], at: day + "T10:00:00Z").status == 0)
        }
        let lines = """
            add a task Einkaufen: Milch, Brot, Butter
            ? milch
            1
            :search focus
            1
            the report
            :dismiss
            end the focus block
            set aside 50 minutes
            what's next
            1
            end the focus block
            :tips off
            :tips
            :quit
            """
        let repl = try intents(["--lang", "en"], input: lines, at: "2026-11-19T09:00:00Z")
        #expect(repl.status == 0)
        let tips = try intents(["tips"], at: "2026-11-19T09:00:00Z")
        let german = try ConversationCommandTests.run(
            ["--lang", "de"], store: directory + "/fresh.sqlite", input: Data(":quit\n".utf8))
        try CommandLineTests.golden(
            "repl-presence.txt",
            Self.stable(repl.stdout + "$ intents tips\n" + tips.stdout + "$ intents --lang de\n" + german.stdout))
    }
}
