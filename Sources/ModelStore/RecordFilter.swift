public import IntentModel

/// Which records of an entity a query keeps: a condition over the entity's properties (the
/// built-in `id`, `createdAt` and `updatedAt` included) with values already computed.
///
/// Values are the definitions' `Value`s, typed by the property they meet: the store encodes them
/// the way it stores that property (an enum case by identifier, an entity reference by id, a date
/// as a moment). Only the store turns a filter into SQL (`SQLDialect`), with bound parameters.
///
/// A comparison with a property that has no value is false, except `== nil` and `!= nil`.
public indirect enum RecordFilter: Sendable, Hashable {
    /// Every record, or none.
    case constant(Bool)
    /// `property <op> value`; a nil value with `==`/`!=` asks whether the property has no value,
    /// with the ordering operators it is false. Enum properties order by their declared cases.
    case compare(property: String, Comparison, Value?)
    /// The property's value is one of these (none: false).
    case oneOf(property: String, [Value])
    /// A text property contains the text, ignoring case.
    case textContains(property: String, String)
    /// A list property holds the value.
    case listContains(property: String, Value)
    case not(RecordFilter)
    case and(RecordFilter, RecordFilter)
    case or(RecordFilter, RecordFilter)

    public enum Comparison: Sendable, Hashable, CaseIterable {
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
    }

    /// The property has no value.
    public static func isNil(_ property: String) -> RecordFilter { .compare(property: property, .equal, nil) }

    public static func && (lhs: RecordFilter, rhs: RecordFilter) -> RecordFilter { .and(lhs, rhs) }
    public static func || (lhs: RecordFilter, rhs: RecordFilter) -> RecordFilter { .or(lhs, rhs) }
    public static prefix func ! (filter: RecordFilter) -> RecordFilter { .not(filter) }
}
