import Foundation
import IntentModel
import ModelStore

/// Turns a `where:` expression into the store's typed `RecordFilter`. Parts that do not read the
/// entity's properties are evaluated here and become values. Returns nil for what the store
/// cannot say the same way (functions over properties, arithmetic on columns, ordering enums,
/// comparing lists): the caller then filters the records itself.
struct QueryCompiler {
    let evaluator: Evaluator
    let entity: IntentGraph.Entity
    let scope: Evaluator.Scope

    private struct Unsupported: Error {}

    func filter(_ expression: Expression) throws(RuntimeError) -> RecordFilter? {
        do {
            return try boolean(expression)
        } catch is Unsupported {
            return nil
        } catch let error as RuntimeError {
            throw error
        } catch {
            return nil
        }
    }

    /// The name and type of a property of the entity, if `expression` names one (properties shadow outer names).
    private func property(_ expression: Expression) -> (name: String, type: ValueType)? {
        guard case .name(let name) = expression.kind else { return nil }
        if let property = entity.property(name) { return (name, property.type) }
        if let builtin = IntentGraph.BuiltinProperty(rawValue: name) { return (name, builtin.type) }
        return nil
    }

    private func readsProperties(_ expression: Expression) -> Bool {
        expression.names.contains { entity.property($0) != nil || IntentGraph.BuiltinProperty(rawValue: $0) != nil }
    }

    private func boolean(_ expression: Expression) throws -> RecordFilter {
        switch expression.kind {
        case .unary(.not, let operand):
            return !(try boolean(operand))
        case .binary(.and, let a, let b):
            return try boolean(a) && boolean(b)
        case .binary(.or, let a, let b):
            return try boolean(a) || boolean(b)
        case .binary(let op, let a, let b) where Self.comparisons[op] != nil:
            return try comparison(op, a, b)
        case .binary(.contains, let needle, let haystack):
            if let list = property(haystack) {
                guard !readsProperties(needle) else { throw Unsupported() }
                let value = try evaluator.evaluate(needle, in: scope)
                if case .array = list.type {
                    guard let value = try self.value(value) else { return .constant(false) }
                    return .listContains(property: list.name, value)
                }
                guard list.type == .string else { throw Unsupported() }
                // As when evaluating: only text is found in text.
                guard case .string(let text) = value else { return .constant(false) }
                return .textContains(property: list.name, text)
            }
            guard let column = property(needle), !readsProperties(haystack) else { throw Unsupported() }
            let items = try evaluator.evaluate(haystack, in: scope).items ?? []
            // `nil in [...]` is left to evaluation, which compares nil with nil.
            let values = try items.map { item throws -> Value in
                guard let value = try self.value(item) else { throw Unsupported() }
                return value
            }
            return .oneOf(property: column.name, values)
        default:
            if let column = property(expression), column.type == .boolean {
                return .compare(property: column.name, .equal, .boolean(true))
            }
            guard !readsProperties(expression) else { throw Unsupported() }
            return .constant(try evaluator.evaluate(expression, in: scope).truthy)
        }
    }

    private static let comparisons: [Expression.BinaryOperator: RecordFilter.Comparison] = [
        .equal: .equal, .notEqual: .notEqual, .less: .less, .lessOrEqual: .lessOrEqual, .greater: .greater,
        .greaterOrEqual: .greaterOrEqual,
    ]

    private func comparison(_ op: Expression.BinaryOperator, _ a: Expression, _ b: Expression) throws -> RecordFilter {
        var (left, right, op) = (a, b, op)
        if property(left) == nil, property(right) != nil {
            (left, right) = (right, left)
            op =
                switch op {
                case .less: .greater
                case .lessOrEqual: .greaterOrEqual
                case .greater: .less
                case .greaterOrEqual: .lessOrEqual
                default: op
                }
        }
        guard let column = property(left), !readsProperties(right), let comparison = Self.comparisons[op] else {
            throw Unsupported()
        }
        // Enums order by declaration here only when evaluating; lists compare by value.
        switch column.type {
        case .enumeration where comparison != .equal && comparison != .notEqual: throw Unsupported()
        case .array: throw Unsupported()
        default: break
        }
        return .compare(property: column.name, comparison, try value(evaluator.evaluate(right, in: scope)))
    }

    /// A computed value as the store compares it; nil for null. Entities are their ids.
    private func value(_ datum: Datum) throws -> Value? {
        switch datum {
        case .null: return nil
        case .string(let text): return .string(text)
        case .url(let text): return .url(text)
        case .enumCase(_, let id): return .enumCase(id)
        case .entity(let record): return .string(record.id)
        case .integer(let number): return .integer(number)
        case .number(let number): return .number(number)
        case .boolean(let flag): return .boolean(flag)
        case .duration(let seconds): return .duration(seconds: seconds)
        case .date(let date): return .date(.moment(date))
        case .list: throw Unsupported()
        }
    }
}
