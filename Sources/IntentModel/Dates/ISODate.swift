public import Foundation

/// ISO-8601 dates as the store keeps them: UTC, to the second (`2026-11-22T10:00:00Z`).
public enum ISODate {
    public static func format(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        // Digit by digit: `String(format:)` was a twentieth of an import's time.
        let year = Int(parts.tm_year) + 1900
        guard (0...9999).contains(year) else {
            return String(
                format: "%04d-%02d-%02dT%02d:%02d:%02dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                parts.tm_hour, parts.tm_min, parts.tm_sec)
        }
        var bytes = [UInt8](repeating: 0, count: 20)
        func put(_ value: Int, _ at: Int, _ width: Int) {
            var value = value
            for offset in stride(from: width - 1, through: 0, by: -1) {
                bytes[at + offset] = UInt8(48 + value % 10)
                value /= 10
            }
        }
        put(year, 0, 4)
        bytes[4] = 45
        put(Int(parts.tm_mon) + 1, 5, 2)
        bytes[7] = 45
        put(Int(parts.tm_mday), 8, 2)
        bytes[10] = 84
        put(Int(parts.tm_hour), 11, 2)
        bytes[13] = 58
        put(Int(parts.tm_min), 14, 2)
        bytes[16] = 58
        put(Int(parts.tm_sec), 17, 2)
        bytes[19] = 90
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads `2026-11-22`, `2026-11-22T09:00`, `2026-11-22T09:00:00`, with `Z` or `+01:00`;
    /// without a zone the time is local to `timeZone`.
    public static func parse(_ text: String, timeZone: TimeZone) -> Date? {
        guard let parts = components(text) else { return nil }
        // `format` writes the proleptic Gregorian calendar (gmtime); Foundation's is Julian before
        // 15 October 1582, which moved such a date by days on every export and import.
        if parts.year < 1583 { return prolepticGregorian(parts, timeZone: timeZone) }
        var calendar = Calendar(identifier: .gregorian)
        if let offset = parts.zoneOffset {
            guard let zone = TimeZone(secondsFromGMT: offset) else { return nil }
            calendar.timeZone = zone
        } else {
            calendar.timeZone = timeZone
        }
        return calendar.date(from: parts.dateComponents)
    }

    /// A date of the proleptic Gregorian calendar, as `gmtime` counts (days from the civil date,
    /// Howard Hinnant's algorithm); without a written zone, `timeZone`'s offset at that moment.
    private static func prolepticGregorian(_ parts: Parts, timeZone: TimeZone) -> Date {
        let year = parts.month <= 2 ? parts.year - 1 : parts.year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (parts.month + (parts.month > 2 ? -3 : 9)) + 2) / 5 + parts.day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let time = parts.time.map { $0.hour * 3600 + $0.minute * 60 + $0.second } ?? 0
        let local = TimeInterval(days * 86_400 + time)
        let offset = parts.zoneOffset ?? timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: local))
        return Date(timeIntervalSince1970: local - TimeInterval(offset))
    }

    /// The parts of an ISO-8601 date as written; nil when it is not one.
    public struct Parts: Sendable, Hashable {
        public var year: Int
        public var month: Int
        public var day: Int
        public var time: TimeOfDay?
        /// Seconds east of UTC when a zone is written (`Z` is 0).
        public var zoneOffset: Int?

        public var dateComponents: DateComponents {
            DateComponents(
                year: year, month: month, day: day, hour: time?.hour ?? 0, minute: time?.minute ?? 0,
                second: time?.second ?? 0)
        }
    }

    public static func components(_ text: String) -> Parts? {
        let scalars = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= scalars.count else { return nil }
            var value = 0
            for index in range {
                let digit = Int(scalars[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard scalars.count >= 10, let year = number(0..<4), scalars[4] == UInt8(ascii: "-"), let month = number(5..<7),
            scalars[7] == UInt8(ascii: "-"), let day = number(8..<10)
        else { return nil }
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        var parts = Parts(year: year, month: month, day: day)
        var position = 10
        if position < scalars.count, scalars[position] == UInt8(ascii: "T") || scalars[position] == UInt8(ascii: " ") {
            guard let hour = number(11..<13), scalars.count > 13, scalars[13] == UInt8(ascii: ":"),
                let minute = number(14..<16)
            else { return nil }
            var second = 0
            position = 16
            if position < scalars.count, scalars[position] == UInt8(ascii: ":") {
                guard let seconds = number(17..<19) else { return nil }
                second = seconds
                position = 19
                // Fractions of a second are read and dropped.
                if position < scalars.count, scalars[position] == UInt8(ascii: ".") {
                    position += 1
                    while position < scalars.count, (48...57).contains(scalars[position]) { position += 1 }
                }
            }
            guard let time = TimeOfDay(hour: hour, minute: minute, second: second) else { return nil }
            parts.time = time
        }
        if position < scalars.count {
            let rest = String(decoding: scalars[position...], as: UTF8.self)
            if rest == "Z" {
                parts.zoneOffset = 0
            } else if let sign = rest.first, sign == "+" || sign == "-",
                let hours = number((position + 1)..<(position + 3))
            {
                var offset = hours * 3600
                if let minutes = number((position + 4)..<(position + 6)) {
                    offset += minutes * 60
                } else if position + 3 != scalars.count {
                    return nil
                }
                parts.zoneOffset = sign == "-" ? -offset : offset
            } else {
                return nil
            }
        }
        return parts
    }
}
