import Foundation
import IntentLanguage
import IntentModel
import ModelStore

/// Turns a `where:` expression into SQL over the entity's columns. Parts that do not read the
/// entity's properties are evaluated here and bound as arguments. Returns nil for what SQL cannot
/// say the same way (functions over properties, arithmetic on columns): the caller then filters
/// the records itself.
struct QueryCompiler {
    let evaluator: Evaluator
    let entity: IntentGraph.Entity
    let scope: Evaluator.Scope

    private struct Unsupported: Error {}

    func condition(_ filter: Expression) throws(RuntimeError) -> SQLCondition? {
        var arguments: [SQLArgument] = []
        do {
            let sql = try boolean(filter, &arguments)
            return SQLCondition(sql: sql, arguments: arguments)
        } catch is Unsupported {
            return nil
        } catch let error as RuntimeError {
            throw error
        } catch {
            return nil
        }
    }

    /// The type of a property of the entity, if `name` is one (properties shadow outer names).
    private func property(_ expression: Expression) -> (column: String, type: ValueType)? {
        guard case .name(let name) = expression.kind else { return nil }
        if let property = entity.property(name) { return (name, property.type) }
        if let builtin = IntentGraph.Entity.builtinProperties.first(where: { $0.0 == name }) { return (name, builtin.1) }
        return nil
    }

    private func readsProperties(_ expression: Expression) -> Bool {
        expression.names.contains { name in entity.property(name) != nil || IntentGraph.Entity.builtinProperties.contains { $0.0 == name } }
    }

    private func boolean(_ expression: Expression, _ arguments: inout [SQLArgument]) throws -> String {
        switch expression.kind {
        case .unary(.not, let operand):
            return "NOT (\(try boolean(operand, &arguments)))"
        case .binary(.and, let a, let b):
            return "(\(try boolean(a, &arguments)) AND \(try boolean(b, &arguments)))"
        case .binary(.or, let a, let b):
            return "(\(try boolean(a, &arguments)) OR \(try boolean(b, &arguments)))"
        case .binary(let op, let a, let b) where [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual].contains(op):
            return try comparison(op, a, b, &arguments)
        case .binary(.contains, let needle, let haystack):
            if let column = property(haystack) {
                guard !readsProperties(needle) else { throw Unsupported() }
                let value = try argument(evaluator.evaluate(needle, in: scope))
                arguments.append(value)
                if case .array = column.type { return "EXISTS (SELECT 1 FROM json_each(\(quote(column.column))) WHERE value = ?)" }
                if column.type == .string { return "instr(lower(\(quote(column.column))), lower(?)) > 0" }
                throw Unsupported()
            }
            guard let column = property(needle), !readsProperties(haystack) else { throw Unsupported() }
            let items = try evaluator.evaluate(haystack, in: scope).items ?? []
            guard !items.isEmpty else { return "0" }
            for item in items { arguments.append(try argument(item)) }
            return "\(quote(column.column)) IN (\(Array(repeating: "?", count: items.count).joined(separator: ", ")))"
        default:
            if let column = property(expression), column.type == .boolean { return "(\(quote(column.column)) = 1)" }
            guard !readsProperties(expression) else { throw Unsupported() }
            return try evaluator.evaluate(expression, in: scope).truthy ? "1" : "0"
        }
    }

    private func comparison(_ op: Expression.BinaryOperator, _ a: Expression, _ b: Expression, _ arguments: inout [SQLArgument]) throws -> String {
        var (left, right, op) = (a, b, op)
        if property(left) == nil, property(right) != nil {
            (left, right) = (right, left)
            op = switch op {
            case .less: .greater
            case .lessOrEqual: .greaterOrEqual
            case .greater: .less
            case .greaterOrEqual: .lessOrEqual
            default: op
            }
        }
        guard let column = property(left), !readsProperties(right) else { throw Unsupported() }
        let value = try evaluator.evaluate(right, in: scope)
        // Enums order by declaration, not spelling; arrays and entities compare by value here.
        switch column.type {
        case .enumeration where op != .equal && op != .notEqual: throw Unsupported()
        case .array: throw Unsupported()
        default: break
        }
        let sqlOperator = switch op {
        case .equal: "IS"
        case .notEqual: "IS NOT"
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        default: ">="
        }
        if value.isNull, op != .equal, op != .notEqual { return "0" }
        arguments.append(try argument(value, for: column.type))
        return "(\(quote(column.column)) \(sqlOperator) ?)"
    }

    private func argument(_ datum: Datum, for type: ValueType? = nil) throws -> SQLArgument {
        switch datum {
        case .null: return .null
        case .string(let text), .url(let text): return .text(text)
        case .enumCase(_, let id): return .text(id)
        case .entity(let record): return .text(record.id)
        case .integer(let number): return type == .number ? .real(Double(number)) : .integer(number)
        case .number(let number): return .real(number)
        case .boolean(let flag): return .integer(flag ? 1 : 0)
        case .duration(let seconds): return .integer(seconds)
        case .date(let date): return .text(ISODate.format(date))
        case .list: throw Unsupported()
        }
    }

    private func quote(_ column: String) -> String {
        "\"" + column.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
