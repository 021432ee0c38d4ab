import Foundation
import IntentLanguage
import IntentModel
import TestSupport
import Testing

@testable import PhraseMatching

/// Issue 10: what people say is what gets stored. Free text keeps the characters typed, numbers,
/// dates and spans read as people write them, date words and misspelt values are not free text.
struct WhatPeopleSayTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var say: String
        var intent: String
        var values: [String: Value]
        var testDescription: String { say }
    }

    static func day(_ iso: String) -> Value { .date(DateValue.parse(iso)!) }

    static let cases: [Case] = [
        // Free text is the user's own characters, trimmed at the slot's edges.
        Case(
            say: "add won't fix the roof to my tasks", intent: "FocusBlox.CreateTask",
            values: ["title": .string("won't fix the roof")]),
        Case(
            say: "add don't panic to my tasks", intent: "FocusBlox.CreateTask",
            values: ["title": .string("don't panic")]),
        Case(say: "add I'm late to my tasks", intent: "FocusBlox.CreateTask", values: ["title": .string("I'm late")]),
        Case(
            say: "add snake_case_name to my tasks", intent: "FocusBlox.CreateTask",
            values: ["title": .string("snake_case_name")]),
        Case(say: "add a=b to my tasks", intent: "FocusBlox.CreateTask", values: ["title": .string("a=b")]),
        Case(
            say: "add pay\u{200B}rent to my tasks", intent: "FocusBlox.CreateTask",
            values: ["title": .string("pay\u{200B}rent")]),
        Case(
            say: "add “Straße  fixen”, sofort to my tasks", intent: "FocusBlox.CreateTask",
            values: ["title": .string("Straße  fixen”, sofort")]),
        Case(
            say: "add ﬁx the ﬁle to my tasks", intent: "FocusBlox.CreateTask", values: ["title": .string("ﬁx the ﬁle")]),
        // Hyphenated numbers are numbers.
        Case(
            say: "focus on email for twenty-five minutes", intent: "FocusBlox.StartFocusBlock",
            values: ["title": .string("email"), "minutes": .integer(25)]),
        Case(
            say: "focus on taxes for forty-five minutes", intent: "FocusBlox.StartFocusBlock",
            values: ["title": .string("taxes"), "minutes": .integer(45)]),
        // Date words are the date's, never the title's; a typo'd one too.
        Case(
            say: "remind me to call mom at noon", intent: "FocusBlox.CreateTask",
            values: ["title": .string("call mom"), "due": day("2026-11-22T12:00")]),
        Case(
            say: "remind me to call mom on 2026-04-01", intent: "FocusBlox.CreateTask",
            values: ["title": .string("call mom"), "due": day("2026-04-01")]),
        Case(
            say: "remind me to call mom tommorow at 9", intent: "FocusBlox.CreateTask",
            values: ["title": .string("call mom"), "due": day("2026-11-23T09:00")]),
        Case(
            say: "remind me to call mom last friday", intent: "FocusBlox.CreateTask",
            values: ["title": .string("call mom"), "due": day("2026-11-20")]),
        // The word that makes a date a deadline is the date's too ("due", "by", "bis", "fällig").
        Case(
            say: "add a task pay rent due friday", intent: "FocusBlox.CreateTask",
            values: ["title": .string("pay rent"), "due": day("2026-11-27")]),
        Case(
            say: "add pay rent due on friday to my tasks", intent: "FocusBlox.CreateTask",
            values: ["title": .string("pay rent"), "due": day("2026-11-27")]),
        Case(
            say: "remind me to file taxes by tomorrow at 5pm", intent: "FocusBlox.CreateTask",
            values: ["title": .string("file taxes"), "due": day("2026-11-23T17:00")]),
        Case(
            say: "neue aufgabe miete zahlen bis freitag", intent: "FocusBlox.CreateTask",
            values: ["title": .string("miete zahlen"), "due": day("2026-11-27")]),
        Case(
            say: "neue aufgabe miete zahlen fällig am freitag", intent: "FocusBlox.CreateTask",
            values: ["title": .string("miete zahlen"), "due": day("2026-11-27")]),
        // Without a date after it, such a word stays the title's.
        Case(
            say: "add a task read by the window", intent: "FocusBlox.CreateTask",
            values: ["title": .string("read by the window")]),
        // A misspelt enum case beats free text.
        Case(
            say: "track rust as bulish", intent: "Radar.CreateRadar",
            values: ["topic": .string("rust"), "position": .enumCase("positive")]),
    ]

    @Test(arguments: cases)
    func storesWhatWasSaid(_ c: Case) throws {
        let recognition = Bundled.matcher.recognize(c.say)
        guard case .match(let candidate) = recognition.outcome else {
            Issue.record("no single match: \(recognition.outcome)")
            return
        }
        #expect(candidate.intent.description == c.intent)
        for (name, value) in c.values {
            #expect(candidate.values[name].map(Bundled.clock.resolve) == Bundled.clock.resolve(value), "\(name)")
        }
    }

    /// Words of a slot's type that name nothing usable: an error naming them, not free text, not a trap.
    @Test(arguments: [
        ("remind me to call mom in 9999999999999999 hours", "“in 9999999999999999 hours” is out of range"),
        ("remind me to call mom in 1000000000000 hours", "“in 1000000000000 hours” is out of range"),
        ("remind me to call mom on february 30th", "February has 28 days in 2027."),
        ("remind me to call mom on april 31st", "April has 30 days."),
        ("remind me to call mom on 2026-02-30", "February has 28 days in 2026."),
        ("focus on taxes for 99999999999999999 minutes", "“99999999999999999” is out of range"),
    ])
    func outOfRangeWordsAreAnError(say: String, problem: String) throws {
        let recognition = Bundled.matcher.recognize(say)
        guard case .match(let candidate) = recognition.outcome else {
            Issue.record("no single match: \(recognition.outcome)")
            return
        }
        let found = try #require(candidate.problem, "values: \(candidate.values)")
        #expect(found.message.hasPrefix(problem))
    }

    @Test(arguments: [
        ("twenty-five", 25.0, 1), ("forty-five", 45, 1), ("minus four", -4, 2), ("-4", -4, 1),
        ("negative 2.5", -2.5, 2),
        ("ninety-nine", 99, 1),
    ])
    func numbers(text: String, value: Double, length: Int) throws {
        let parsed = try #require(NumberParser.parse(Normalizer.tokens(text), at: 0))
        #expect(parsed.value == value)
        #expect(parsed.length == length)
    }

    @Test(arguments: [
        ("two and a half hours", 9000), ("zwei und eine halbe stunde", 9000), ("1 and a half minutes", 90),
    ])
    func durations(text: String, seconds: Int) throws {
        let tokens = Normalizer.tokens(text)
        let parsed = try #require(DurationParser.parse(tokens, at: 0))
        #expect(parsed.seconds == seconds)
        #expect(parsed.length == tokens.count)
    }

    /// Sunday 22 November 2026, 10:00 UTC.
    @Test(arguments: [
        ("last friday", "2026-11-20"), ("last sunday", "2026-11-15"), ("letzten Montag", "2026-11-16"),
        ("vorgestern", "2026-11-20"), ("2 days ago", "2026-11-20T10:00"), ("vor zwei Tagen", "2026-11-20T10:00"),
        ("an hour ago", "2026-11-22T09:00"), ("halb neun", "2026-11-23T08:30"), ("um halb zehn", "2026-11-23T09:30"),
        ("at noon", "2026-11-22T12:00"), ("on 2026-04-01", "2026-04-01"), ("tommorow", "2026-11-23"),
        ("wendsday", "2026-11-25"), ("tonight", "2026-11-22T20:00"), ("due friday", "2026-11-27"),
        ("by tomorrow", "2026-11-23"), ("until monday at 9", "2026-11-23T09:00"), ("fällig am Montag", "2026-11-23"),
        ("bis morgen", "2026-11-23"),
    ])
    func dates(text: String, iso: String) throws {
        let parser = DateParser(clock: Bundled.clock)
        let tokens = Normalizer.tokens(text)
        let parsed = try #require(parser.parse(tokens, at: 0))
        #expect(parsed.problem == nil)
        #expect(parsed.length == tokens.count)
        let expected = try #require(DateValue.parse(iso))
        #expect(Bundled.clock.resolve(parsed.value(in: Bundled.clock)) == Bundled.clock.resolve(expected))
        #expect(parsed.hasTime == iso.contains("T"))
    }

    /// "tonight" said after 8 pm is the next full hour, never a moment already gone.
    @Test(arguments: [
        ("2026-11-22T19:59:00Z", "2026-11-22T20:00:00Z"), ("2026-11-22T21:10:00Z", "2026-11-22T22:00:00Z"),
    ])
    func tonightIsNeverPast(now: String, expected: String) throws {
        guard case .moment(let moment) = DateValue.parse(now), case .moment(let want) = DateValue.parse(expected) else {
            Issue.record("bad fixture")
            return
        }
        let clock = Clock.fixed(moment, timeZone: TimeZone(identifier: "UTC")!)
        let parsed = try #require(DateParser(clock: clock).parse(Normalizer.tokens("tonight"), at: 0))
        #expect(clock.resolve(parsed.value(in: clock)) == want)
        #expect(clock.resolve(parsed.value(in: clock)) > moment)
    }

    /// Every token knows the characters it came from; both halves of a contraction share them.
    @Test func tokensCarryTheirSource() {
        let text = "Add “won't” ﬁx,milk"
        let tokens = Normalizer.tokens(text)
        #expect(tokens.map(\.text) == ["add", "will", "not", "fix", "milk"])
        #expect(tokens.map { $0.source.map(String.init) } == ["Add", "won't", "won't", "ﬁx", "milk"])
        let ascii = Normalizer.tokens("add a=b, (c)")
        #expect(ascii.map { $0.source.map(String.init) } == ["add", "a", "b", "c"])
        #expect(ascii.originalText(from: 1, through: 3) == "a=b, (c")
    }

    /// Durations in definition files never wrap or trap.
    @Test(arguments: ["99999999999999999h", "9999999999999999d", "9999999999999999:00:00", "153722867280912931m"])
    func definitionDurationsOutOfRange(text: String) {
        #expect(DurationText.parse(text) == nil)
    }
}

extension WhatPeopleSayTests {
    /// Numbers past what a type holds, wherever a parser meets them: an answer, never a trap.
    @Test(arguments: [
        "remind me to call mom at minus 1e300", "remind me to call mom halb 1e300", "focus on x for 1e300 minutes",
        "remind me to call mom in 1e300 days", "remind me to call mom in 99999999999999999999h",
        "remind me to call mom on the 1e300th of march", "focus on x for minus 1e300 minutes",
    ])
    func hugeNumbersNeverTrap(say: String) {
        let recognition = Bundled.matcher.recognize(say)
        if case .match(let candidate) = recognition.outcome {
            #expect(candidate.intent.app == "FocusBlox")
        }
    }
}
