import Foundation
import IntentEngine
import TestSupport
import Testing

/// docs/engine.md's embedding example runs as written (with the bundled definitions and a scratch store).
@Suite("Embedding the engine")
struct EmbeddingTests {
    let scratch = EngineScratch()

    /// The page's lines, between the markers; only the two paths differ.
    func example(definitions: String, store: String) throws -> [String] {
        var printed: [String] = []
        func print(_ items: String...) { printed.append(items.joined(separator: " ")) }
        // docs begin
        let engine = try IntentEngine(.init(definitions: definitions, store: store))
        let request = EngineRequest(conversation: .make(), user: .local)
        for phrase in ["how compatible are leo and virgo", "and libra?", "check compatibility", "leo", "virgo"] {
            let answer = engine.respond(to: phrase, request)
            print(answer.status.rawValue, answer.dialog)
        }
        // docs end
        return printed
    }

    @Test func theExampleRuns() throws {
        let printed = try example(definitions: Bundled.root + "/Intents", store: scratch.store)
        #expect(printed.count == 5)
        #expect(printed[0].hasPrefix("done Leo and Virgo"))
        #expect(printed[1].hasPrefix("done Leo and Libra"))
        #expect(printed[2] == "needs_value What's your zodiac sign?")
        #expect(printed[3] == "needs_value What's their zodiac sign?")
        #expect(printed[4].hasPrefix("done Leo and Virgo"))
    }

    @Test func theDocsShowTheseLines() throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let lines = source.components(separatedBy: "\n")
        guard let begin = lines.firstIndex(where: { $0.hasSuffix("// docs begin") }),
            let end = lines.firstIndex(where: { $0.hasSuffix("// docs end") })
        else {
            Issue.record("markers missing")
            return
        }
        let indent = String(lines[begin].prefix { $0 == " " })
        let snippet = lines[(begin + 1)..<end].map { $0.hasPrefix(indent) ? String($0.dropFirst(indent.count)) : $0 }
        let docs = try String(contentsOfFile: Bundled.root + "/docs/engine.md", encoding: .utf8)
        // The page's paths are relative to a project's folder; the test's are the bundled ones.
        let block =
            "import IntentEngine\n\n"
            + snippet.joined(separator: "\n").replacingOccurrences(
                of: "definitions: definitions, store: store",
                with: #"definitions: "Intents", store: ".intents/store.sqlite""#) + "\n"
        #expect(docs.contains(block), "docs/engine.md no longer shows the tested lines:\n\(block)")
    }
}
