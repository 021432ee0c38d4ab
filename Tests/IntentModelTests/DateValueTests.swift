import Foundation
import IntentModel
import Testing

/// Dates as definitions write them, and the one clock that turns them into moments.
struct DateValueTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    /// Sunday 22 November 2026, 10:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_341_600)

    static func utc(_ text: String) -> Date { ISODate.parse(text, timeZone: utc)! }

    /// Written form → the moment in Berlin (UTC+1 in November) at `now`; nil: not a date.
    static let cases: [(String, String?)] = [
        ("now", "2026-11-22T10:00:00Z"),
        ("today", "2026-11-21T23:00:00Z"),
        ("Tomorrow", "2026-11-22T23:00:00Z"),
        ("YESTERDAY", "2026-11-20T23:00:00Z"),
        ("tomorrow at 9:30", "2026-11-23T08:30:00Z"),
        ("today 18:00", "2026-11-22T17:00:00Z"),
        ("2026-03-01", "2026-02-28T23:00:00Z"),
        ("2026-03-01T09:00", "2026-03-01T08:00:00Z"),
        ("2026-03-01T09:00:00Z", "2026-03-01T09:00:00Z"),
        ("2026-03-01T09:00:00+05:30", "2026-03-01T03:30:00Z"),
        ("2026-13-01", nil), ("2026-03-01T25:00", nil), ("tomorrow at 25", nil), ("later", nil),
        ("now at 9", nil), ("", nil), ("2026-03-01T09:00+", nil),
    ]

    @Test(arguments: cases)
    func parsesAndResolvesInTheClocksZone(_ written: String, _ expected: String?) {
        let clock = Clock.fixed(Self.now, timeZone: Self.berlin)
        let value = DateValue.parse(written)
        #expect(value.map { ISODate.format(clock.resolve($0)) } == expected)
    }

    @Test func relativeDaysCountFromTheLocalDateNotTheUTCOne() {
        // 23:30 in Kiritimati (UTC+14) is 09:30 UTC the same day.
        let kiritimati = TimeZone(identifier: "Pacific/Kiritimati")!
        let clock = Clock.fixed(Self.utc("2026-11-22T09:30:00Z"), timeZone: kiritimati)
        #expect(
            ISODate.format(clock.resolve(.relative(days: 1, time: TimeOfDay(hour: 9, minute: 0))))
                == "2026-11-22T19:00:00Z")
    }

    @Test func tomorrowAcrossTheEndOfDaylightTimeIsTheNextLocalDay() {
        // Los Angeles leaves daylight time on 1 November 2026: that day has 25 hours.
        let angeles = TimeZone(identifier: "America/Los_Angeles")!
        let clock = Clock.fixed(Self.utc("2026-11-01T08:30:00Z"), timeZone: angeles)  // 01:30 daylight time
        #expect(ISODate.format(clock.resolve(DateValue.parse("tomorrow at 9")!)) == "2026-11-02T17:00:00Z")
        #expect(ISODate.format(clock.resolve(DateValue.parse("today")!)) == "2026-11-01T07:00:00Z")
    }

    @Test(arguments: [
        ("2026-11-22T15:00:00Z", "16:00"), ("2026-11-22T23:00:00Z", "tomorrow"),
        ("2026-11-23T08:00:00Z", "tomorrow at 09:00"), ("2026-11-21T08:00:00Z", "yesterday at 09:00"),
        ("2026-11-26T23:00:00Z", "Fri 27 Nov"), ("2027-03-02T23:00:00Z", "Wed 3 Mar 2027"),
    ])
    func describesAsAPersonReadsIt(_ moment: String, _ text: String) {
        let clock = Clock.fixed(Self.now, timeZone: Self.berlin)
        #expect(clock.describe(Self.utc(moment)) == text)
    }

    @Test(
        "Dates read in German in German dialogs",
        arguments: [
            ("2026-11-22T15:00:00Z", "16:00"), ("2026-11-22T23:00:00Z", "morgen"),
            ("2026-11-23T08:00:00Z", "morgen um 09:00"), ("2026-11-21T08:00:00Z", "gestern um 09:00"),
            ("2026-11-26T23:00:00Z", "Fr 27. Nov"), ("2027-03-02T23:00:00Z", "Mi 3. Mär 2027"),
            ("2026-12-03T08:30:00Z", "Do 3. Dez um 09:30"),
        ])
    func describesInGerman(_ moment: String, _ text: String) {
        let clock = Clock.fixed(Self.now, timeZone: Self.berlin)
        #expect(clock.describe(Self.utc(moment), language: "de") == text)
    }

    @Test func frozenClocksReadOneMoment() {
        let clock = Clock(timeZone: Self.utc) { Date() }
        let frozen = clock.frozen()
        #expect(frozen.now == frozen.now)
    }

    @Test func intentsNowFixesTheClockAndABadOneIsAnError() throws {
        let fixed = try Clock.fromEnvironment(["INTENTS_NOW": "2026-11-22T10:00:00Z"])
        #expect(fixed.now == Self.now)
        #expect(throws: ClockError.self) { try Clock.fromEnvironment(["INTENTS_NOW": "next tuesday"]) }
    }
}
