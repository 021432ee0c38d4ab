import Foundation
public import IntentModel
import IntentRuntime

/// A shortcut as the Shortcuts editor shows it: each step in words, intents by their parameter
/// summary ("Focus on Morning block for «minutes» minutes"), variables in «guillemets».
public enum ShortcutDescriber {
    public static func render(_ shortcut: Shortcut, graph: IntentGraph, clock: Clock) -> String {
        let evaluator = Evaluator(graph: graph, clock: clock, app: nil, store: nil)
        var lines = [shortcut.name + (shortcut.description.map { " — \($0)" } ?? "")]
        for input in shortcut.inputs {
            lines.append(
                "  input \(input.name): \(input.type)" + (input.defaultValue.map { " = \($0)" } ?? "")
                    + (input.prompt.map { " (asks “\($0)”)" } ?? ""))
        }
        render(shortcut.steps, graph: graph, evaluator: evaluator, prefix: "", indent: "  ", into: &lines)
        return lines.joined(separator: "\n") + "\n"
    }

    private static func render(
        _ steps: [Shortcut.Step], graph: IntentGraph, evaluator: Evaluator, prefix: String, indent: String,
        into lines: inout [String]
    ) {
        for (index, step) in steps.enumerated() {
            let number = prefix + "\(index + 1)."
            let lead = indent + number + " "
            let nested = indent + String(repeating: " ", count: number.count + 1)
            func bind(_ name: String?) -> String { name.map { " → \($0)" } ?? "" }
            switch step.kind {
            case .say(let template, let intent, let binding):
                let target = intent.flatMap { graph.intent($0) }.map { "  [\($0.title) in \($0.name.app)]" } ?? ""
                lines.append(lead + "Say “\(spoken(template))”" + bind(binding) + target)
            case .intent(let name, let arguments, let binding):
                guard let intent = graph.intent(name) else { continue }
                var parameters: [String: Datum] = [:]
                for parameter in intent.parameters {
                    if let argument = arguments.first(where: { $0.name == parameter.name }) {
                        parameters[parameter.name] =
                            literal(argument.value, parameter.type, evaluator)
                            ?? .string(
                                argument.value.soleExpression == nil
                                    ? spoken(argument.value) : "«\(source(argument.value))»")
                    } else if let value = parameter.defaultValue {
                        parameters[parameter.name] = evaluator.values.datum(value, as: parameter.type)
                    } else {
                        parameters[parameter.name] = .null
                    }
                }
                lines.append(
                    lead + Summary.text(of: intent, parameters: parameters, evaluator) + bind(binding) + "  [\(name)]")
            case .set(let assignments):
                lines.append(
                    lead + "Set " + assignments.map { "\($0.name) to \(shown($0.value))" }.joined(separator: ", "))
            case .branch(_, let condition, let then, let otherwise):
                lines.append(lead + "If \(condition.trimmed):")
                render(then, graph: graph, evaluator: evaluator, prefix: number, indent: nested, into: &lines)
                if !otherwise.isEmpty {
                    lines.append(nested + "Otherwise:")
                    render(otherwise, graph: graph, evaluator: evaluator, prefix: number, indent: nested, into: &lines)
                }
            case .repeatCount(_, let count, let binding, let body):
                lines.append(
                    lead + "Repeat \(unwrapped(count)) times" + (binding.map { " (count in \($0))" } ?? "") + ":")
                render(body, graph: graph, evaluator: evaluator, prefix: number, indent: nested, into: &lines)
            case .repeatEach(_, let list, let binding, let body):
                lines.append(lead + "Repeat with each \(binding) in \(unwrapped(list)):")
                render(body, graph: graph, evaluator: evaluator, prefix: number, indent: nested, into: &lines)
            case .choose(let prompt, _, let options, let binding):
                lines.append(lead + "Choose from \(unwrapped(options)): “\(spoken(prompt))”" + bind(binding))
            case .ask(let prompt, let type, let binding):
                lines.append(lead + "Ask for \(type): “\(spoken(prompt))”" + bind(binding))
            case .show(let template):
                lines.append(lead + "Show “\(spoken(template))”")
            case .output(let template):
                lines.append(lead + "Output \(shown(template))")
            case .stop(let message):
                lines.append(lead + "Stop" + (message.map { ": “\(spoken($0))”" } ?? ""))
            case .run(let file, let arguments, let binding):
                let with =
                    arguments.isEmpty
                    ? "" : " with " + arguments.map { "\($0.name): \(shown($0.value))" }.joined(separator: ", ")
                lines.append(lead + "Run shortcut \(PathText.lastComponent(file))" + with + bind(binding))
            case .activity(let step):
                let with =
                    step.arguments.isEmpty
                    ? "" : " with " + step.arguments.map { "\($0.name): \(shown($0.value))" }.joined(separator: ", ")
                let title = graph.liveActivity(step.activity)?.title ?? step.activity.name
                lines.append(lead + step.action.rawValue.capitalized + " the \(title) activity" + with)
            }
        }
    }

    /// A literal argument as the parameter's value; nil for one computed when the shortcut runs.
    private static func literal(_ template: Template, _ type: ValueType, _ evaluator: Evaluator) -> Datum? {
        guard let expression = template.soleExpression, case .literal(let value) = expression.kind else { return nil }
        return evaluator.values.datum(value, as: type)
    }

    private static func source(_ template: Template) -> String {
        unwrapped(template.source)
    }

    /// `${x}` → `x`.
    private static func unwrapped(_ text: String) -> String {
        let trimmed = text.trimmed
        if trimmed.hasPrefix("${"), trimmed.hasSuffix("}") { return String(trimmed.dropFirst(2).dropLast()) }
        return trimmed
    }

    /// A template's text with each `${expr}` as «expr».
    private static func spoken(_ template: Template) -> String {
        template.parts.map { part in
            switch part {
            case .text(let text): text
            case .expression(_, let source): "«\(unwrapped(source))»"
            }
        }.joined()
    }

    private static func shown(_ template: Template) -> String {
        if let expression = template.soleExpression, case .literal(let value) = expression.kind { return "\(value)" }
        if template.soleExpression != nil { return "«\(source(template))»" }
        return "“\(spoken(template))”"
    }
}
