public import Foundation

/// A date as definitions and shortcut files write it: a moment, or a day counted from today, with
/// an optional time of day. Relative dates are resolved only by a `Clock`.
public enum DateValue: Sendable, Hashable, CustomStringConvertible {
    /// An instant: ISO-8601 with a zone, or a date the store kept.
    case moment(Date)
    /// The moment the clock reads.
    case now
    /// Today (0), tomorrow (1), yesterday (-1), …, at the start of the day or at `time`.
    case relative(days: Int, time: TimeOfDay?)
    /// A calendar day written without a zone (`2026-03-01`, `2026-03-01T09:00`): in the clock's zone.
    case local(year: Int, month: Int, day: Int, time: TimeOfDay?)

    /// The relative days by name, in the spelling definitions use.
    public static let relativeDays: [String: Int] = ["today": 0, "tomorrow": 1, "yesterday": -1]

    /// Reads `now`, `today`, `tomorrow`, `yesterday` (any case, optionally `at HH:MM`) or ISO-8601.
    public static func parse(_ text: String) -> DateValue? {
        let words = text.trimmed.lowercased().split(separator: " ").map(String.init)
        guard let first = words.first else { return nil }
        if first == "now" { return words.count == 1 ? .now : nil }
        if let days = relativeDays[first] {
            let rest = words.dropFirst().drop { $0 == "at" }
            guard rest.count <= 1 else { return nil }
            guard let clock = rest.first else { return .relative(days: days, time: nil) }
            return TimeOfDay(clock).map { .relative(days: days, time: $0) }
        }
        guard words.count == 1, let parts = ISODate.components(text.trimmed) else { return nil }
        if parts.zoneOffset != nil {
            // One reading of a written moment for the store and the definitions (ISODate's, which
            // agrees with `ISODate.format` before 1583 too).
            return ISODate.parse(text.trimmed, timeZone: .gmt).map(DateValue.moment)
        }
        return .local(year: parts.year, month: parts.month, day: parts.day, time: parts.time)
    }

    /// As written in definitions: ISO-8601 for moments (UTC), words for relative days.
    public var description: String {
        switch self {
        case .moment(let date): return ISODate.format(date)
        case .now: return "now"
        case .relative(let days, let time):
            let name = Self.relativeDays.first { $0.value == days }?.key ?? "today \(days >= 0 ? "+" : "")\(days)d"
            return time.map { "\(name) at \($0)" } ?? name
        case .local(let year, let month, let day, let time):
            let date = String(format: "%04d-%02d-%02d", year, month, day)
            return time.map { date + "T\($0)" } ?? date
        }
    }
}

/// A time of day, to the second.
public struct TimeOfDay: Sendable, Hashable, CustomStringConvertible {
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init?(hour: Int, minute: Int, second: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// `9`, `9:30`, `09:30:15`.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...3).contains(parts.count), !parts.contains(nil) else { return nil }
        let numbers = parts.compactMap { $0 }
        self.init(
            hour: numbers[0], minute: numbers.count > 1 ? numbers[1] : 0, second: numbers.count > 2 ? numbers[2] : 0)
    }

    public var description: String {
        second == 0 ? String(format: "%02d:%02d", hour, minute) : String(format: "%02d:%02d:%02d", hour, minute, second)
    }
}
