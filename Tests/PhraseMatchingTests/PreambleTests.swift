import IntentModel
import TestSupport
import Testing

@testable import PhraseMatching

/// Issue 20: what people say before a request ("i want to", "i'd like to", "let me") is read past at
/// the sentence's start, and the rest is matched as the phrase it is.
@Suite("What people say before a request")
struct PreambleTests {
    static func match(_ sentence: String) -> Candidate? {
        if case .match(let candidate) = Bundled.matcher.recognize(sentence).outcome { return candidate }
        return nil
    }

    @Test(
        "A preamble at the start is read past",
        arguments: [
            ("i want to track rust", "Radar.CreateRadar", ["topic": "rust"]),
            ("I'd like to add buy milk to my tasks", "FocusBlox.CreateTask", ["title": "buy milk"]),
            ("let me focus on the essay", "FocusBlox.StartFocusBlock", ["title": "the essay"]),
            ("i need you to refresh my radars", "Radar.RefreshAllRadars", [:]),
            ("go ahead and mark pay rent as done", "FocusBlox.CompleteTask", ["task": "pay rent"]),
        ] as [(String, String, [String: String])])
    func preambleIsReadPast(_ sentence: String, _ intent: String, _ values: [String: String]) throws {
        let best = try #require(Self.match(sentence), "\(sentence)")
        #expect(best.intent.description == intent, "\(sentence)")
        #expect(best.score.skipped >= 2, "\(sentence)")
        for (name, text) in values {
            #expect(best.values[name]?.description == text, "\(sentence): \(name)")
        }
    }

    @Test("A preamble alone, or one not at the start, is no request")
    func preambleAloneIsNothing() {
        for sentence in ["i want to", "let me", "track i want to rust"] {
            if let best = Self.match(sentence), best.score.skipped >= 2 {
                Issue.record("“\(sentence)” read as \(best.intent) (\(best.template)), skipping \(best.score.skipped)")
            }
        }
    }
}
