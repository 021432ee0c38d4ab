import Foundation
import IntentModel
import TestSupport
import Testing

extension CommandLineTests {
    /// The envelopes a `--json` run wrote, one a line, each parsed.
    static func envelopes(_ run: Run) throws -> [[String: Any]] {
        try run.stdout.split(separator: "\n").map { line in
            try #require(
                JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not an envelope: \(line)")
        }
    }

    /// The `result` of the one envelope a `--json` run wrote.
    static func result(_ run: Run) throws -> [String: Any] {
        try result(stdout: run.stdout, "\(run.stderr)")
    }

    /// The `result` of the one envelope in `stdout`.
    static func result(stdout: String, _ note: String = "") throws -> [String: Any] {
        let envelopes = try envelopes(Run(status: 0, stdout: stdout, stderr: note))
        try #require(envelopes.count == 1, "\(envelopes.count) envelopes: \(stdout) \(note)")
        return try #require(envelopes[0]["result"] as? [String: Any], "no result: \(stdout) \(note)")
    }

    /// The list `key` of the result of the one envelope a `--json` run wrote (`records`, `widgets`, …).
    static func resultList(_ run: Run, _ key: String) throws -> [[String: Any]] {
        try #require(try result(run)[key] as? [[String: Any]], "no list '\(key)': \(run.stdout)")
    }
}

/// Every command's `--json`: one envelope a line (`{"version":1,"command":…,"ok":…,"result"|"error":…}`),
/// each valid against docs/json.schema.json, on the bundled examples; the shapes against a golden file.
@Suite("JSON output: one envelope for every command")
struct JSONOutputCommandTests {
    let scratch = ScratchDirectory("json")
    var store: String { scratch.path + "/store.sqlite" }

    static let schemaPath = CommandLineTests.root + "/docs/json.schema.json"

    func intents(_ arguments: [String], input: String = "") throws -> CommandLineTests.Run {
        try ConversationCommandTests.run(arguments, store: store, input: Data(input.utf8))
    }

    /// The envelopes of `run`, each checked against the schema and naming `command`.
    func checked(_ run: CommandLineTests.Run, _ command: String, _ what: String) throws -> [JSONValue] {
        let validator = try JSONSchemaValidator(path: Self.schemaPath)
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(!lines.isEmpty, "\(what): no output; stderr: \(run.stderr)")
        #expect(run.stdout.hasSuffix("\n") || run.stdout.isEmpty, "\(what): the last line is not ended")
        return try lines.map { line in
            let value = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
            let problems = validator.problems(value)
            #expect(problems.isEmpty, "\(what): \(problems.joined(separator: "; "))\n\(line)")
            #expect(value["command"] == .string(command), "\(what): \(line)")
            return value
        }
    }

    /// The shape of a value: its keys and the types of their values, arrays by their first item.
    static func shape(_ value: JSONValue) -> JSONValue {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .integer, .number: "number"
        case .string: "string"
        case .array(let items): .array(items.first.map { [shape($0)] } ?? [])
        case .object(let object): .object(object.mapValues(shape))
        }
    }

    @Test("Every command with --json writes envelopes valid against the schema; golden shapes")
    func everyCommandValidatesAgainstTheSchema() throws {
        let shortcuts = CommandLineTests.root + "/Shortcuts/"
        let phrases = scratch.path + "/phrases.txt"
        try "create a radar on rust\norder a pizza\n".write(toFile: phrases, atomically: true, encoding: .utf8)
        // (arguments without --json, the command named, the exit status)
        let runs: [([String], String, Int32)] = [
            (["say", "create a radar about quantum computing"], "say", 0),
            (["say", "remind me to call mom tomorrow at 9"], "say", 0),
            (["say", "start a focus block on writing for 25 minutes"], "say", 0),
            (["say", "order a pizza with anchovies"], "say", 1),
            (["say", "start a focus block"], "say", 0),
            (["open", "radar://open/quantum%20computing"], "open", 0),
            (["open", "radar://nowhere/x"], "open", 2),
            (["share", "--to", "sideBar", "https://swift.org"], "share", 0),
            (["continue", "--list"], "continue", 0),
            (["link", "Radar", "quantum computing"], "link", 0),
            (["search", "quantum"], "search", 0),
            (["suggest"], "suggest", 0),
            (["tips"], "tips", 0),
            (["widgets"], "widgets", 0),
            (["widget", "RadarStatus"], "widget", 0),
            (["widget", "add", "OneRadar", "--set", "radar=quantum computing"], "widget add", 0),
            (["widget", "list"], "widget list", 0),
            (["controls"], "controls", 0),
            (["control", "Focus"], "control", 0),
            (["activities"], "activities", 0),
            (["store", "list", "Radar", "--links"], "store list", 0),
            (["store", "history", "--limit", "2"], "store history", 0),
            (["store", "history", "--donations", "--limit", "2"], "store history", 0),
            (["store", "stats"], "store stats", 0),
            (["check", "Intents"], "check", 0),
            (["describe", "CreateTask"], "describe", 0),
            (["describe", "Urgency"], "describe", 0),
            (["explain", "add oat milk to my tasks"], "explain", 0),
            (["run", shortcuts + "morning-review.yaml"], "run", 1),  // a focus block is running: a step fails
            (["batch", "--dry-run", phrases], "batch", 1),
            (["continue", "writing"], "continue", 0),
            (["undo"], "undo", 0),
            (["say", "--no-such-option", "hello"], "say", 2),
            (["store", "list", "Radr"], "store list", 2),
        ]
        var golden = ""
        for (arguments, command, status) in runs {
            let run = try intents(arguments + ["--json"])
            let what = "intents " + arguments.joined(separator: " ") + " --json"
            #expect(run.status == status, "\(what): \(run.stderr)")
            for envelope in try checked(run, command, what) {
                var shaped = envelope
                if case .object(var object) = envelope {
                    object["result"] = object["result"].map(Self.shape)
                    if case .object(var error)? = object["error"] {
                        error["message"] = "string"
                        object["error"] = .object(error)
                    }
                    shaped = .object(object)
                }
                golden +=
                    "$ \(what.replacingOccurrences(of: shortcuts, with: "Shortcuts/").replacingOccurrences(of: phrases, with: "phrases.txt"))\n"
                golden += try JSONText.pretty(shaped) + "\n"
            }
        }
        try CommandLineTests.golden("json-shapes.txt", golden)
    }

    @Test("undo --json and link --json print envelopes")
    func undoAndLinkHaveJSON() throws {
        #expect(try intents(["say", "create a radar about quantum computing"]).status == 0)
        let link = try intents(["link", "Radar", "quantum computing", "--json"])
        #expect(link.status == 0, "\(link.stderr)")
        let links = try #require(try CommandLineTests.result(link)["links"] as? [[String: Any]])
        #expect((links.first?["link"] as? String)?.hasPrefix("radar://open/") == true)
        #expect(links.first?["title"] as? String == "quantum computing")
        let undo = try intents(["undo", "--json"])
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(
            try CommandLineTests.result(undo)["dialog"] as? String
                == "Undid Create Radar: Now tracking “quantum computing” (Neutral). (1 change reverted)")
        let missing = try intents(["link", "Radar", "quantum computing", "--json"])
        #expect(missing.status == 2)
        let envelope = try #require(try CommandLineTests.envelopes(missing).first)
        #expect(envelope["ok"] as? Bool == false)
        #expect(
            (envelope["error"] as? [String: Any])?["message"] as? String == "no radar is called “quantum computing”")
    }

    @Test("A failure with --json is an error envelope: its code, the message it printed on stderr")
    func failuresAreErrorEnvelopes() throws {
        let cases: [([String], Int32, String, String)] = [
            (["say", "--json", "--bogus", "x"], 2, "usage", "Unknown option '--bogus'"),
            (
                ["say", "--json", "   "], 2, "usage",
                "nothing to say: give a phrase, e.g. intents say \"add buy milk to my tasks\""
            ),
            (["open", "--json", "ftp://x"], 2, "unknown_scheme", ""),
            (["store", "list", "Nothing", "--json"], 2, "usage", ""),
            (["run", "--json", "no-such-file.yaml"], 2, "usage", ""),
        ]
        for (arguments, status, code, message) in cases {
            let run = try intents(arguments)
            #expect(run.status == status, "\(arguments): \(run.stderr)")
            let envelopes = try checked(run, arguments[0] == "store" ? "store list" : arguments[0], "\(arguments)")
            #expect(envelopes.count == 1, "\(arguments): \(run.stdout)")
            #expect(envelopes.first?["ok"] == .bool(false))
            #expect(envelopes.first?["error"]?["code"] == .string(code), "\(arguments): \(run.stdout)")
            if !message.isEmpty { #expect(envelopes.first?["error"]?["message"] == .string(message), "\(run.stdout)") }
        }
    }

    @Test("say --json over piped lines: an envelope a line, a refused line's error in its place")
    func pipedLinesGiveOneEnvelopeEach() throws {
        let run = try intents(
            ["say", "--json", "--dry-run"], input: "create a radar on rust\nbad \u{7F} line\norder a pizza\n")
        #expect(run.status == 2)
        let envelopes = try checked(run, "say", "piped")
        #expect(envelopes.map { $0["ok"] } == [.bool(true), .bool(false), .bool(true)])
        #expect(envelopes[0]["result"]?["status"] == .string("ready"))
        #expect(envelopes[1]["error"]?["code"] == .string("usage"))
        #expect(envelopes[2]["result"]?["status"] == .string("no_match"))
    }
}

extension JSONOutputCommandTests {
    @Test("The schema refuses what is not an envelope of its command's result")
    func theSchemaRefusesWrongShapes() throws {
        let validator = try JSONSchemaValidator(path: Self.schemaPath)
        for text in [
            #"{"version":1,"command":"say","ok":true,"result":{"x":1}}"#,
            #"{"version":1,"command":"say","ok":true,"error":{"code":"usage","message":"m"}}"#,
            #"{"version":1,"command":"say","ok":false,"error":{"code":"usage","message":"m"},"result":{}}"#,
            #"{"version":2,"command":"undo","ok":true,"result":{"dialog":"d"}}"#,
            #"{"version":1,"command":"store list","ok":true,"result":[]}"#,
            #"{"version":1,"command":"link","ok":true,"result":{"links":[]}}"#,
            #"{"version":1,"command":"open","ok":false,"error":{"code":"No Route","message":"m"}}"#,
        ] {
            let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            #expect(!validator.problems(value).isEmpty, "\(text)")
        }
        let good = #"{"version":1,"command":"undo","ok":true,"result":{"dialog":"d"}}"#
        #expect(validator.problems(try JSONDecoder().decode(JSONValue.self, from: Data(good.utf8))).isEmpty)
    }
}
