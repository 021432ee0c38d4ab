import Foundation
import GRDB
import IntentLanguage
import IntentModel

/// How each value type lives in a SQLite column.
///
/// strings, urls, dates (ISO-8601 UTC), enum cases (identifier) and entity references (id) are
/// TEXT; integers, durations (seconds) and booleans (0/1) INTEGER; numbers REAL; lists a JSON array.
enum Columns {
    static func sqlType(_ type: ValueType) -> String {
        switch type {
        case .integer, .duration, .boolean: "INTEGER"
        case .number: "REAL"
        default: "TEXT"
        }
    }

    /// The type as recorded in the store's own schema table: stable across renames of the spelling.
    static func key(_ type: ValueType) -> String {
        switch type {
        case .enumeration(let name): "enum:\(name)"
        case .entity(let name): "entity:\(name)"
        case .array(let element): "[\(key(element))]"
        default: type.description
        }
    }

    static func encode(_ value: Value?, as type: ValueType) -> DatabaseValue {
        guard let value else { return .null }
        switch (type, value) {
        case (.array(let element), .array(let items)):
            let json = items.map { jsonObject($0, as: element) }
            guard let data = try? JSONSerialization.data(withJSONObject: json, options: [.withoutEscapingSlashes]) else { return .null }
            return String(decoding: data, as: UTF8.self).databaseValue
        case (_, .string(let text)), (_, .url(let text)), (_, .enumCase(let text)):
            return text.databaseValue
        case (_, .date(let text)):
            return (ISODate.parse(text).map(ISODate.format) ?? text).databaseValue
        case (_, .integer(let number)):
            return type == .number ? Double(number).databaseValue : number.databaseValue
        case (_, .number(let number)):
            return number.databaseValue
        case (_, .boolean(let flag)):
            return (flag ? 1 : 0).databaseValue
        case (_, .duration(let seconds)):
            return seconds.databaseValue
        case (_, .array(let items)):
            return encode(.array(items), as: .array(type))
        }
    }

    static func decode(_ stored: DatabaseValue, as type: ValueType) -> Value? {
        switch stored.storage {
        case .null:
            return nil
        case .int64(let number):
            switch type {
            case .boolean: return .boolean(number != 0)
            case .duration: return .duration(seconds: Int(number))
            case .number: return .number(Double(number))
            default: return .integer(Int(number))
            }
        case .double(let number):
            return type == .integer ? .integer(Int(number)) : .number(number)
        case .string(let text):
            switch type {
            case .url: return .url(text)
            case .date: return .date(text)
            case .enumeration: return .enumCase(text)
            case .array(let element):
                guard let data = text.data(using: .utf8), let items = try? JSONSerialization.jsonObject(with: data) as? [Any] else { return .array([]) }
                return .array(items.compactMap { value(fromJSON: $0, as: element) })
            default: return .string(text)
            }
        case .blob:
            return nil
        }
    }

    /// A value as a JSON object (export, lists in columns, the journal).
    static func jsonObject(_ value: Value, as type: ValueType) -> Any {
        switch value {
        case .string(let text), .url(let text), .enumCase(let text): return text
        case .date(let text): return ISODate.parse(text).map(ISODate.format) ?? text
        case .integer(let number): return number
        case .number(let number): return number
        case .boolean(let flag): return flag
        case .duration(let seconds): return seconds
        case .array(let items): return items.map { jsonObject($0, as: type.element ?? type) }
        }
    }

    /// JSON `true`/`false` (not 1/0): Foundation gives both as numbers, booleans typed as C `char`.
    static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }

    /// A JSON value read back as `type`; nil when it does not fit.
    static func value(fromJSON object: Any, as type: ValueType) -> Value? {
        switch type {
        case .string, .entity:
            return (object as? String).map(Value.string)
        case .url:
            return (object as? String).map(Value.url)
        case .enumeration:
            return (object as? String).map(Value.enumCase)
        case .date:
            guard let text = object as? String, let date = ISODate.parse(text) else { return nil }
            return .date(ISODate.format(date))
        case .boolean:
            guard let number = object as? NSNumber, isBoolean(number) else { return nil }
            return .boolean(number.boolValue)
        case .integer, .duration:
            guard let number = object as? NSNumber, !isBoolean(number), number.doubleValue == number.doubleValue.rounded() else { return nil }
            return type == .integer ? .integer(number.intValue) : .duration(seconds: number.intValue)
        case .number:
            guard let number = object as? NSNumber, !isBoolean(number) else { return nil }
            return .number(number.doubleValue)
        case .array(let element):
            guard let items = object as? [Any] else { return nil }
            let values = items.compactMap { value(fromJSON: $0, as: element) }
            return values.count == items.count ? .array(values) : nil
        }
    }
}

/// ISO-8601 dates as the store keeps them: UTC, to the second (`2026-11-22T10:00:00Z`).
public enum ISODate {
    public static func format(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec)
    }

    /// Reads `2026-11-22`, `2026-11-22T09:00`, `2026-11-22T09:00:00`, with `Z` or `+01:00`;
    /// without a zone the time is local to `timeZone`.
    public static func parse(_ text: String, timeZone: TimeZone = .current) -> Date? {
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
              scalars[7] == UInt8(ascii: "-"), let day = number(8..<10) else { return nil }
        var components = DateComponents(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        var position = 10
        if position < scalars.count, scalars[position] == UInt8(ascii: "T") || scalars[position] == UInt8(ascii: " ") {
            guard let hour = number(11..<13), scalars.count > 13, scalars[13] == UInt8(ascii: ":"), let minute = number(14..<16) else { return nil }
            components.hour = hour
            components.minute = minute
            position = 16
            if position < scalars.count, scalars[position] == UInt8(ascii: ":") {
                guard let second = number(17..<19) else { return nil }
                components.second = second
                position = 19
                // Fractions of a second are read and dropped.
                if position < scalars.count, scalars[position] == UInt8(ascii: ".") {
                    position += 1
                    while position < scalars.count, (48...57).contains(scalars[position]) { position += 1 }
                }
            }
        }
        var zone = timeZone
        if position < scalars.count {
            let rest = String(decoding: scalars[position...], as: UTF8.self)
            if rest == "Z" {
                zone = TimeZone(identifier: "UTC")!
            } else if let sign = rest.first, sign == "+" || sign == "-", let hours = number((position + 1)..<(position + 3)) {
                var offset = hours * 3600
                if let minutes = number((position + 4)..<(position + 6)) { offset += minutes * 60 }
                guard let fixed = TimeZone(secondsFromGMT: sign == "-" ? -offset : offset) else { return nil }
                zone = fixed
            } else {
                return nil
            }
        }
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: components)
    }
}
