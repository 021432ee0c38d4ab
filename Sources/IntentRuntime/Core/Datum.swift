public import Foundation
public import IntentModel
public import ModelStore

/// A value while intents run: parameters, bound names, results. Unlike a definition's `Value`, it
/// knows its enum, holds moments rather than text, and carries whole entities.
public indirect enum Datum: Sendable, Hashable {
    case null
    case string(String)
    case integer(Int)
    case number(Double)
    case boolean(Bool)
    case date(Date)
    /// Seconds.
    case duration(Int)
    case url(String)
    case enumCase(QualifiedName, String)
    case entity(Record)
    case list([Datum])

    public var isNull: Bool { self == .null }

    var items: [Datum]? {
        switch self {
        case .list(let items): items
        case .null: []
        default: nil
        }
    }

    var record: Record? {
        if case .entity(let record) = self { return record }
        return nil
    }

    var numeric: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        case .duration(let value): Double(value)
        default: nil
        }
    }

    /// What a condition makes of it: booleans as themselves, nothing as false, anything else as true.
    var truthy: Bool {
        switch self {
        case .boolean(let flag): flag
        case .null: false
        case .list(let items): !items.isEmpty
        default: true
        }
    }

    /// Stable text for hashing seeds (`pick`, `percent`): enum ids, days for dates.
    var seed: String {
        switch self {
        case .date(let date): String(ISODate.format(date).prefix(10))
        case .enumCase(_, let id): id
        case .entity(let record): record.id
        case .list(let items): items.map(\.seed).joined(separator: ",")
        case .string(let text), .url(let text): text
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .boolean(let value): String(value)
        case .duration(let value): String(value)
        case .null: ""
        }
    }
}

/// Conversions between definition values, store values and runtime values.
package struct Values {
    let graph: IntentGraph
    /// Frozen for the answer or step being worked out.
    let clock: Clock

    /// A definition or store value as a runtime value of `type`. Entity references need the store.
    package func datum(_ value: Value, as type: ValueType) -> Datum {
        datum(value, as: type) { _, id in .string(id) }
    }

    func datum<Failure: Error>(
        _ value: Value, as type: ValueType, entity: (QualifiedName, String) throws(Failure) -> Datum
    ) throws(Failure) -> Datum {
        switch (type, value) {
        case (.array(let element), .array(let items)):
            return .list(try items.map { item throws(Failure) in try datum(item, as: element, entity: entity) })
        case (.array(let element), _):
            return .list([try datum(value, as: element, entity: entity)])
        case (.enumeration(let name), .enumCase(let id)), (.enumeration(let name), .string(let id)):
            return .enumCase(name, id)
        case (.entity(let name), .string(let id)):
            return try entity(name, id)
        case (_, .date(let date)):
            return .date(clock.resolve(date))
        case (.number, .integer(let number)):
            return .number(Double(number))
        case (.url, .string(let text)):
            return .url(text)
        default:
            return plain(value)
        }
    }

    /// A value without a declared type (constants, literals).
    func plain(_ value: Value) -> Datum {
        switch value {
        case .string(let text): .string(text)
        case .integer(let number): .integer(number)
        case .number(let number): .number(number)
        case .boolean(let flag): .boolean(flag)
        case .date(let date): .date(clock.resolve(date))
        case .duration(let seconds): .duration(seconds)
        case .url(let text): .url(text)
        case .enumCase(let id): .string(id)
        case .array(let items): .list(items.map(plain))
        }
    }

    /// Text as a date: ISO-8601, or `now`, `today`, `tomorrow`, `yesterday` (any case, optionally at a time).
    func date(_ text: String) -> Date? {
        DateValue.parse(text).map(clock.resolve)
    }

    /// A runtime value as the store keeps it; nil for nothing.
    func value(_ datum: Datum) -> Value? {
        switch datum {
        case .null: nil
        case .string(let text): .string(text)
        case .integer(let number): .integer(number)
        case .number(let number): .number(number)
        case .boolean(let flag): .boolean(flag)
        case .date(let date): .date(.moment(date))
        case .duration(let seconds): .duration(seconds: seconds)
        case .url(let text): .url(text)
        case .enumCase(_, let id): .enumCase(id)
        case .entity(let record): .string(record.id)
        case .list(let items): .array(items.compactMap(value))
        }
    }

    /// `datum` made to fit `type`: integers widen, whole numbers narrow, text becomes urls, enum
    /// cases (by id or title) and dates. Throws a message when it cannot fit.
    func coerce(_ datum: Datum, to type: ValueType) throws(RuntimeError) -> Datum {
        switch (type, datum) {
        case (_, .null): return .null
        case (.number, .integer(let number)): return .number(Double(number))
        case (.integer, .number(let number)) where number == number.rounded() && abs(number) < 9.2e18:
            return .integer(Int(number))
        case (.url, .string(let text)): return .url(text)
        case (.string, .url(let text)): return .string(text)
        case (.string, .enumCase(let name, let id)): return .string(graph.enumeration(name)?.case(id)?.title ?? id)
        case (.enumeration(let name), .string(let text)):
            guard let enumeration = graph.enumeration(name) else { break }
            let folded = text.lowercased()
            if let match = enumeration.cases.first(where: {
                $0.id.lowercased() == folded || $0.title.lowercased() == folded
            }) {
                return .enumCase(name, match.id)
            }
        case (.date, .string(let text)):
            if let date = date(text) { return .date(date) }
        case (.array(let element), .list(let items)):
            return .list(try items.map { item throws(RuntimeError) in try coerce(item, to: element) })
        case (.array(let element), _):
            return .list([try coerce(datum, to: element)])
        default:
            break
        }
        if fits(datum, type) { return datum }
        throw RuntimeError.failed(
            "“\(Evaluator(graph: graph, clock: clock, app: nil, store: nil).describe(datum))” is not \(article(type))")
    }

    private func fits(_ datum: Datum, _ type: ValueType) -> Bool {
        switch (type, datum) {
        case (.string, .string), (.integer, .integer), (.number, .number), (.boolean, .boolean), (.date, .date),
            (.duration, .duration), (.url, .url):
            true
        case (.enumeration(let a), .enumCase(let b, _)): a == b
        case (.entity(let a), .entity(let record)): a == record.entity
        default: false
        }
    }

    private func article(_ type: ValueType) -> String {
        switch type {
        case .integer, .url, .array: "an \(type)"
        case .enumeration(let name), .entity(let name):
            "\(Nouns.article(for: Nouns.words(name.name))) \(Nouns.words(name.name))"
        default: "a \(type)"
        }
    }
}

/// An intent that stopped: a `fail:` step, a value that does not fit, a store error.
public enum RuntimeError: Error, CustomStringConvertible {
    /// The intent's own words (a `fail:` step) or a value problem: the store is left as it was.
    case failed(String)
    /// The store could not be used: the command exits non-zero.
    case store(String)

    public var description: String {
        switch self {
        case .failed(let message), .store(let message): message
        }
    }
}

/// Foundation has an `Expression` too; ours is the definitions' expression language.
typealias Expression = IntentModel.Expression
