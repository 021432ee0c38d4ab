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
        case (.array, .array(let items)):
            return JSONText.compact(.array(items.map { json($0, clock: clock) })).databaseValue
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

    /// A built-in property's column value: the id, or a stamp as ISO-8601 UTC text.
    static func encode(_ builtin: IntentGraph.BuiltinProperty, of record: Record) -> DatabaseValue {
        switch builtin {
        case .id: record.id.databaseValue
        case .createdAt: ISODate.format(record.createdAt).databaseValue
        case .updatedAt: ISODate.format(record.updatedAt).databaseValue
        }
    }

    /// A stored value that does not fit its column's type: written by another program, or by
    /// `UPDATE … SET refreshCount = 1e19`. Named with the record and column by `record(from:)`.
    struct Mismatch: Error {
        /// The value as stored, as JSON text would write it (`1e+19`, `"abc"`).
        var stored: String
        var type: ValueType
    }

    /// A column's value as the definitions type it; nil for NULL. A value of another type (a REAL
    /// outside `Int`'s range in an integer column, text in a number column, a date that does not
    /// parse, a blob) throws rather than trapping or being read as something it is not.
    static func decode(_ stored: DatabaseValue, as type: ValueType) throws(Mismatch) -> Value? {
        let mismatch = Mismatch(stored: json(stored: stored).map(JSONText.compact) ?? "a blob", type: type)
        switch stored.storage {
        case .null:
            return nil
        case .int64(let number):
            switch type {
            case .boolean: return .boolean(number != 0)
            case .duration: return .duration(seconds: Int(number))
            case .number: return .number(Double(number))
            case .integer: return .integer(Int(number))
            default: throw mismatch
            }
        case .double(let number):
            switch type {
            case .number: return .number(number)
            case .integer, .duration:
                // Only a whole number inside Int's range is an integer; Int(1e19) would trap.
                guard let whole = Int(exactly: number) else { throw mismatch }
                return type == .integer ? .integer(whole) : .duration(seconds: whole)
            default: throw mismatch
            }
        case .string(let text):
            switch type {
            case .url: return .url(text)
            case .date:
                guard let date = DateValue.parse(text) else { throw mismatch }
                return .date(date)
            case .enumeration: return .enumCase(text)
            case .array(let element):
                guard let items = try? JSONText.decode([JSONValue].self, from: text) else { throw mismatch }
                let values = items.compactMap { value(fromJSON: $0, as: element, timeZone: .gmt) }
                guard values.count == items.count else { throw mismatch }
                return .array(values)
            case .string, .entity: return .string(text)
            default: throw mismatch
            }
        case .blob:
            throw mismatch
        }
    }

    /// A column value as stored, for exporting columns the definitions no longer declare.
    static func json(stored: DatabaseValue) -> JSONValue? {
        switch stored.storage {
        case .int64(let number): .integer(Int(number))
        case .double(let number): .number(number)
        case .string(let text): .string(text)
        case .null, .blob: nil
        }
    }

    /// A value as JSON (export, lists in columns, the journal): dates resolved by `clock`.
    static func json(_ value: Value, clock: Clock) -> JSONValue {
        switch value {
        case .string(let text), .url(let text), .enumCase(let text): .string(text)
        case .date(let date): .string(ISODate.format(clock.resolve(date)))
        case .integer(let number): .integer(number)
        case .number(let number): .number(number)
        case .boolean(let flag): .bool(flag)
        case .duration(let seconds): .integer(seconds)
        case .array(let items): .array(items.map { json($0, clock: clock) })
        }
    }

    /// A JSON value read back as `type`; nil when it does not fit.
    /// Dates written without a zone are read in `timeZone`.
    static func value(fromJSON json: JSONValue, as type: ValueType, timeZone: TimeZone) -> Value? {
        switch (type, json) {
        case (.string, .string(let text)), (.entity, .string(let text)):
            return .string(text)
        case (.url, .string(let text)):
            return .url(text)
        case (.enumeration, .string(let text)):
            return .enumCase(text)
        case (.date, .string(let text)):
            return ISODate.parse(text, timeZone: timeZone).map { .date(.moment($0)) }
        case (.boolean, .bool(let flag)):
            return .boolean(flag)
        case (.integer, _), (.duration, _):
            guard let number = wholeNumber(json) else { return nil }
            return type == .integer ? .integer(number) : .duration(seconds: number)
        case (.number, .integer(let number)):
            return .number(Double(number))
        case (.number, .number(let number)):
            return .number(number)
        case (.array(let element), .array(let items)):
            let values = items.compactMap { value(fromJSON: $0, as: element, timeZone: timeZone) }
            return values.count == items.count ? .array(values) : nil
        default:
            return nil
        }
    }

    /// An integer, or a number without a fractional part (`3.0`).
    private static func wholeNumber(_ json: JSONValue) -> Int? {
        switch json {
        case .integer(let number): number
        case .number(let number) where number == number.rounded(): Int(exactly: number)
        default: nil
        }
    }
}
