import Foundation
import IntentEngine
import IntentModel
import IntentRuntime
import TestSupport
import Testing

/// The engine over the compiled cache: the first engine compiles the definitions and writes the
/// cache, the next reads it; every example sentence of the bundled apps is answered the same by both.
@Suite("The engine answers the same from the compiled cache")
struct CompiledCacheEngineTests {
    let scratch = EngineScratch()

    static func describe(_ answer: Answer) -> String {
        let parameters = answer.parameters.map { "\($0.name)=\($0.value)" }
        return "\(answer.status) \(answer.intent?.description ?? "-") «\(answer.dialog)» \(parameters) "
            + "\(answer.asking ?? "-") \(answer.choices) \(answer.suggestions) \(answer.opens) \(answer.failure?.message ?? "-")"
    }

    @Test("Every example sentence of the bundled apps: the same answer compiled and read from the cache")
    func bundledExamples() throws {
        let sentences =
            Bundled.graph.apps.flatMap { app in app.examples + app.intents.flatMap(\.examples) }.map(\.say)
            + [
                "add buy milk to my tasks", "ad buy milk to my tasks", "tell me a joke",
                "what should I do next honestly",
            ]
        #expect(sentences.count > 50)
        let compiled = try scratch.engine()
        let cacheFiles = try FileManager.default.contentsOfDirectory(atPath: scratch.directory).filter {
            $0.hasPrefix("compiled-")
        }
        #expect(cacheFiles.count == 1)
        let cached = try scratch.engine()
        #expect(cached.project.compiled?.file == compiled.project.compiled?.file)
        #expect(cached.project.diagnostics.isEmpty && compiled.project.diagnostics.isEmpty)
        #expect(cached.project.definitionFiles == compiled.project.definitionFiles)
        for sentence in sentences {
            let request = EngineRequest(conversation: .make(), dryRun: true)
            #expect(
                Self.describe(cached.respond(to: sentence, request))
                    == Self.describe(compiled.respond(to: sentence, request)), "\(sentence)")
        }
    }

    @Test("Definitions with warnings keep them on every load: the cache holds them too")
    func warningsKept() throws {
        let definitions = scratch.directory + "/Intents"
        try FileManager.default.createDirectory(atPath: definitions + "/notes", withIntermediateDirectories: true)
        try """
        app: Notes
        intents:
          AddNote:
            parameters: { text: string }
            phrases: ["note down {text}"]
            result: { dialog: "Noted: ${text}." }
        """.write(toFile: definitions + "/notes/app.yaml", atomically: true, encoding: .utf8)
        var seen: [[String]] = []
        for _ in 0..<3 {
            let engine = try IntentEngine(.init(definitions: definitions, store: scratch.store, clock: Bundled.clock))
            #expect(engine.project.compiled != nil)
            seen.append(engine.project.diagnostics.map(\.description))
            // Their source lines, for printing them, whether compiled or read from the cache.
            #expect(engine.project.sources.line(1, of: definitions + "/notes/app.yaml") == "app: Notes")
            #expect(engine.respond(to: "note down milk", EngineRequest(conversation: .make())).dialog == "Noted: milk.")
        }
        #expect(seen[0].contains { $0.contains("has no examples") })
        #expect(seen[1] == seen[0] && seen[2] == seen[0])
    }
}
