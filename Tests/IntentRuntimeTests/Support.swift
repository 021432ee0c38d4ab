import Foundation
import IntentLanguage
import IntentModel
import ModelStore
import TestSupport
import Testing

@testable import IntentRuntime

/// A fresh store in a temporary directory, removed when the test ends.
final class Scratch {
    let directory: String
    var path: String { directory + "/store.sqlite" }

    init() {
        directory = NSTemporaryDirectory() + "intents-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A conversation over the bundled definitions (or `graph`) and this store, at the tests' fixed moment.
    func conversation(_ options: Conversation.Options = .init(), graph: IntentGraph = Bundled.graph) throws
        -> Conversation
    {
        let session = try Session(
            graph: graph,
            store: try Store(
                path: path, graph: graph, clock: Bundled.clock,
                indexer: SearchDocumentBuilder(graph: graph, clock: Bundled.clock)))
        return Conversation(session: session, options: options)
    }
}

extension Conversation {
    /// Says each line in turn; returns the last answer.
    @discardableResult
    func say(_ lines: String...) -> Answer {
        var answer: Answer!
        for line in lines { answer = respond(to: line) }
        return answer
    }

    /// Says `sentence` and checks that the answer has `status` and is about `intent`.
    @discardableResult
    func expectAnswer(
        _ sentence: String, _ status: Answer.Status, intent: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Answer {
        let answer = say(sentence)
        #expect(answer.status == status, "\(answer)", sourceLocation: sourceLocation)
        #expect(answer.intent?.description == intent, "\(answer)", sourceLocation: sourceLocation)
        return answer
    }

    /// Says `sentence` and checks that `intent` asks for a value not said, with `question`.
    @discardableResult
    func expectQuestion(
        _ sentence: String, intent: String, question: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Answer {
        let answer = expectAnswer(sentence, .needsValue, intent: intent, sourceLocation: sourceLocation)
        #expect(answer.dialog == question, sourceLocation: sourceLocation)
        return answer
    }

    /// The display titles of the records of `entity` (e.g. "Task"), oldest first, with a condition.
    func titles(_ entity: String, where condition: String? = nil) throws -> [String] {
        let entity = session.graph.entities.first { $0.name.name == entity }!
        let filter = try condition.map { try session.graph.filter($0, for: entity.name) }
        return try Listing.records(of: entity, where: filter, graph: session.graph, store: session.store)
            .map { $0.json["title"]?.string ?? "" }
    }
}

/// Compiles one definitions file given as text.
func compileGraph(_ yaml: String) -> IntentGraph {
    let compilation = IntentCompiler.compile(files: [(path: "test/app.yaml", bytes: Array(yaml.utf8))], root: "test")
    guard let graph = compilation.graph else {
        fatalError("test definitions do not compile: \(compilation.diagnostics.map(\.message.text))")
    }
    return graph
}
