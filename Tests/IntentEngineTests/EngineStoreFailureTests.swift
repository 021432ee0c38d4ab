import Foundation
import IntentEngine
import IntentRuntime
import TestSupport
import Testing

/// A store that fails between two turns of a conversation is said, never taken for a fresh start.
@Suite("The engine when the store fails")
struct EngineStoreFailureTests {
    let scratch = EngineScratch()

    /// Runs SQL on the store as another program would.
    static func sqlite(_ path: String, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", path, sql]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
    }

    @Test("A question whose records cannot be read is a store failure, not the reply read as a new phrase")
    func unreadableQuestionIsAStoreFailure() throws {
        let engine = try scratch.engine()
        let request = EngineRequest(conversation: .make())
        #expect(engine.respond(to: "add buy milk to my tasks", request).status == .done)
        #expect(engine.respond(to: "create an urgent task buy milk", request).status == .done)
        #expect(engine.respond(to: "mark buy milk as done", request).status == .needsDisambiguation)
        // Another program breaks the table the question's choices live in.
        try Self.sqlite(scratch.store, #"DROP TABLE "FocusBlox.Task""#)
        let answer = engine.respond(to: "2", request)
        #expect(answer.status == .error, "\(answer.status): \(answer.dialog)")
        #expect(answer.storeFailure)
        #expect(answer.dialog.hasPrefix("the store could not be read:"), "\(answer.dialog)")
    }
}
