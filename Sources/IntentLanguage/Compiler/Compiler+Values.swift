import Foundation
import IntentModel
import YAML

extension Compiler {
    /// A YAML value as a value of `type`, or a diagnostic saying why it does not fit.
    /// Entities are named by their title (examples), so an entity value is a string here.
    mutating func value(_ node: Node, as type: ValueType, context: String) -> Value? {
        func fail(_ expected: String) -> Value? {
            diagnostics.error("\(context) must be \(expected); '\(node.description)' is not", at: node.range)
            return nil
        }
        if case .array(let element) = type {
            guard let items = node.sequence else {
                // One value where a list is expected: a list of one.
                return value(node, as: element, context: context).map { .array([$0]) }
            }
            var values: [Value] = []
            for item in items {
                guard let value = value(item, as: element, context: context) else { return nil }
                values.append(value)
            }
            return .array(values)
        }
        guard let scalar = node.scalar, !node.isNull else { return fail("a single \(type) value") }
        let text = scalar.value
        switch type {
        case .string:
            return .string(text)
        case .integer:
            return node.int.map(Value.integer) ?? fail("a whole number")
        case .number:
            return node.double.map(Value.number) ?? fail("a number")
        case .boolean:
            return node.bool.map(Value.boolean) ?? fail("true or false")
        case .date:
            if let date = DateValue.parse(text) { return .date(date) }
            return fail(
                "a date (now, today, tomorrow, yesterday, 'tomorrow at 9:00', or ISO-8601 like 2026-03-01 or 2026-03-01T09:00)"
            )
        case .duration:
            return DurationText.parse(text).map { .duration(seconds: $0) }
                ?? fail("a duration (25m, 1h30m, 90s or seconds)")
        case .url:
            guard let url = URL(string: text), url.scheme != nil else {
                return fail("a URL with a scheme, like https://example.com")
            }
            return .url(text)
        case .enumeration(let name):
            let cases = environment.enums[name] ?? []
            if cases.contains(text) { return .enumCase(text) }
            if let suggestion = EditDistance.closest(to: text, in: cases) {
                diagnostics.error(
                    "\(context): '\(text)' is not a case of \(name.name); did you mean '\(suggestion)'?",
                    at: node.range,
                    fixIt: Diagnostic.FixIt(replacement: suggestion, range: node.range))
            } else {
                diagnostics.error(
                    "\(context): '\(text)' is not a case of \(name.name) (\(cases.joined(separator: ", ")))",
                    at: node.range)
            }
            return nil
        case .entity:
            return .string(text)
        case .array:
            return nil
        }
    }

    /// A value as a one-expression template (for `set:` and `with:` values written as YAML scalars).
    mutating func assignmentTemplate(_ node: Node, scope: ExpressionChecker.Scope, app: String) -> (
        Template, ExpressionType
    )? {
        guard let scalar = node.scalar else {
            diagnostics.error("expected a value or a ${…} template", at: node.range)
            return nil
        }
        if node.isNull {
            return (Template(parts: [.expression(Expression(.null, span: 0..<0), source: "nil")], source: "nil"), .null)
        }
        if scalar.style == .plain, !scalar.value.contains("${") {
            let literal: Value? =
                node.int.map(Value.integer) ?? node.double.map(Value.number) ?? node.bool.map(Value.boolean)
            if let literal {
                let expression = Expression(.literal(literal), span: 0..<scalar.value.count)
                return (
                    Template(parts: [.expression(expression, source: scalar.value)], source: scalar.value),
                    .value(ExpressionChecker.type(of: literal))
                )
            }
        }
        return checkTemplate(Located(scalar.value, at: node.range), scope: scope, app: app)
    }
}
