import Foundation
import IntentEngine
import IntentModel
import IntentRuntime
import TestSupport
import Testing

/// The bundled examples, end to end, on a SQLite store and on a PostgreSQL store: the same answers,
/// search hits (a misspelling included), widgets, suggestions, activities and undo.
@Suite("The bundled examples answer the same on SQLite and PostgreSQL")
struct BackendEquivalenceTests {
    /// One conversation through every bundled app: records made, changed, asked about, deleted, undone.
    static let script = [
        "add buy milk to my tasks",
        "create an urgent task fix the login bug",
        "start a focus block", "the quarterly report",
        "what's next",
        "delete the task buy milk", "no",
        "mark buy milk as done",
        "complete the task pizza", "cancel",
        "blorp the flux capacitor",
        "check compatibility", "leo", "virgo", "and libra?",
        "create a radar on quantum computing",
        "create a radar on rust",
        "open the radar on quantm computing",
        "delete the radar on rust", "yes",
        "what does the future hold",
    ]

    /// Ids and moments that differ from run to run, written as their order of first appearance.
    static func normalized(_ text: String) -> String {
        let pattern = try! NSRegularExpression(
            pattern: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
        var seen: [String: Int] = [:]
        var result = text
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            let range = Range(match.range, in: text)!
            let id = String(text[range])
            let number =
                seen[id]
                ?? {
                    seen[id] = seen.count
                    return seen.count - 1
                }()
            result.replaceSubrange(Range(match.range, in: result)!, with: "<id\(number)>")
        }
        return result
    }

    static func transcript(store: String) throws -> [String] {
        let engine = try IntentEngine(
            .init(
                definitions: Bundled.root + "/Intents", store: store,
                clock: .fixed(Bundled.now, timeZone: TimeZone(identifier: "UTC")!)))
        var lines: [String] = []
        let request = EngineRequest(conversation: .make())
        for phrase in script {
            let answer = engine.respond(to: phrase, request)
            lines.append("\(phrase) → \(answer.status) \(answer.intent?.description ?? "-"): \(answer.dialog)")
        }
        for query in ["milk", "mlk", "quantom", "logn bug", "radar"] {
            let result = try engine.search(query)
            lines.append("search \(query) → \(JSONText.compact(result.json(graph: engine.graph)))")
        }
        for widget in try engine.widgets() { lines.append("widget \(widget)") }
        for suggestion in try engine.suggestions() {
            lines.append("suggest \(suggestion.intent) \(suggestion.text) \(suggestion.confidence)")
        }
        for activity in try engine.activities() {
            lines.append(
                "activity \(activity.activity.name) \(activity.status) \(activity.lockScreenTitle) \(activity.lockScreenDetail)"
            )
        }
        lines.append("undo → \(try engine.undo())")
        lines.append("then → \(engine.respond(to: "what's next", request).dialog)")
        return lines.map(normalized)
    }

    @Test("The same transcript from both stores")
    func sameAnswers() throws {
        let postgres = try PostgresCluster.freshStore("examples")
        let scratch = EngineScratch()
        let onSQLite = try Self.transcript(store: scratch.store)
        let onPostgres = try Self.transcript(store: postgres)
        #expect(onSQLite.count == onPostgres.count)
        for (sqlite, postgres) in zip(onSQLite, onPostgres) where sqlite != postgres {
            Issue.record("SQLite:\n\(sqlite)\nPostgreSQL:\n\(postgres)")
        }
        // What the transcript must hold, so that equal is not equally empty.
        #expect(onSQLite.contains { $0.hasPrefix("virgo → done") && $0.contains("78%") })
        #expect(onSQLite.contains { $0.hasPrefix("search quantom") && $0.contains("quantum computing") })
        #expect(onSQLite.contains { $0.hasPrefix("search logn bug") && $0.contains("fix the login bug") })
    }

    @Test("A follow-up answered by a second engine over the same PostgreSQL store (another instance)")
    func followUpOnAnotherInstance() throws {
        let store = try PostgresCluster.freshStore("instances")
        let clock = Clock.fixed(Bundled.now, timeZone: TimeZone(identifier: "UTC")!)
        let first = try IntentEngine(.init(definitions: Bundled.root + "/Intents", store: store, clock: clock))
        let second = try IntentEngine(.init(definitions: Bundled.root + "/Intents", store: store, clock: clock))
        let request = EngineRequest(conversation: .make())
        #expect(first.respond(to: "check compatibility", request).dialog == "What's your zodiac sign?")
        #expect(second.respond(to: "leo", request).dialog == "What's their zodiac sign?")
        #expect(first.respond(to: "virgo", request).dialog.hasPrefix("Leo and Virgo: 78% compatible."))
        #expect(second.respond(to: "and libra?", request).dialog.hasPrefix("Leo and Libra: 72% compatible."))
    }

    @Test("Two instances answering one conversation at once take its requests in turn")
    func oneConversationInTurn() throws {
        let store = try PostgresCluster.freshStore("turns")
        let clock = Clock.fixed(Bundled.now, timeZone: TimeZone(identifier: "UTC")!)
        let engines = try (0..<2).map { _ in
            try IntentEngine(.init(definitions: Bundled.root + "/Intents", store: store, clock: clock))
        }
        _ = engines[0].respond(to: "add count sheep to my tasks", EngineRequest(conversation: .make()))
        // Many conversations, each asked the same question from both engines at once: each
        // conversation's two requests are taken in turn, so every one ends with both answers seen.
        let group = DispatchGroup()
        let answers = Answers()
        for index in 0..<6 {
            let request = EngineRequest(conversation: ConversationID("c\(index)-\(UUID().uuidString.lowercased())"))
            _ = engines[index % 2].respond(to: "check compatibility", request)
            for (engine, sign) in zip(engines, ["leo", "virgo"]) {
                group.enter()
                Thread {
                    answers.add(index, engine.respond(to: sign, request).dialog)
                    group.leave()
                }.start()
            }
        }
        group.wait()
        for index in 0..<6 {
            // One request answered the question, the next the second one: never twice the first.
            #expect(
                answers.of(index).sorted() == [
                    "Leo and Virgo: 78% compatible. Different rhythms that make surprisingly good music.",
                    "What's their zodiac sign?",
                ]
                    || answers.of(index).sorted() == [
                        "Virgo and Leo: 78% compatible. Different rhythms that make surprisingly good music.",
                        "What's their zodiac sign?",
                    ],
                "\(answers.of(index))")
        }
    }

    final class Answers: @unchecked Sendable {
        private let lock = NSLock()
        private var byIndex: [Int: [String]] = [:]
        func add(_ index: Int, _ answer: String) { lock.withLock { byIndex[index, default: []].append(answer) } }
        func of(_ index: Int) -> [String] { lock.withLock { byIndex[index] ?? [] } }
    }
}
