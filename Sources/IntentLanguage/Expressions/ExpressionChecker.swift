import IntentModel
import YAML

extension Diagnostic.Message {
    static func unknownName(_ name: String) -> Self { "unknown name '\(name)'" }
    static func typeMismatch(_ what: String, expected: String, found: ValueType) -> Self {
        "\(what) must be \(expected), but this is \(found)"
    }
    static func noProperty(_ type: String, _ name: String) -> Self { "'\(type)' has no property '\(name)'" }
    static func notACase(_ name: String, of enumeration: QualifiedName) -> Self {
        "'\(name)' is not a case of \(enumeration.name)"
    }
}

/// What an expression may refer to: the schema's types and the names in scope.
struct TypeEnvironment: Sendable {
    /// Property types by entity.
    var entities: [QualifiedName: [String: ValueType]] = [:]
    /// Case identifiers by enum.
    var enums: [QualifiedName: [String]] = [:]

    /// A bare or `App.Name` type name as seen from `app`.
    func entityName(_ name: String, app: String) -> QualifiedName? {
        // Nearly every name is the app's own: no list of parts to build for it.
        guard name.utf8.contains(UInt8(ascii: ".")) else {
            let candidate = QualifiedName(app: app, name: name)
            return entities[candidate] == nil ? nil : candidate
        }
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        let candidate =
            parts.count == 2 ? QualifiedName(app: parts[0], name: parts[1]) : QualifiedName(app: app, name: name)
        return entities[candidate] == nil ? nil : candidate
    }
}

/// The type of a checked expression: a value type, the `nil` literal, or unknown after an error.
enum ExpressionType: Equatable {
    case value(ValueType)
    case null
    case unknown

    var valueType: ValueType? {
        if case .value(let type) = self { return type }
        return nil
    }
}

/// Checks expressions against the schema, resolving enum cases; every problem becomes a diagnostic.
struct ExpressionChecker {
    /// Names in scope and their types.
    typealias Scope = [String: ValueType]

    let environment: TypeEnvironment
    let app: String
    /// Maps a span of the expression's source to a place in the file.
    let locate: (Range<Int>) -> SourceRange
    /// Names whose declaration already failed: using them reports nothing more.
    var silent: Set<String> = []
    /// Properties and parameters (`App.Owner.name`) whose declaration failed: no "has no property" for them.
    var silentMembers: Set<String> = []
    var diagnostics = DiagnosticCollector()

    static let functions = BuiltinFunction.allCases.map(\.rawValue)

    /// Checks `expression` in `scope`; returns it with enum cases resolved, and its type.
    mutating func check(_ expression: Expression, in scope: Scope) -> (Expression, ExpressionType) {
        // Located only when a diagnostic needs it: most expressions are fine.
        var range: SourceRange { locate(expression.span) }
        func result(_ kind: Expression.Kind, _ type: ExpressionType) -> (Expression, ExpressionType) {
            (Expression(kind, span: expression.span), type)
        }
        switch expression.kind {
        case .literal(let value):
            return (expression, .value(Self.type(of: value)))
        case .null:
            return (expression, .null)
        case .enumCase(let enumeration, _):
            return (expression, .value(.enumeration(enumeration)))
        case .name(let name):
            if let type = scope[name] { return (expression, .value(type)) }
            if silent.contains(name) { return (expression, .unknown) }
            // A bare entity name is every record of it: `count(Radar)`.
            if environment.entityName(name, app: app) != nil {
                return checkQuery(name, nil, in: scope, span: expression.span)
            }
            diagnostics.unknown("name", name, at: range, known: scope.keys.sorted())
            return (expression, .unknown)
        case .implicitCase(let name):
            diagnostics.error("'.\(name)' needs an enum on the other side of a comparison", at: range)
            return (expression, .unknown)
        case .list(let items):
            var checked: [Expression] = []
            var element: ValueType?
            for item in items {
                let (expression, type) = check(item, in: scope)
                checked.append(expression)
                if let type = type.valueType {
                    if let known = element, !known.accepts(type) {
                        if type.accepts(known) {
                            element = type
                        } else {
                            diagnostics.error(
                                "a list holds one type; this is \(type), the list so far \(known)",
                                at: locate(item.span))
                        }
                    } else if element == nil {
                        element = type
                    }
                }
            }
            return result(.list(checked), .value(.array(element ?? .string)))
        case .member(let base, let member):
            let (checkedBase, baseType) = check(base, in: scope)
            let kind = Expression.Kind.member(checkedBase, member)
            guard let type = baseType.valueType else { return result(kind, .unknown) }
            switch type {
            case .entity(let entity):
                if let property = environment.entities[entity]?[member] { return result(kind, .value(property)) }
                if silentMembers.contains("\(entity.description).\(member)") { return result(kind, .unknown) }
                diagnostics.missing(
                    .noProperty(entity.name, member), member, at: range,
                    known: (environment.entities[entity] ?? [:]).keys.sorted())
            case .enumeration:
                if member == "title" || member == "id" { return result(kind, .value(.string)) }
                diagnostics.error("an enum value has 'id' and 'title', not '\(member)'", at: range)
            case .array:
                if member == "count" { return result(kind, .value(.integer)) }
                diagnostics.error("a list has 'count', not '\(member)'", at: range)
            case .url:
                if member == "host" || member == "path" { return result(kind, .value(.string)) }
                diagnostics.error("a url has 'host' and 'path', not '\(member)'", at: range)
            case .duration:
                if member == "minutes" || member == "seconds" || member == "hours" {
                    return result(kind, .value(.integer))
                }
                diagnostics.error("a duration has 'hours', 'minutes' and 'seconds', not '\(member)'", at: range)
            default:
                diagnostics.error("\(type) has no property '\(member)'", at: range)
            }
            return result(kind, .unknown)
        case .unary(let op, let operand):
            let (checked, type) = check(operand, in: scope)
            let kind = Expression.Kind.unary(op, checked)
            guard let valueType = type.valueType else { return result(kind, type == .null ? .unknown : type) }
            switch op {
            case .not:
                require(valueType, is: .boolean, "the operand of '!'", span: operand.span)
                return result(kind, .value(.boolean))
            case .negate:
                guard valueType.isNumeric || valueType == .duration else {
                    diagnostics.error(
                        .typeMismatch("the operand of '-'", expected: "a number", found: valueType),
                        at: locate(operand.span))
                    return result(kind, .unknown)
                }
                return result(kind, .value(valueType))
            }
        case .binary(let op, let left, let right):
            return checkBinary(op, left, right, in: scope, span: expression.span)
        case .conditional(let condition, let then, let otherwise):
            let (c, conditionType) = check(condition, in: scope)
            if let type = conditionType.valueType { require(type, is: .boolean, "a condition", span: condition.span) }
            let (a, aType) = check(then, in: scope)
            let (b, bType) = check(otherwise, in: scope)
            let kind = Expression.Kind.conditional(c, a, b)
            switch (aType, bType) {
            case (.value(let x), .value(let y)):
                if x.accepts(y) { return result(kind, .value(x)) }
                if y.accepts(x) { return result(kind, .value(y)) }
                diagnostics.error("both branches of '? :' must have one type; found \(x) and \(y)", at: range)
                return result(kind, .unknown)
            case (.value, _): return result(kind, aType)
            default: return result(kind, bType)
            }
        case .call(let name, let arguments):
            return checkCall(name, arguments, in: scope, span: expression.span)
        case .query(let entity, let filter):
            return checkQuery(entity, filter, in: scope, span: expression.span)
        }
    }

    /// Checks an expression that must be a boolean condition.
    mutating func checkCondition(_ expression: Expression, in scope: Scope) -> Expression {
        let (checked, type) = check(expression, in: scope)
        if let valueType = type.valueType {
            require(valueType, is: .boolean, "a condition", span: expression.span)
        }
        return checked
    }

    /// Reports a mismatch at `span`, located only when it is reported.
    /// `what` is said only on a mismatch: built for every operand, it was a tenth of checking.
    private mutating func require(
        _ type: ValueType, is expected: ValueType, _ what: @autoclosure () -> String, span: Range<Int>
    ) {
        if !expected.accepts(type) {
            diagnostics.error(.typeMismatch(what(), expected: expected.description, found: type), at: locate(span))
        }
    }

    /// Resolves a bare name or `.case` as a case of `enumeration` when it is not otherwise in scope.
    private func asCase(_ expression: Expression, of enumeration: QualifiedName, scope: Scope) -> Expression? {
        let name: String
        switch expression.kind {
        case .name(let n) where scope[n] == nil: name = n
        case .implicitCase(let n): name = n
        case .literal(.string(let n)): name = n
        default: return nil
        }
        return Expression(.enumCase(enumeration, name), span: expression.span)
    }

    private mutating func checkBinary(
        _ op: Expression.BinaryOperator, _ left: Expression, _ right: Expression, in scope: Scope, span: Range<Int>
    ) -> (Expression, ExpressionType) {
        var (l, lType) = check(left, in: scope, quietIfCase: true)
        var (r, rType) = check(right, in: scope, quietIfCase: true)

        // Enum cases take their type from the other side: `urgency == urgent`, `.urgent`, `'urgent'`.
        if case .value(.enumeration(let e)) = lType, let resolved = asCase(right, of: e, scope: scope) {
            (r, rType) = (resolved, validateCase(resolved, e))
        } else if case .value(.enumeration(let e)) = rType, let resolved = asCase(left, of: e, scope: scope) {
            (l, lType) = (resolved, validateCase(resolved, e))
        } else if op == .contains, case .value(.array(.enumeration(let e))) = rType,
            let resolved = asCase(left, of: e, scope: scope)
        {
            (l, lType) = (resolved, validateCase(resolved, e))
        }
        // Report names that are still unresolved now that no enum claimed them, unless the other
        // side is a name whose declaration failed (it might have been an enum: its error says enough).
        func isSilenced(_ expression: Expression) -> Bool {
            if case .name(let name) = expression.kind { return scope[name] == nil && silent.contains(name) }
            return false
        }
        if lType == .unknown, case .name = left.kind, !isSilenced(right) { (l, lType) = check(left, in: scope) }
        if rType == .unknown, case .name = right.kind, !isSilenced(left) { (r, rType) = check(right, in: scope) }
        if case .implicitCase = l.kind { (l, lType) = check(l, in: scope) }
        if case .implicitCase = r.kind { (r, rType) = check(r, in: scope) }

        let kind = Expression.Kind.binary(op, l, r)
        var range: SourceRange { locate(span) }
        func result(_ type: ExpressionType) -> (Expression, ExpressionType) { (Expression(kind, span: span), type) }

        switch op {
        case .and, .or:
            if let t = lType.valueType {
                require(t, is: .boolean, "the left side of '\(op.rawValue)'", span: left.span)
            }
            if let t = rType.valueType {
                require(t, is: .boolean, "the right side of '\(op.rawValue)'", span: right.span)
            }
            return result(.value(.boolean))
        case .equal, .notEqual:
            if let a = lType.valueType, let b = rType.valueType, !a.accepts(b), !b.accepts(a) {
                diagnostics.error("cannot compare \(a) with \(b)", at: range)
            }
            return result(.value(.boolean))
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            if let a = lType.valueType, let b = rType.valueType {
                if !a.isOrdered {
                    diagnostics.error(
                        "'\(op.rawValue)' orders numbers, strings, dates and durations, not \(a)", at: range)
                } else if !a.accepts(b), !b.accepts(a) {
                    diagnostics.error("cannot compare \(a) with \(b)", at: range)
                }
            } else if lType == .null || rType == .null {
                diagnostics.error("'\(op.rawValue)' cannot compare with nil", at: range)
            }
            return result(.value(.boolean))
        case .contains:
            if let b = rType.valueType {
                if let element = b.element {
                    if let a = lType.valueType, !element.accepts(a), !a.accepts(element) {
                        diagnostics.error("cannot look for \(a) in a list of \(element)", at: range)
                    }
                } else if b == .string {
                    if let a = lType.valueType, a != .string {
                        diagnostics.error("'in' looks for a string in a string, not \(a)", at: range)
                    }
                } else {
                    diagnostics.error(
                        .typeMismatch("the right side of 'in'", expected: "a list or a string", found: b),
                        at: locate(right.span))
                }
            }
            return result(.value(.boolean))
        case .coalesce:
            if let a = lType.valueType, let b = rType.valueType, !a.accepts(b) {
                diagnostics.error("'??' needs one type on both sides; found \(a) and \(b)", at: range)
            }
            return result(lType.valueType.map { .value($0) } ?? rType)
        case .add, .subtract, .multiply, .divide, .remainder:
            guard let a = lType.valueType, let b = rType.valueType else { return result(.unknown) }
            if op == .add, a == .string || b == .string { return result(.value(.string)) }
            if a.isNumeric, b.isNumeric {
                let type: ValueType = (a == .integer && b == .integer) ? .integer : .number
                return result(.value(type))
            }
            switch (op, a, b) {
            case (.add, .date, .duration), (.subtract, .date, .duration): return result(.value(.date))
            case (.add, .duration, .duration), (.subtract, .duration, .duration): return result(.value(.duration))
            case (.subtract, .date, .date): return result(.value(.duration))
            case (.multiply, .duration, .integer), (.multiply, .integer, .duration): return result(.value(.duration))
            default:
                diagnostics.error("'\(op.rawValue)' does not apply to \(a) and \(b)", at: range)
                return result(.unknown)
            }
        }
    }

    /// Like `check`, but a bare unknown name is left unreported: it may be an enum case.
    private mutating func check(_ expression: Expression, in scope: Scope, quietIfCase: Bool) -> (
        Expression, ExpressionType
    ) {
        switch expression.kind {
        case .name(let name) where scope[name] == nil: return (expression, .unknown)
        case .implicitCase: return (expression, .unknown)
        default: return check(expression, in: scope)
        }
    }

    private mutating func validateCase(_ expression: Expression, _ enumeration: QualifiedName) -> ExpressionType {
        guard case .enumCase(_, let name) = expression.kind else { return .unknown }
        let cases = environment.enums[enumeration] ?? []
        if cases.contains(name) { return .value(.enumeration(enumeration)) }
        if let suggestion = EditDistance.closest(to: name, in: cases) {
            diagnostics.error(
                "\(Diagnostic.Message.notACase(name, of: enumeration)); did you mean '\(suggestion)'?",
                at: locate(expression.span))
        } else {
            diagnostics.error(
                "\(Diagnostic.Message.notACase(name, of: enumeration)); its cases are \(cases.joined(separator: ", "))",
                at: locate(expression.span))
        }
        return .unknown
    }

    private mutating func checkCall(_ name: String, _ arguments: [Expression], in scope: Scope, span: Range<Int>) -> (
        Expression, ExpressionType
    ) {
        var range: SourceRange { locate(span) }
        var checked: [Expression] = []
        var types: [ExpressionType] = []
        for argument in arguments {
            let (expression, type) = check(argument, in: scope)
            checked.append(expression)
            types.append(type)
        }
        let call = Expression(.call(name, checked), span: span)
        func arity(_ count: ClosedRange<Int>) -> Bool {
            guard count.contains(arguments.count) else {
                let expected =
                    count.lowerBound == count.upperBound
                    ? "\(count.lowerBound)" : "\(count.lowerBound) to \(count.upperBound)"
                diagnostics.error(
                    "'\(name)' takes \(expected) argument\(count.upperBound == 1 ? "" : "s"), not \(arguments.count)",
                    at: range)
                return false
            }
            return true
        }
        func list(_ index: Int) -> ValueType? {
            guard let type = types[index].valueType else { return nil }
            guard let element = type.element else {
                diagnostics.error(
                    .typeMismatch("the argument of '\(name)'", expected: "a list or a query", found: type),
                    at: locate(arguments[index].span))
                return nil
            }
            return element
        }
        guard let function = BuiltinFunction(rawValue: name) else {
            diagnostics.unknown("function", name, at: range, known: Self.functions)
            return (call, .unknown)
        }
        switch function {
        case .count:
            if arity(1...1) { _ = list(0) }
            return (call, .value(.integer))
        case .exists:
            if arity(1...1) { _ = list(0) }
            return (call, .value(.boolean))
        case .first:
            guard arity(1...1), let element = list(0) else { return (call, .unknown) }
            return (call, .value(element))
        case .now, .today:
            _ = arity(0...0)
            return (call, .value(.date))
        case .pick:
            guard arity(1...8), let element = list(0) else { return (call, .unknown) }
            return (call, .value(element))
        case .percent:
            _ = arity(1...8)
            return (call, .value(.integer))
        case .lowercase, .uppercase, .capitalized:
            if arity(1...1), let type = types[0].valueType, type != .string {
                diagnostics.error(
                    .typeMismatch("the argument of '\(name)'", expected: "string", found: type), at: range)
            }
            return (call, .value(.string))
        case .join:
            if arity(1...2) { _ = list(0) }
            return (call, .value(.string))
        case .minutes, .hours, .days:
            if arity(1...1), let type = types[0].valueType, !type.isNumeric {
                diagnostics.error(
                    .typeMismatch("the argument of '\(name)'", expected: "a number", found: type), at: range)
            }
            return (call, .value(.duration))
        }
    }

    private mutating func checkQuery(_ entity: String, _ filter: Expression?, in scope: Scope, span: Range<Int>) -> (
        Expression, ExpressionType
    ) {
        guard let name = environment.entityName(entity, app: app) else {
            diagnostics.unknown(
                "entity", entity, at: locate(span),
                known: environment.entities.keys.filter { $0.app == app }.map(\.name))
            return (Expression(.query(entity: entity, filter: filter), span: span), .unknown)
        }
        var checkedFilter: Expression?
        if let filter {
            checkedFilter = checkCondition(
                filter, in: scope.merging(environment.entities[name] ?? [:]) { _, property in property })
        }
        return (
            Expression(.query(entity: name.description, filter: checkedFilter), span: span),
            .value(.array(.entity(name)))
        )
    }

    static func type(of value: Value) -> ValueType {
        switch value {
        case .string: .string
        case .integer: .integer
        case .number: .number
        case .boolean: .boolean
        case .date: .date
        case .duration: .duration
        case .url: .url
        case .enumCase: .string
        case .array(let items): .array(items.first.map(type(of:)) ?? .string)
        }
    }
}
