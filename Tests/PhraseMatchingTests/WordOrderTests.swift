import IntentModel
import TestSupport
import Testing

@testable import PhraseMatching

/// Issue 20: a sentence said the other way round is no request. To the matcher "for" is no filler
/// on its own: it says which way round a request goes, and skipping it made "daily for fortune" the
/// shortcut "Daily fortune" and "career for horoscope" the words of "my career horoscope".
@Suite("Word order around “for”")
struct WordOrderTests {
    static func match(_ sentence: String) -> Candidate? {
        if case .match(let candidate) = Bundled.matcher.recognize(sentence).outcome { return candidate }
        return nil
    }

    @Test("Forwards, “for” is the phrase's own word")
    func forwardsMatches() throws {
        let best = try #require(Self.match("horoscope for career"))
        #expect(best.intent.description == "Fortune.GetDailyFortune")
        #expect(best.values["fortuneType"] == .enumCase("career"))
    }

    @Test(
        "Backwards, the matcher reads nothing",
        arguments: ["career for horoscope", "love for horoscope", "daily for fortune", "career for fortune"])
    func backwardsIsNoMatch(_ sentence: String) {
        if let best = Self.match(sentence) {
            Issue.record("“\(sentence)” matched \(best.intent) (\(best.template))")
        }
    }

    @Test(
        "“for me” is still filler",
        arguments: [
            ("track rust for me", "Radar.CreateRadar"), ("can you refresh my radars for me", "Radar.RefreshAllRadars"),
            ("add buy milk to my tasks for me please", "FocusBlox.CreateTask"),
        ])
    func forMeIsFiller(_ sentence: String, _ intent: String) throws {
        let best = try #require(Self.match(sentence), "“\(sentence)”")
        #expect(best.intent.description == intent, "“\(sentence)”")
    }
}
