import Foundation
import IntentModel
import TestSupport
import Testing

@testable import IntentRuntime

/// One radar a topic: tracking a topic again does not make a second radar (it did: "I feel
/// positive about rust" after "track rust" left two radars called "rust"), and how you feel about
/// one is changed by saying so.
@Suite("Changing an opinion on a tracked topic")
struct ChangingOpinionsTests {
    @Test func aTopicIsTrackedOnceAndItsOpinionChanges() throws {
        let conversation = try Scratch().conversation()
        #expect(conversation.say("track rust in radar").dialog == "Now tracking “rust” (Neutral).")
        let again = conversation.say("track Rust")
        #expect(again.status == .error)
        #expect(
            again.dialog
                == "You already track “rust” (Neutral). Say “I now feel … about rust” to change how you feel.")
        #expect(
            conversation.say("change my opinion on rust to bearish").dialog == "You now feel negative about “rust”.")
        #expect(conversation.say("i'm positive on rust now").dialog == "You now feel positive about “rust”.")
        #expect(try conversation.titles("Radar") == ["rust"])
        #expect(try conversation.titles("Radar", where: "position == positive") == ["rust"])
        // A new topic with a feeling is still a new radar.
        #expect(conversation.say("i feel bullish about solar power").dialog == "Now tracking “solar power” (Positive).")
    }
}
