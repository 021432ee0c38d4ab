import Foundation
import Testing

/// The command line's dates under other zones and awkward moments: "now" and the zone come from
/// `$INTENTS_NOW` and `$TZ` alone, for parsing ("tomorrow at 9"), stamping (`createdAt`) and showing
/// ("tomorrow at 09:00") alike.
@Suite("Dates in three time zones, near midnight and near a DST change")
struct TimeZoneTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let zone: String
        /// `$INTENTS_NOW`: local time when written without a zone.
        let now: String
        /// "tomorrow at 9" in that zone, as UTC.
        let due: String
        /// The moment itself, as UTC (what `createdAt` must say).
        let created: String
        var testDescription: String { "\(zone) at \(now)" }
    }

    static let cases: [Case] = [
        Case(zone: "UTC", now: "2026-11-22T10:00:00Z", due: "2026-11-23T09:00:00Z", created: "2026-11-22T10:00:00Z"),
        // UTC+14: a minute before local midnight is still the morning in UTC.
        Case(
            zone: "Pacific/Kiritimati", now: "2026-11-22T23:59:30", due: "2026-11-22T19:00:00Z",
            created: "2026-11-22T09:59:30Z"),
        // Just after local midnight: "tomorrow" is the day after the local date, not the UTC one.
        Case(
            zone: "Pacific/Kiritimati", now: "2026-11-23T00:00:30", due: "2026-11-23T19:00:00Z",
            created: "2026-11-22T10:00:30Z"),
        // Los Angeles leaves daylight time at 02:00 on 1 November 2026: tomorrow's 9:00 is UTC-8, now is UTC-7.
        Case(
            zone: "America/Los_Angeles", now: "2026-10-31T23:50:00", due: "2026-11-01T17:00:00Z",
            created: "2026-11-01T06:50:00Z"),
        Case(
            zone: "America/Los_Angeles", now: "2026-11-01T01:30:00-07:00", due: "2026-11-02T17:00:00Z",
            created: "2026-11-01T08:30:00Z"),
    ]

    @Test(arguments: cases)
    func tomorrowAtNineIsStampedParsedAndShownInTheZone(_ c: Case) throws {
        let directory = NSTemporaryDirectory() + "intents-tz-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = directory + "/store.sqlite"
        let environment = ["TZ": c.zone, "INTENTS_NOW": c.now]
        func intents(_ arguments: [String]) throws -> CommandLineTests.Run {
            try ConversationCommandTests.run(arguments, store: store, overrides: environment)
        }

        let said = try intents(["say", "--json", "remind me to call mom tomorrow at 9"])
        #expect(said.status == 0, "\(said.stderr)")
        let answer = try CommandLineTests.result(said)
        let parameters = try #require(answer["parameters"] as? [String: Any])
        #expect(parameters["due"] as? String == c.due)

        let listed = try intents(["store", "list", "Task"])
        #expect(listed.stdout.contains("due: tomorrow at 09:00"), "\(listed.stdout)")

        let json = try intents(["store", "list", "Task", "--json"])
        let records = try CommandLineTests.resultList(json, "records")
        #expect(records.first?["createdAt"] as? String == c.created)
        #expect(records.first?["due"] as? String == c.due)
    }
}
