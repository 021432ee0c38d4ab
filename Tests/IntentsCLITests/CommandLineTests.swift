import Foundation
import TestSupport
import Testing

/// The test targets' scratch folder, for every suite here.
typealias ScratchDirectory = TestSupport.ScratchDirectory

/// Runs the built `intents` binary through TestSupport's one runner (`IntentsBinary`).
struct CommandLineTests {
    static let root = Bundled.root

    typealias Run = IntentsBinary.Run

    static func intents(_ arguments: [String], in directory: String = root) throws -> Run {
        try IntentsBinary.run(arguments, in: directory)
    }

    static func golden(_ name: String, _ actual: String) throws {
        let path = root + "/Tests/IntentsCLITests/Golden/" + name
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] != nil {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(actual == (try String(contentsOfFile: path, encoding: .utf8)), "golden \(name) differs")
    }

    @Test func checkOnTheBundledDefinitionsPrintsNothing() throws {
        let run = try Self.intents(["check", "Intents"])
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.isEmpty)
    }

    @Test func checkReportsErrorsWithExitStatusOne() throws {
        let run = try Self.intents(["check", "Intents"], in: Self.root + "/Tests/IntentLanguageTests/Fixtures/broken")
        #expect(run.status == 1)
        #expect(run.stderr.contains("Intents/shop/syntax.yaml:4:5: error: did not find expected ',' or ']'"))
        #expect(run.stderr.contains("Intents/shop/app.yaml:12:14: error: unknown type 'numbr'; did you mean 'number'?"))
        #expect(run.stderr.contains("Intents/shop/app.yaml:20:25: error: unknown slot 'sise'; did you mean 'size'?"))
        #expect(!run.stderr.contains("\u{1B}["), "no colour when stderr is not a terminal")
    }

    @Test func missingDirectoryIsAClearError() throws {
        let run = try Self.intents(["check", "NoSuchFolder"])
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "error: no definitions at 'NoSuchFolder': the directory does not exist (point at one with --intents DIR, or create one here with 'intents init')\n"
        )
    }

    @Test func graphFormats() throws {
        let text = try Self.intents(["graph"])
        #expect(text.status == 0)
        #expect(
            text.stdout.contains("intent CreateTask(title: string, urgency: Urgency = not_urgent, due: date?) -> Task"))
        let dot = try Self.intents(["graph", "--format", "dot"])
        #expect(dot.stdout.hasPrefix("digraph intents {"))
        #expect(dot.stdout.contains("\"entity:FocusBlox.Task\" -> \"intent:FocusBlox.CompleteTask\" [label=\"task\"]"))
        let json = try Self.intents(["graph", "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((object?["apps"] as? [Any])?.count == 4)
    }

    @Test func dotRendersWithGraphviz() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dot") else { return }
        let dot = try Self.intents(["graph", "--format", "dot"])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("intents-\(getpid()).dot")
        try dot.stdout.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dot")
        process.arguments = ["-Tsvg", "-o", "/dev/null", file.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func describeShowsParametersPhrasesAndTips() throws {
        let run = try Self.intents(["describe", "CreateRadar"])
        #expect(run.status == 0)
        try Self.golden("describe-CreateRadar.txt", run.stdout)
        let unknown = try Self.intents(["describe", "CreateRadr"])
        #expect(unknown.status == 1)
        #expect(
            unknown.stderr == "error: no intent, app, entity or enum named 'CreateRadr'; did you mean 'CreateRadar'?\n")
    }

    @Test func schemaIsJSONSchema() throws {
        let run = try Self.intents(["schema"])
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        #expect(object?["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        #expect((object?["$defs"] as? [String: Any])?["intent"] != nil)
    }

    @Test func testRunsEveryExampleAndCounts() throws {
        let run = try Self.intents(["test"])
        #expect(run.status == 0)
        let last = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasSuffix(" passed, 0 failed"))
        #expect((Int(last.split(separator: " ").first ?? "") ?? 0) >= 150)
    }

    @Test func testReportsAFailingExampleAtItsPlace() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "intents-test-\(getpid())/Intents/shop")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: folder.deletingLastPathComponent().deletingLastPathComponent())
        }
        try """
        app: Shop
        intents:
          Buy:
            parameters: { item: string }
            phrases: ["buy {item}"]
            result: { dialog: "${item}" }
            examples:
              - say: "buy milk"
                expect: { item: milk }
              - say: "sell milk"
                expect: { item: milk }
        """.write(to: folder.appendingPathComponent("app.yaml"), atomically: true, encoding: .utf8)
        let run = try Self.intents(["test"], in: folder.deletingLastPathComponent().deletingLastPathComponent().path)
        #expect(run.status == 1)
        #expect(run.stdout.contains("Intents/shop/app.yaml:10:9: FAIL \"sell milk\": expected Shop.Buy, got no match"))
        #expect(run.stdout.hasSuffix("1 passed, 1 failed\n"))
    }

    @Test func explainShowsCandidatesAndScoreParts() throws {
        let run = try Self.intents(["explain", "hey focusblox, add pay rent to my tasks"])
        #expect(run.status == 0)
        try Self.golden("explain-add-pay-rent.txt", run.stdout)
        let none = try Self.intents(["explain", "what's the weather tomorrow"])
        #expect(none.stdout.contains("result: no match"))
        #expect(none.stdout.contains("Did you mean:"))
    }

    @Test func helpIsStable() throws {
        try Self.golden("help.txt", try Self.intents(["--help"]).stdout)
        try Self.golden("check-help.txt", try Self.intents(["check", "--help"]).stdout)
    }
}
