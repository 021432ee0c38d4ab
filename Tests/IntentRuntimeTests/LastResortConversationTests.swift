import Foundation
import IntentModel
import TestSupport
import Testing

@testable import IntentRuntime

@Suite("Sentences a word off, for another app or backwards, in a conversation")
struct LastResortConversationTests {
    @Test("“refresh radars” refreshes every radar rather than look for one called “radars”")
    func smallWordLeftOut() throws {
        let scratch = Scratch()
        try scratch.conversation().say("track rust", "track electric cars")
        let answer = try scratch.conversation().say("refresh radars")
        #expect(answer.intent?.description == "Radar.RefreshAllRadars")
        #expect(answer.status == .done)
        #expect(answer.dialog == "Refreshed 2 radars.")
    }

    @Test("An intent that deletes, reached by reading a small word the sentence left out, confirms even with --yes")
    func destructiveGuessConfirms() throws {
        let scratch = Scratch()
        try scratch.conversation().say("add pay rent to my tasks")
        let conversation = try scratch.conversation(.init(confirmAll: true))
        let question = conversation.say("remove pay rent from todos")
        #expect(question.intent?.description == "FocusBlox.DeleteTask")
        #expect(question.status == .needsConfirmation)
        #expect(try conversation.titles("Task") == ["pay rent"])
    }

    @Test(
        "Another app's request in this one's words, or a phrase backwards, runs nothing",
        arguments: ["add milk to my shopping list", "track my package", "complete as chess mark", "take a photo"])
    func nothingRuns(_ sentence: String) throws {
        let scratch = Scratch()
        try scratch.conversation().say("add chess to my tasks")
        let conversation = try scratch.conversation()
        let answer = conversation.say(sentence)
        #expect(answer.status != .done, "“\(sentence)” → \(answer.intent?.description ?? "") \(answer.dialog)")
        #expect(try conversation.titles("Task") == ["chess"])
        #expect(try conversation.titles("Radar").isEmpty)
        #expect(try conversation.titles("Note").isEmpty)
    }

    @Test("A verb and a new topic still runs: the learned stage backs it")
    func catchAllBacked() throws {
        let conversation = try Scratch().conversation()
        let answer = conversation.say("track electric cars")
        #expect(answer.intent?.description == "Radar.CreateRadar")
        #expect(answer.status == .done)
        #expect(try conversation.titles("Radar") == ["electric cars"])
    }
}
