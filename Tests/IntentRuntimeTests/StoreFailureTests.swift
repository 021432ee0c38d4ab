import Foundation
import IntentModel
import ModelStore
import TestSupport
import Testing

@testable import IntentRuntime

/// A store that fails while a conversation reads it is said, never taken for an empty answer.
struct StoreFailureTests {
    /// Runs SQL on the store as another program would.
    static func sqlite(_ path: String, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", path, sql]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
    }

    @Test func recordsToChooseFromThatCannotBeReadAreAnErrorNotAnEmptyQuestion() throws {
        let scratch = Scratch()
        let conversation = try scratch.conversation()
        #expect(conversation.say("add buy milk to my tasks").status == .done)
        // Another program breaks the table while this session has the store open.
        try Self.sqlite(scratch.path, #"DROP TABLE "FocusBlox.Task""#)
        let answer = conversation.say("complete a task")
        #expect(answer.status == .error, "\(answer.status): \(answer.dialog)")
        #expect(answer.storeFailure)
        #expect(answer.dialog.hasPrefix("I couldn't read the store:"), "\(answer.dialog)")
    }
}
