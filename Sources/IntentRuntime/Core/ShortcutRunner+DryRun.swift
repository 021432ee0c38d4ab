import Foundation
import IntentModel
import YAML

/// Dry runs: intents are resolved but not executed, so their results are not known. Names bound
/// to such results are `unknown`; a step that reads one is described ("Would show “• «task.title»”")
/// instead of being run on a made-up value, and what it would bind becomes unknown in turn.
extension ShortcutRunner {
    /// The names a step reads itself (not the steps nested in it).
    static func names(readBy kind: Shortcut.Kind) -> [String] {
        func inTemplate(_ template: Template) -> [String] { template.expressions.flatMap(\.names) }
        func inAssignments(_ assignments: [IntentGraph.Assignment]) -> [String] {
            assignments.flatMap { inTemplate($0.value) }
        }
        switch kind {
        case .say(let template, _, _), .show(let template), .output(let template): return inTemplate(template)
        case .intent(_, let arguments, _), .run(_, let arguments, _): return inAssignments(arguments)
        case .set(let assignments): return inAssignments(assignments)
        case .branch(let condition, _, _, _): return condition.names
        case .repeatCount(let count, _, _, _): return count.names
        case .repeatEach(let list, _, _, _): return list.names
        case .choose(let prompt, let options, _, _): return inTemplate(prompt) + options.names
        case .ask(let prompt, _, _): return inTemplate(prompt)
        case .stop(let message): return message.map(inTemplate) ?? []
        case .activity(let step): return inAssignments(step.arguments) + (step.id.map(inTemplate) ?? [])
        }
    }

    /// Every name the steps may bind, at any depth.
    static func names(boundBy steps: [Shortcut.Step]) -> Set<String> {
        var names: Set<String> = []
        var pending = steps
        while let step = pending.popLast() {
            switch step.kind {
            case .say(_, _, let binding), .intent(_, _, let binding), .run(_, _, let binding):
                if let binding { names.insert(binding) }
            case .set(let assignments): names.formUnion(assignments.map(\.name))
            case .branch(_, _, let then, let otherwise): pending += then + otherwise
            case .repeatCount(_, _, let binding, let body):
                if let binding { names.insert(binding) }
                pending += body
            case .repeatEach(_, _, let binding, let body):
                names.insert(binding)
                pending += body
            case .choose(_, _, _, let binding), .ask(_, _, let binding): names.insert(binding)
            case .show, .output, .stop, .activity: break
            }
        }
        return names
    }

    /// `template` with the parts that are known rendered and the others as «source».
    func sketch(_ template: Template, _ scope: [String: Datum], at location: SourceRange) throws -> String {
        var out = ""
        for part in template.parts {
            switch part {
            case .text(let text): out += text
            case .expression(let expression, let source):
                if expression.names.contains(where: unknown.contains) {
                    out += "«\(source.trimmed)»"
                } else {
                    out += try text(Template(parts: [part], source: source), scope, at: location)
                }
            }
        }
        return out
    }

    /// In a dry run, a step that reads a result the run does not have is described instead of run.
    /// Returns false when the step can run as usual.
    func describeInDryRun(_ step: Shortcut.Step, in scope: inout [String: Datum]) throws -> Bool {
        guard options.dryRun else { return false }
        let reads = Self.names(readBy: step.kind).filter(unknown.contains)
        guard !reads.isEmpty else { return false }
        let location = step.location
        func would(_ kind: String, _ text: String) {
            record(Event(location: location, step: kind, text: "Would " + text, intent: nil, status: .ready))
        }
        func notKnown(_ name: String?) {
            guard let name else { return }
            unknown.insert(name)
            scope[name] = .null
        }
        let missing = Array(Set(reads)).sorted().joined(separator: ", ")
        switch step.kind {
        case .say(let template, _, let binding):
            would("say", "say “\(try sketch(template, scope, at: location))”")
            notKnown(binding)
        case .intent(let name, let arguments, let binding):
            let title = session.graph.intent(name)?.title ?? name.description
            let shown = try arguments.map { "\($0.name): \(try sketch($0.value, scope, at: location))" }
            would("intent", "run \(title)" + (shown.isEmpty ? "" : " with " + shown.joined(separator: ", ")))
            notKnown(binding)
        case .run(let file, _, let binding):
            would("run", "run \(PathText.lastComponent(file)) with inputs a dry run does not have (\(missing))")
            notKnown(binding)
        case .set(let assignments):
            for assignment in assignments {
                if assignment.value.expressions.flatMap(\.names).contains(where: unknown.contains) {
                    notKnown(assignment.name)
                } else {
                    scope[assignment.name] = try value(assignment.value, scope, at: location)
                    unknown.remove(assignment.name)
                }
            }
        case .branch(_, let source, let then, let otherwise):
            would(
                "if", "decide “\(source.trimmed)” on a result a dry run does not have (\(missing)); neither branch runs"
            )
            for name in Self.names(boundBy: then + otherwise) { notKnown(name) }
        case .repeatCount(_, let source, let binding, let body):
            would("repeat", "repeat “\(source.trimmed)” times (not known in a dry run); once:")
            notKnown(binding)
            try run(body, in: &scope)
        case .repeatEach(_, let source, let binding, let body):
            would(
                "repeat_each",
                "repeat for each item of “\(source.trimmed)” (not known in a dry run), with \(binding) as one of them:")
            let outer = scope[binding]
            notKnown(binding)
            try run(body, in: &scope)
            scope[binding] = outer
        case .choose(let prompt, _, let source, let binding):
            would("choose", "ask “\(try sketch(prompt, scope, at: location))” to choose from “\(source.trimmed)”")
            notKnown(binding)
        case .ask(let prompt, _, let binding):
            would("ask", "ask “\(try sketch(prompt, scope, at: location))”")
            notKnown(binding)
        case .show(let template):
            would("show", "show “\(try sketch(template, scope, at: location))”")
        case .output(let template):
            if depth == 1 { would("output", "output “\(try sketch(template, scope, at: location))”") }
            throw Stop.output(.null)
        case .stop(let message):
            would("stop", "stop" + (try message.map { ": “\(try sketch($0, scope, at: location))”" } ?? ""))
            throw Stop.stop
        case .activity(let activityStep):
            let shown = try activityStep.arguments.map { "\($0.name): \(try sketch($0.value, scope, at: location))" }
            would(
                activityStep.action.verb,
                "\(activityStep.action.rawValue) \(activityStep.activity.name)"
                    + (shown.isEmpty ? "" : " with " + shown.joined(separator: ", ")))
        }
        return true
    }
}
