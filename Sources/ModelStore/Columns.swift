import Foundation
import GRDB
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

    static func encode(_ value: Value?, as type: ValueType, clock: Clock) -> DatabaseValue {
        guard let value else { return .null }
        switch (type, value) {
        case (.array(let element), .array(let items)):
            let json = items.map { jsonObject($0, as: element, clock: clock) }
            guard let data = try? JSONSerialization.data(withJSONObject: json, options: [.withoutEscapingSlashes]) else { return .null }
            return String(decoding: data, as: UTF8.self).databaseValue
        case (_, .string(let text)), (_, .url(let text)), (_, .enumCase(let text)):
            return text.databaseValue
        case (_, .date(let date)):
            return ISODate.format(clock.resolve(date)).databaseValue
        case (_, .integer(let number)):
            return type == .number ? Double(number).databaseValue : number.databaseValue
        case (_, .number(let number)):
            return number.databaseValue
        case (_, .boolean(let flag)):
            return (flag ? 1 : 0).databaseValue
        case (_, .duration(let seconds)):
            return seconds.databaseValue
        case (_, .array(let items)):
            return encode(.array(items), as: .array(type), clock: clock)
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
            case .date: return DateValue.parse(text).map(Value.date)
            case .enumeration: return .enumCase(text)
            case .array(let element):
                guard let data = text.data(using: .utf8), let items = try? JSONSerialization.jsonObject(with: data) as? [Any] else { return .array([]) }
                return .array(items.compactMap { value(fromJSON: $0, as: element, timeZone: .gmt) })
            default: return .string(text)
            }
        case .blob:
            return nil
        }
    }

    /// A value as a JSON object (export, lists in columns, the journal).
    static func jsonObject(_ value: Value, as type: ValueType, clock: Clock) -> Any {
        switch value {
        case .string(let text), .url(let text), .enumCase(let text): return text
        case .date(let date): return ISODate.format(clock.resolve(date))
        case .integer(let number): return number
        case .number(let number): return number
        case .boolean(let flag): return flag
        case .duration(let seconds): return seconds
        case .array(let items): return items.map { jsonObject($0, as: type.element ?? type, clock: clock) }
        }
    }

    /// JSON `true`/`false` (not 1/0): Foundation gives both as numbers, booleans typed as C `char`.
    static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }

    /// A JSON value read back as `type`; nil when it does not fit.
    /// Dates written without a zone are read in `timeZone`.
    static func value(fromJSON object: Any, as type: ValueType, timeZone: TimeZone) -> Value? {
        switch type {
        case .string, .entity:
            return (object as? String).map(Value.string)
        case .url:
            return (object as? String).map(Value.url)
        case .enumeration:
            return (object as? String).map(Value.enumCase)
        case .date:
            guard let text = object as? String, let date = ISODate.parse(text, timeZone: timeZone) else { return nil }
            return .date(.moment(date))
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
            let values = items.compactMap { value(fromJSON: $0, as: element, timeZone: timeZone) }
            return values.count == items.count ? .array(values) : nil
        }
    }
}
