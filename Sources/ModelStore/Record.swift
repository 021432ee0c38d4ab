public import Foundation
public import IntentModel

/// One stored entity: its type, stable id, timestamps and property values.
///
/// Values use the definitions' `Value`: dates as ISO-8601 text (`2026-11-22T10:00:00Z`), enum
/// cases by identifier, durations in seconds, entity references by id. A property with no value
/// is absent from `values`.
public struct Record: Sendable, Hashable {
    public var entity: QualifiedName
    public var id: String
    public var createdAt: Date
    public var updatedAt: Date
    public var values: [String: Value]

    public init(entity: QualifiedName, id: String, createdAt: Date, updatedAt: Date, values: [String: Value]) {
        self.entity = entity
        self.id = id
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.values = values
    }

    /// A property's value, the built-in ones included.
    public subscript(property: String) -> Value? {
        guard let builtin = IntentGraph.BuiltinProperty(rawValue: property) else { return values[property] }
        return self[builtin]
    }

    /// A built-in property's value.
    public subscript(builtin: IntentGraph.BuiltinProperty) -> Value {
        switch builtin {
        case .id: .string(id)
        case .createdAt: .date(.moment(createdAt))
        case .updatedAt: .date(.moment(updatedAt))
        }
    }
}

/// Which records a query wants: a filter over the entity's properties, an order and a limit.
/// Records that tie on every sort key come oldest first.
public struct RecordQuery: Sendable, Hashable {
    public var entity: QualifiedName
    public var filter: RecordFilter?
    public var sort: [IntentGraph.SortKey]
    public var limit: Int?

    public init(
        entity: QualifiedName, filter: RecordFilter? = nil, sort: [IntentGraph.SortKey] = [], limit: Int? = nil
    ) {
        self.entity = entity
        self.filter = filter
        self.sort = sort
        self.limit = limit
    }
}

/// What went wrong with the store. Each message names the file, and for migrations the entity and property.
public enum StoreError: Error, CustomStringConvertible {
    /// The file could not be opened or is not a store (not SQLite, read-only, locked).
    case unusable(path: String, reason: String)
    /// The definitions changed in a way that would lose data.
    case destructiveChange(path: String, reasons: [String])
    /// A write failed (locked past the timeout, disk full, constraint).
    case writeFailed(String)
    /// Import data that does not fit the definitions.
    case invalidData(String)
    /// `update`/`delete` of a record that is no longer there.
    case missingRecord(QualifiedName, String)
    /// A stored value its column's type cannot read (written by another program): the record,
    /// the column, the value as stored and the type it should have.
    case unreadable(entity: QualifiedName, id: String, column: String, stored: String, type: ValueType)
    /// A value of the store's own tables (a question's state, an activity's parameters) that is
    /// not what `intents` writes there: the file, where (`_live_activities row 3, column state`),
    /// and what it holds instead.
    case damaged(path: String, place: String, reason: String)

    public var description: String {
        switch self {
        case .unusable(let path, let reason): "cannot use the store \(path): \(reason)"
        case .destructiveChange(let path, let reasons):
            "the definitions changed in a way that would lose data in \(path):\n"
                + reasons.map { "  - \($0)" }.joined(separator: "\n")
                + "\nNothing was changed. Restore the definition, or export the data (intents store export), adjust it and import it into a new store."
        case .writeFailed(let reason): "the store could not be written: \(reason)"
        case .invalidData(let reason): reason
        case .missingRecord(let entity, let id): "\(entity.name) \(id) is no longer in the store"
        case .unreadable(let entity, let id, let column, let stored, let type):
            "\(entity.name) \(id): \(column) holds \(stored), not a value of type \(type)"
        case .damaged(let path, let place, let reason):
            "the store \(path) is damaged: \(place) \(reason) (it was changed outside intents); 'intents store export' still copies out the records"
        }
    }
}
