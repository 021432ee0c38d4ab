import IntentModel
import YAML

extension Diagnostic.Message {
    static let emptyShortcutFile: Self = "the shortcut file is empty: it needs 'shortcut:' and 'steps:'"
    static let shortcutFileIsAMapping: Self = "a shortcut file is a mapping with 'shortcut:' (its name) and 'steps:'"
    static let stepIsAMapping: Self = "a step is a mapping with one of \(shortcutVerbs.joined(separator: ", "))"
    static let stepNeedsAVerb: Self = "a step needs one of: \(shortcutVerbs.joined(separator: ", "))"
    static func twoActions(_ first: String, _ second: String) -> Self {
        "one step does one thing; found \(first) and \(second): make them separate steps"
    }

    private static var shortcutVerbs: [String] { DefinitionSchema.Object.shortcutSteps.compactMap(\.stepVerb) }
}

/// Walks a shortcut file's YAML nodes into a `ShortcutFileDefinition`, against `DefinitionSchema`:
/// shape problems are reported here, at the node that has them; names and types are the checker's.
struct ShortcutDecoder: SchemaDecoding {
    var diagnostics = DiagnosticCollector()

    /// The file's definition; nil when it has no mapping to read.
    mutating func decodeFile(_ root: Node?, path: String) -> ShortcutFileDefinition? {
        guard let root else {
            diagnostics.error(.emptyShortcutFile, at: SourceRange(at: Mark(file: path, line: 1, column: 1)))
            return nil
        }
        guard root.mapping != nil else {
            diagnostics.error(.shortcutFileIsAMapping, at: root.range)
            return nil
        }
        guard let fields = fields(root, .shortcutFile, context: "a shortcut file") else { return nil }
        var file = ShortcutFileDefinition(path: path, range: root.range)
        file.name = fields["shortcut"].flatMap { string($0, "'shortcut' (the shortcut's name)") }
        file.description = fields["description"].flatMap { string($0, "'description'") }
        file.inputs = named(fields["input"], "'input' (names and types: { minutes: integer })") { decoder, name, node in
            decoder.input(name, node)
        }
        file.steps = steps(fields["steps"], "'steps'")
        return file
    }

    private mutating func input(_ name: Located<String>, _ node: Node) -> ShortcutFileDefinition.Input? {
        if node.scalar != nil {
            guard let type = string(node, "the type of input '\(name.value)'") else { return nil }
            return ShortcutFileDefinition.Input(name: name, type: type, range: node.range)
        }
        guard let fields = fields(node, .shortcutInput, context: "input '\(name.value)'") else { return nil }
        guard let type = fields["type"].flatMap({ string($0, "'type'") }) else { return nil }
        return ShortcutFileDefinition.Input(
            name: name, type: type, defaultValue: fields["default"],
            prompt: fields["prompt"].flatMap { string($0, "'prompt'") }, range: node.range)
    }

    private mutating func steps(_ node: Node?, _ context: String) -> [ShortcutFileDefinition.Step] {
        list(node, context) { decoder, node in decoder.step(node) }
    }

    /// The step's kind is the one verb key it has; its other keys must belong to that kind.
    private mutating func step(_ node: Node) -> ShortcutFileDefinition.Step? {
        guard let entries = node.mapping else {
            diagnostics.error(.stepIsAMapping, at: node.range)
            return nil
        }
        let kinds = DefinitionSchema.Object.shortcutSteps
        let verbs = kinds.compactMap(\.stepVerb)
        let keys = entries.compactMap(\.key.string)
        guard let verb = keys.first(where: verbs.contains), let object = kinds.first(where: { $0.stepVerb == verb })
        else {
            if let pair = entries.first(where: { !DefinitionSchema.shortcutStepKeys.contains($0.key.string ?? "") }) {
                diagnostics.unknown("step", pair.key.string ?? "", at: pair.key.range, known: verbs)
            } else {
                diagnostics.error(.stepNeedsAVerb, at: node.range)
            }
            return nil
        }
        let context = DefinitionSchema.step(verb)
        let fields = fields(node, object, context: context) { key in
            if verbs.contains(key) { return .twoActions(verb, key) }
            return DefinitionSchema.shortcutStepKeys.contains(key) ? .stepKeyNotFor(key, verb) : nil
        }
        guard let fields, let value = fields[verb] else { return nil }
        let binding = fields["as"].flatMap { string($0, "'as'") }
        let kind: ShortcutFileDefinition.Kind
        switch object {
        case .sayStep:
            guard let text = string(value, "'say' (a phrase)") else { return nil }
            kind = .say(text)
        case .intentStep:
            guard let name = string(value, "'intent' (App.Intent)") else { return nil }
            kind = .intent(name, arguments: arguments(fields["with"]))
        case .setStep:
            kind = .set(pairs(value, "'set' (variable names and values: { count: 0 })").map { ($0.0, $0.1) })
        case .ifStep:
            guard let condition = string(value, "'if' (a condition)") else { return nil }
            kind = .branch(
                condition: condition, then: steps(fields["then"], "'then'"),
                otherwise: steps(fields["else"], "'else'"))
        case .repeatStep:
            guard let count = string(value, "'repeat' (a number of times)") else { return nil }
            kind = .repeatCount(count, body: steps(fields["do"], "'do'"))
        case .repeatEachStep:
            guard let list = string(value, "'repeat_each' (a list: ${…})") else { return nil }
            kind = .repeatEach(list, body: steps(fields["do"], "'do'"))
        case .chooseStep:
            guard let prompt = string(value, "'choose' (the question)") else { return nil }
            kind = .choose(prompt: prompt, options: fields["from"])
        case .askStep:
            guard let prompt = string(value, "'ask' (the question)") else { return nil }
            kind = .ask(prompt: prompt, type: fields["type"].flatMap { string($0, "'type'") })
        case .showStep:
            guard let text = string(value, "'show'") else { return nil }
            kind = .show(text)
        case .outputStep:
            kind = .output(value)
        case .stopStep:
            if value.isNull || value.bool == true {
                kind = .stop(nil)
            } else {
                guard let text = string(value, "'stop' (why the run stops)") else { return nil }
                kind = .stop(text)
            }
        case .runStep:
            guard let file = string(value, "'run' (a shortcut file, relative to this one)") else { return nil }
            kind = .run(file: file, arguments: arguments(fields["with"]))
        case .startActivityStep, .updateActivityStep, .endActivityStep:
            guard let action = ActivityStepDefinition.Action(rawValue: verb),
                let step = activityStep(action, value, fields, range: node.range)
            else { return nil }
            kind = .activity(step)
        default:
            return nil
        }
        return ShortcutFileDefinition.Step(kind: kind, binding: binding, location: value.range)
    }

    private mutating func arguments(_ node: Node?) -> ShortcutFileDefinition.Arguments {
        pairs(node, "'with' (names and values: { title: Morning block })").map { ($0.0, $0.1) }
    }
}
