import Foundation

/// `App.Name`: how enums, entities and intents are named across apps.
public struct QualifiedName: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var app: String
    public var name: String

    public init(app: String, name: String) {
        self.app = app
        self.name = name
    }

    public var description: String { "\(app).\(name)" }

    public static func < (lhs: QualifiedName, rhs: QualifiedName) -> Bool {
        (lhs.app, lhs.name) < (rhs.app, rhs.name)
    }
}

/// The type of a parameter, property or expression.
public indirect enum ValueType: Sendable, Hashable, CustomStringConvertible {
    case string, integer, number, boolean, date, duration, url
    case enumeration(QualifiedName)
    case entity(QualifiedName)
    case array(ValueType)

    /// The built-in scalar types by their spelling in definition files.
    public static let builtins: [String: ValueType] = [
        "string": .string, "integer": .integer, "number": .number, "boolean": .boolean,
        "date": .date, "duration": .duration, "url": .url,
    ]

    /// As written in definition files: `[Urgency]`, `Task`, `integer`.
    public var description: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .number: "number"
        case .boolean: "boolean"
        case .date: "date"
        case .duration: "duration"
        case .url: "url"
        case .enumeration(let name), .entity(let name): name.name
        case .array(let element): "[\(element)]"
        }
    }

    public var isNumeric: Bool { self == .integer || self == .number }

    /// Types whose values order: numbers, strings, dates, durations.
    public var isOrdered: Bool {
        switch self {
        case .integer, .number, .string, .date, .duration: true
        default: false
        }
    }

    public var element: ValueType? {
        if case .array(let element) = self { return element }
        return nil
    }

    public var entityName: QualifiedName? {
        if case .entity(let name) = self { return name }
        return nil
    }

    public var enumName: QualifiedName? {
        if case .enumeration(let name) = self { return name }
        return nil
    }

    /// Whether a value of `other` may be used where `self` is expected (integers widen to numbers).
    public func accepts(_ other: ValueType) -> Bool {
        if self == other { return true }
        switch (self, other) {
        case (.number, .integer): return true
        case (.array(let a), .array(let b)): return a.accepts(b)
        default: return false
        }
    }
}

/// A constant value from a definition file: defaults, examples, validation bounds, constants.
public indirect enum Value: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case integer(Int)
    case number(Double)
    case boolean(Bool)
    /// A moment or a relative date, resolved by a `Clock` when used.
    case date(DateValue)
    case duration(seconds: Int)
    case url(String)
    case enumCase(String)
    case array([Value])

    public var description: String {
        switch self {
        case .string(let text), .url(let text), .enumCase(let text): text
        case .date(let date): date.description
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .boolean(let value): String(value)
        case .duration(let seconds): DurationText.format(seconds: seconds)
        case .array(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        }
    }
}

/// Durations written in definition files: `25m`, `1h30m`, `90s`, `1:30:00`, or a number of seconds.
public enum DurationText {
    public static func parse(_ text: String) -> Int? {
        let text = text.trimmed.lowercased()
        if let seconds = Int(text) { return seconds }
        if text.contains(":") {
            let parts = text.split(separator: ":").map { Int($0) }
            guard parts.count >= 2, parts.count <= 3, !parts.contains(nil) else { return nil }
            var total = 0
            for part in parts.compactMap({ $0 }) {
                let (scaled, overflow) = total.multipliedReportingOverflow(by: 60)
                guard !overflow, case (let sum, false) = scaled.addingReportingOverflow(part) else { return nil }
                total = sum
            }
            return total
        }
        var total = 0
        var number = ""
        var sawUnit = false
        for character in text {
            if character.isNumber {
                number.append(character)
            } else {
                guard let value = Int(number) else { return nil }
                let unit: Int
                switch character {
                case "h": unit = 3600
                case "m": unit = 60
                case "s": unit = 1
                case "d": unit = 86400
                default: return nil
                }
                // Out of range is not a duration (never a wrapped or trapped one).
                let (seconds, overflow) = value.multipliedReportingOverflow(by: unit)
                guard !overflow, case (let sum, false) = total.addingReportingOverflow(seconds) else { return nil }
                total = sum
                number = ""
                sawUnit = true
            }
        }
        return sawUnit && number.isEmpty ? total : nil
    }

    public static func format(seconds: Int) -> String {
        let hours = seconds / 3600, minutes = seconds % 3600 / 60, rest = seconds % 60
        var text = ""
        if hours > 0 { text += "\(hours)h" }
        if minutes > 0 { text += "\(minutes)m" }
        if rest > 0 || text.isEmpty { text += "\(rest)s" }
        return text
    }
}
