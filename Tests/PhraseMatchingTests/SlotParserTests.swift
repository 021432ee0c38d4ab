import Foundation
import IntentModel
import TestSupport
import Testing

@testable import PhraseMatching

struct SlotParserTests {
    static func tokens(_ text: String) -> [Token] { Normalizer.tokens(text) }

    @Test(arguments: [
        ("25", 25.0, 1), ("twenty five", 25, 2), ("fünfundzwanzig", 25, 1), ("a dozen", 12, 2), ("half a dozen", 6, 3),
        ("one hundred and five", 105, 4), ("20 point 5", 20.5, 3), ("zwei komma fünf", 2.5, 3),
        ("two thousand twenty six", 2026, 4),
        ("einhundertzwanzig", 120, 1), ("3,5", 3.5, 1), ("dreißig", 30, 1), ("a hundred", 100, 2),
    ])
    func numbers(text: String, value: Double, length: Int) throws {
        let parsed = try #require(NumberParser.parse(Self.tokens(text), at: 0))
        #expect(parsed.value == value)
        #expect(parsed.length == length)
    }

    @Test(arguments: ["a", "twenty twenty", "the"])
    func notNumbers(text: String) {
        let parsed = NumberParser.parse(Self.tokens(text), at: 0)
        #expect(parsed == nil || parsed!.length < Self.tokens(text).count)
    }

    @Test(arguments: [
        ("five minutes", 300), ("1h30", 5400), ("an hour and a half", 5400), ("half an hour", 1800), ("25 min", 1500),
        ("eine halbe stunde", 1800), ("2 hours and 15 minutes", 8100), ("90s", 90), ("zehn minuten", 600),
        ("a quarter of an hour", 900),
    ])
    func durations(text: String, seconds: Int) throws {
        let parsed = try #require(DurationParser.parse(Self.tokens(text), at: 0))
        #expect(parsed.seconds == seconds)
        #expect(parsed.length == Self.tokens(text).count)
    }

    @Test(arguments: [
        ("today", "2026-11-22"), ("tomorrow", "2026-11-23"), ("morgen", "2026-11-23"), ("übermorgen", "2026-11-24"),
        ("next monday", "2026-11-23"), ("on friday", "2026-11-27"), ("am Montag", "2026-11-23"),
        ("tomorrow at 9", "2026-11-23T09:00"), ("at 9:30 pm", "2026-11-22T21:30"),
        ("morgen um 9 uhr", "2026-11-23T09:00"),
        ("in 2 hours", "2026-11-22T12:00"), ("in three days", "2026-11-25T10:00"), ("on march 3rd", "2027-03-03"),
        ("the 3rd of march", "2027-03-03"), ("3. märz", "2027-03-03"), ("2026-12-24", "2026-12-24"),
        ("at 9", "2026-11-23T09:00"),
    ])
    func dates(text: String, iso: String) throws {
        let parser = DateParser(clock: Bundled.clock)
        let tokens = Self.tokens(text)
        let parsed = try #require(parser.parse(tokens, at: 0))
        #expect(parsed.length == tokens.count)
        let expected = try #require(DateValue.parse(iso))
        #expect(Bundled.clock.resolve(parsed.value(in: Bundled.clock)) == Bundled.clock.resolve(expected))
        #expect(parsed.hasTime == iso.contains("T"))
    }

    @Test func normalizerFoldsContractionsDiacriticsAndPunctuation() {
        #expect(Normalizer.tokens("What’s NEXT?!").map(\.text) == ["what", "is", "next"])
        #expect(Normalizer.tokens("zurückgeben").map(\.text) == ["zuruckgeben"])
        #expect(Normalizer.tokens("Straße").map(\.text) == ["strasse"])
        #expect(Normalizer.tokens("ｆｕｌｌｗｉｄｔｈ").map(\.text) == ["fullwidth"])
        #expect(Normalizer.tokens("see https://example.com/a?b=1.").map(\.raw) == ["see", "https://example.com/a?b=1"])
        #expect(Normalizer.tokens("milk, eggs and bread").map(\.trailing) == [",", "", "", ""])
        #expect(Normalizer.tokens("  lots   of\tspace ").count == 3)
    }

    @Test func listsSplitAtCommasAndAnd() {
        let options = SlotParser.list(
            of: .string, tokens: Self.tokens("milk, eggs and bread"), at: 0, matcher: Bundled.matcher)
        #expect(options.last?.value == .array([.string("milk"), .string("eggs"), .string("bread")]))
    }
}

@Suite("Normalizer: the ASCII fast path agrees with the general one")
struct NormalizerAgreementTests {
    @Test func asciiAndGeneralPathsAgree() {
        var samples = Bundled.graph.apps.flatMap { $0.examples + $0.intents.flatMap(\.examples) }.map(\.say)
        samples += [
            "What's NEXT?!", "add milk,eggs and bread", "pay 1,000 or 3,5 euros", "save https://swift.org/blog, please",
            "\"quoted\" (words) [here] {too} <x>", "milk's price", "don't `stop` me", "  ...  ,,, ", "a,b,c",
            "e-mail me @ 9:30",
            "www.example.com.", "x\ty\nz\r\nw", "it's (it's) 'it's'", "C# & F#", "50% off!", "1,23,4", ",5", "5,",
            "o'clock's",
        ]
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcXYZ019 ,.'\"!?:;-/()[]{}<>`&+@#%\t")
        for _ in 0..<2_000 {
            samples.append(
                String(
                    (0..<Int.random(in: 0...24, using: &generator)).map { _ in
                        alphabet.randomElement(using: &generator)!
                    }))
        }
        for sample in samples where sample.utf8.allSatisfy({ $0 < 0x80 }) {
            let fast = Normalizer.asciiTokens(Array(sample.utf8), of: sample)
            let general = Normalizer.generalTokens(sample)
            #expect(fast == general, "\(sample.debugDescription)")
        }
    }
}
