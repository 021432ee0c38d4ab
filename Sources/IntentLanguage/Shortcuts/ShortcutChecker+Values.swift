import IntentModel
import YAML

extension Diagnostic.Message {
    static let bindingName: Self = "'as' names a variable: letters, digits and '_'"
    static func hasNo(_ callee: String, _ what: String, _ name: String) -> Self { "\(callee) has no \(what) '\(name)'" }
    static func argumentType(_ context: String, _ expected: ValueType, _ found: ValueType) -> Self {
        "\(context) must be \(expected), but this is \(found)"
    }
    static func needsArgument(_ callee: String, _ what: String, _ name: String, _ type: ValueType) -> Self {
        "\(callee) needs \(what) '\(name)' (\(type)): give it under 'with:'"
    }
    static let listItems: Self = "list items are plain values or one ${…} each"
}

/// Values in steps: `with:` arguments, plain values and templates, `as:` names.
extension ShortcutChecker {
    /// The variable an `as:` names; nil when there is none or it is not a name.
    mutating func variable(_ binding: Located<String>?) -> String? {
        guard let binding else { return nil }
        guard Compiler.isIdentifier(binding.value) else {
            compiler.diagnostics.error(.bindingName, at: binding.range)
            return nil
        }
        return binding.value
    }

    /// `with:` values for an intent's parameters or a shortcut's inputs: known names, fitting types,
    /// required ones present.
    mutating func arguments(
        _ arguments: Definition.Arguments, parameters: [(name: String, type: ValueType, required: Bool)],
        callee: String, scope: Scope, at location: SourceRange, what: String = "parameter"
    ) -> [IntentGraph.Assignment] {
        var assignments: [IntentGraph.Assignment] = []
        for (located, node) in arguments {
            let name = located.value
            guard let parameter = parameters.first(where: { $0.name == name }) else {
                compiler.diagnostics.missing(
                    .hasNo(callee, what, name), name, at: located.range, known: parameters.map(\.name))
                continue
            }
            let context = "\(what) '\(name)' of \(callee)"
            // A plain YAML value is read as the parameter's type: enum cases, dates, durations, URLs checked here.
            if let scalar = node.scalar,
                scalar.style == .plain || scalar.style == .singleQuoted || scalar.style == .doubleQuoted,
                !scalar.value.contains("${"), !node.isNull
            {
                guard let literal = compiler.value(node, as: parameter.type, context: context) else { continue }
                let expression = Expression(.literal(literal), span: 0..<scalar.value.count)
                let template = Template(parts: [.expression(expression, source: scalar.value)], source: scalar.value)
                assignments.append(IntentGraph.Assignment(name: name, value: template))
                continue
            }
            guard let (template, type) = valueTemplate(node, scope: scope) else { continue }
            if let found = type.valueType, !fits(found, parameter.type) {
                compiler.diagnostics.error(.argumentType(context, parameter.type, found), at: node.range)
            }
            assignments.append(IntentGraph.Assignment(name: name, value: template))
        }
        let given = Set(arguments.map(\.name.value))
        for parameter in parameters where parameter.required && !given.contains(parameter.name) {
            compiler.diagnostics.error(.needsArgument(callee, what, parameter.name, parameter.type), at: location)
        }
        return assignments
    }

    /// Whether a value of `found` can be passed where `expected` is wanted (text is read as the type when it runs).
    private func fits(_ found: ValueType, _ expected: ValueType) -> Bool {
        if expected.accepts(found) { return true }
        if found == .string {
            switch expected {
            case .enumeration, .entity, .url, .date: return true
            default: return false
            }
        }
        if case .array(let element) = expected {
            return fits(found, element) || found.element.map { fits($0, element) } == true
        }
        return false
    }

    /// A value: a plain YAML scalar, a list of them, or a `${…}` template.
    mutating func valueTemplate(_ node: Node, scope: Scope) -> (Template, ExpressionType)? {
        guard let items = node.sequence else { return compiler.assignmentTemplate(node, scope: scope, app: "") }
        var expressions: [Expression] = []
        var element: ValueType?
        for item in items {
            guard let (template, type) = compiler.assignmentTemplate(item, scope: scope, app: "") else { return nil }
            guard
                let expression = template.soleExpression ?? (template.parts.count == 1 ? stringLiteral(template) : nil)
            else {
                compiler.diagnostics.error(.listItems, at: item.range)
                return nil
            }
            expressions.append(expression)
            if element == nil { element = type.valueType }
        }
        let source = node.description
        let list = Expression(.list(expressions), span: 0..<source.count)
        return (
            Template(parts: [.expression(list, source: source)], source: source), .value(.array(element ?? .string))
        )
    }

    private func stringLiteral(_ template: Template) -> Expression? {
        guard case .text(let text) = template.parts.first else { return nil }
        return Expression(.literal(.string(text)), span: 0..<text.count)
    }

    mutating func textTemplate(_ text: Located<String>, scope: Scope) -> Template? {
        compiler.checkTemplate(text, scope: scope, app: "")?.0
    }
}
