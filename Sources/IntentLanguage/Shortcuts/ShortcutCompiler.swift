import Foundation
import IntentModel
import YAML

/// Compiles shortcut files against an intent graph: unknown intents, parameters, variables and
/// type mismatches become `file:line:col` diagnostics, before anything runs.
public enum ShortcutCompiler {
    /// Compiles the file at `path` and every file its `run:` steps call. `phrases` matches a literal
    /// `say:` phrase (the phrase matcher lives in a module above this one).
    public static func compile(path: String, graph: IntentGraph, phrases: @escaping (String) -> PhraseCheck) -> ShortcutCompilation {
        var checker = ShortcutChecker(graph: graph, phrases: phrases)
        let shortcut = checker.file(path, from: SourceRange?.none)
        let diagnostics = checker.compiler.diagnostics.sorted
        let failed = diagnostics.contains { $0.severity == .error }
        return ShortcutCompilation(shortcut: failed ? nil : shortcut, shortcuts: failed ? [:] : checker.compiled,
                                   diagnostics: diagnostics, sources: checker.compiler.sources)
    }

    static let actions = ["say", "intent", "set", "if", "repeat", "repeat_each", "choose", "ask", "show", "output", "stop", "run"]
    /// Keys each action takes besides itself.
    static let modifiers: [String: [String]] = [
        "say": ["as"], "intent": ["with", "as"], "set": [], "if": ["then", "else"], "repeat": ["as", "do"],
        "repeat_each": ["as", "do"], "choose": ["from", "as"], "ask": ["type", "as"], "show": [], "output": [], "stop": [],
        "run": ["with", "as"],
    ]
    static let topLevelKeys = ["shortcut", "description", "input", "steps"]
}

struct ShortcutChecker {
    typealias Scope = ExpressionChecker.Scope

    var compiler = Compiler()
    let graph: IntentGraph
    let phrases: (String) -> PhraseCheck
    var compiled: [String: Shortcut] = [:]
    /// Output types of compiled files, for `run:` bindings.
    var outputTypes: [String: ValueType] = [:]
    private var inProgress: [String] = []
    /// The output type of the file being compiled (its first `output:`).
    private var outputType: ValueType?

    init(graph: IntentGraph, phrases: @escaping (String) -> PhraseCheck) {
        self.graph = graph
        self.phrases = phrases
        compiler.environment = TypeEnvironment(graph: graph)
    }

    // MARK: Files

    mutating func file(_ path: String, from step: SourceRange?) -> Shortcut? {
        let path = (path as NSString).standardizingPath
        if let done = compiled[path] { return done }
        if inProgress.contains(path) {
            compiler.diagnostics.error("'\(path)' runs itself (through \(inProgress.map { ($0 as NSString).lastPathComponent }.joined(separator: " → ")))", at: step)
            return nil
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            compiler.diagnostics.error("cannot read the shortcut file '\(path)'", at: step)
            return nil
        }
        let bytes = [UInt8](data)
        compiler.sources.add(path: path, text: String(decoding: bytes, as: UTF8.self))
        let document: YAMLDocument
        do {
            document = try YAMLParser.parse(bytes: bytes, file: path)
        } catch {
            compiler.diagnostics.append(Diagnostic(error))
            return nil
        }
        for problem in document.duplicateKeys { compiler.diagnostics.append(Diagnostic(problem)) }
        inProgress.append(path)
        let savedOutput = outputType
        outputType = nil
        defer {
            inProgress.removeLast()
            outputType = savedOutput
        }
        guard let root = document.root else {
            compiler.diagnostics.error("the shortcut file is empty: it needs 'shortcut:' and 'steps:'", at: SourceRange(start: Mark(file: path, line: 1, column: 1), end: Mark(file: path, line: 1, column: 1)))
            return nil
        }
        guard let shortcut = shortcut(root, path: path) else { return nil }
        compiled[path] = shortcut
        outputTypes[path] = outputType ?? .string
        return shortcut
    }

    private mutating func shortcut(_ root: Node, path: String) -> Shortcut? {
        guard let pairs = root.mapping else {
            compiler.diagnostics.error("a shortcut file is a mapping with 'shortcut:' (its name) and 'steps:'", at: root.range)
            return nil
        }
        for pair in pairs {
            let key = pair.key.string ?? ""
            if !ShortcutCompiler.topLevelKeys.contains(key) {
                compiler.diagnostics.unknown("key", key, at: pair.key.range, known: ShortcutCompiler.topLevelKeys)
            }
        }
        var name = (path as NSString).lastPathComponent
        if let node = root["shortcut"] {
            if let text = node.string { name = text } else { compiler.diagnostics.error("'shortcut' is the shortcut's name", at: node.range) }
        } else {
            compiler.diagnostics.error("missing 'shortcut:' (the shortcut's name)", at: root.range)
        }
        var scope: Scope = [:]
        var inputs: [Shortcut.Input] = []
        if let node = root["input"] {
            for pair in node.mapping ?? [] {
                guard let inputName = pair.key.string, Compiler.isIdentifier(inputName) else {
                    compiler.diagnostics.error("an input's name is letters, digits and '_'", at: pair.key.range)
                    continue
                }
                if let input = input(inputName, pair.value) {
                    inputs.append(input)
                    scope[inputName] = input.type
                }
            }
            if node.mapping == nil, !node.isNull { compiler.diagnostics.error("'input' maps names to types: { minutes: integer }", at: node.range) }
        }
        guard let stepsNode = root["steps"] else {
            compiler.diagnostics.error("missing 'steps:' (the list of steps)", at: root.range)
            return nil
        }
        let steps = self.steps(stepsNode, scope: &scope)
        return Shortcut(name: name, description: root["description"]?.string, file: path, inputs: inputs, steps: steps, location: root.range)
    }

    private mutating func input(_ name: String, _ node: Node) -> Shortcut.Input? {
        let typeNode = node.mapping == nil ? node : node["type"]
        guard let typeNode, let typeText = typeNode.string else {
            compiler.diagnostics.error("input '\(name)' needs a type: \(name): integer, or \(name): { type: integer, default: 25 }", at: node.range)
            return nil
        }
        guard let type = resolveType(Located(typeText, at: typeNode.range)) else { return nil }
        var defaultValue: Value?
        if let node = node["default"], !node.isNull {
            defaultValue = compiler.value(node, as: type, context: "the default of input '\(name)'")
            if defaultValue == nil { return nil }
        }
        if node.mapping != nil {
            for pair in node.mapping ?? [] where !["type", "default", "prompt"].contains(pair.key.string ?? "") {
                compiler.diagnostics.unknown("key", pair.key.string ?? "", at: pair.key.range, known: ["type", "default", "prompt"])
            }
        }
        return Shortcut.Input(name: name, type: type, defaultValue: defaultValue, prompt: node["prompt"]?.string, location: node.range)
    }

    /// A type name; a bare enum or entity name is looked up across apps.
    private mutating func resolveType(_ located: Located<String>) -> ValueType? {
        let text = located.value.trimmed
        let bare = text.trimmingCharacters(in: CharacterSet(charactersIn: "[]?"))
        var app = ""
        if !bare.contains(".") {
            let owners = Set(graph.enums.filter { $0.name.name == bare }.map(\.name.app) + graph.entities.filter { $0.name.name == bare }.map(\.name.app))
            if owners.count > 1 {
                compiler.diagnostics.error("'\(bare)' is declared by \(owners.sorted().joined(separator: " and ")): write App.\(bare)", at: located.range)
                return nil
            }
            app = owners.first ?? ""
        }
        return compiler.resolveType(located, app: app)?.0
    }

    // MARK: Steps

    private mutating func steps(_ node: Node, scope: inout Scope) -> [Shortcut.Step] {
        guard let items = node.sequence else {
            if !node.isNull { compiler.diagnostics.error("steps are a list: each item one step, like '- say: \"what's next\"'", at: node.range) }
            return []
        }
        return items.compactMap { step($0, scope: &scope) }
    }

    private mutating func step(_ node: Node, scope: inout Scope) -> Shortcut.Step? {
        guard let pairs = node.mapping else {
            compiler.diagnostics.error("a step is a mapping with one of \(ShortcutCompiler.actions.joined(separator: ", "))", at: node.range)
            return nil
        }
        let keys = pairs.compactMap(\.key.string)
        let actions = keys.filter { ShortcutCompiler.actions.contains($0) }
        guard actions.count == 1, let action = actions.first else {
            if actions.count > 1 {
                compiler.diagnostics.error("one step does one thing; found \(actions.joined(separator: " and ")): make them separate steps", at: node.range)
            } else if let first = pairs.first {
                compiler.diagnostics.unknown("step", first.key.string ?? "", at: first.key.range, known: ShortcutCompiler.actions)
            }
            return nil
        }
        let allowed = [action] + (ShortcutCompiler.modifiers[action] ?? [])
        for pair in pairs where !allowed.contains(pair.key.string ?? "") {
            compiler.diagnostics.unknown("key of '\(action)'", pair.key.string ?? "", at: pair.key.range, known: allowed)
        }
        let value = node[action]!
        let location = value.range
        func binding(_ fallback: String? = nil) -> String? {
            guard let node = node["as"] else { return fallback }
            guard let name = node.string, Compiler.isIdentifier(name) else {
                compiler.diagnostics.error("'as' names a variable: letters, digits and '_'", at: node.range)
                return nil
            }
            return name
        }
        let kind: Shortcut.Kind
        switch action {
        case "say":
            guard let text = value.string, let (template, _) = compiler.checkTemplate(Located(text, at: value.range), scope: scope, app: "") else {
                if value.string == nil { compiler.diagnostics.error("'say' takes a phrase", at: value.range) }
                return nil
            }
            var intent: QualifiedName?
            var resultType: ValueType = .string
            if template.expressions.isEmpty {
                switch phrases(text) {
                case .intent(let name):
                    intent = name
                    resultType = graph.intent(name).flatMap { $0.resultValue == nil ? nil : $0.resultType } ?? .string
                case .ambiguous(let names):
                    compiler.diagnostics.warning("“\(text)” fits \(names.map(\.description).joined(separator: " and ")) equally: it will ask which", at: value.range)
                case .noMatch(let suggestions):
                    let hint = suggestions.isEmpty ? "" : "; did you mean " + suggestions.map { "“\($0)”" }.joined(separator: " or ") + "?"
                    compiler.diagnostics.error("no intent matches “\(text)”\(hint)", at: value.range)
                }
            }
            let name = binding()
            if let name { scope[name] = resultType }
            kind = .say(template, intent: intent, binding: name)

        case "intent":
            guard let text = value.string else { compiler.diagnostics.error("'intent' names an intent: App.Intent", at: value.range); return nil }
            let found = graph.intents(named: text)
            guard found.count == 1, let intent = found.first else {
                if found.isEmpty {
                    compiler.diagnostics.unknown("intent", text, at: value.range, known: graph.intents.map(\.name.description) + graph.intents.map(\.name.name))
                } else {
                    compiler.diagnostics.error("'\(text)' names \(found.map(\.name.description).joined(separator: " and ")): write App.Intent", at: value.range)
                }
                return nil
            }
            let arguments = self.arguments(node["with"], parameters: intent.parameters.map { ($0.name, $0.type, $0.isRequired) },
                                           callee: intent.name.name, app: intent.name.app, scope: scope, at: value.range)
            let name = binding()
            if let name { scope[name] = intent.resultValue == nil ? .string : intent.resultType ?? .string }
            kind = .intent(intent.name, arguments: arguments, binding: name)

        case "set":
            guard let pairs = value.mapping else { compiler.diagnostics.error("'set' maps variable names to values: { count: 0 }", at: value.range); return nil }
            var assignments: [IntentGraph.Assignment] = []
            for pair in pairs {
                guard let name = pair.key.string, Compiler.isIdentifier(name) else {
                    compiler.diagnostics.error("a variable's name is letters, digits and '_'", at: pair.key.range)
                    continue
                }
                guard let (template, type) = valueTemplate(pair.value, scope: scope) else {
                    compiler.silentNames.insert(name)
                    continue
                }
                if let previous = scope[name], let new = type.valueType, !previous.accepts(new), !new.accepts(previous) {
                    compiler.diagnostics.error("'\(name)' is \(previous); it cannot hold \(new)", at: pair.value.range)
                }
                scope[name] = scope[name] ?? type.valueType ?? .string
                assignments.append(IntentGraph.Assignment(name: name, value: template))
            }
            kind = .set(assignments)

        case "if":
            guard let condition = expression(value, scope: scope, condition: true) else { return nil }
            var thenScope = scope, elseScope = scope
            let then = node["then"].map { steps($0, scope: &thenScope) } ?? []
            let otherwise = node["else"].map { steps($0, scope: &elseScope) } ?? []
            if node["then"] == nil { compiler.diagnostics.error("'if' needs 'then:' steps", at: value.range) }
            // Variables set in either branch are known after it (nil when that branch did not run).
            for (name, type) in thenScope.merging(elseScope, uniquingKeysWith: { first, _ in first }) where scope[name] == nil { scope[name] = type }
            kind = .branch(condition: condition.0, source: value.string ?? "", then: then, otherwise: otherwise)

        case "repeat":
            guard let count = expression(value, scope: scope, condition: false) else { return nil }
            if let type = count.1.valueType, type != .integer {
                compiler.diagnostics.error("'repeat' takes a whole number of times, but this is \(type)", at: value.range)
            }
            let name = binding()
            var inner = scope
            if let name { inner[name] = .integer }
            let body = node["do"].map { steps($0, scope: &inner) } ?? []
            if node["do"] == nil { compiler.diagnostics.error("'repeat' needs 'do:' steps", at: value.range) }
            for (variable, type) in inner where scope[variable] == nil && variable != name { scope[variable] = type }
            kind = .repeatCount(count.0, source: value.string ?? "", binding: name, body: body)

        case "repeat_each":
            guard let list = expression(value, scope: scope, condition: false) else { return nil }
            var element: ValueType = .string
            if let type = list.1.valueType {
                if let inner = type.element { element = inner } else {
                    compiler.diagnostics.error("'repeat_each' takes a list, but this is \(type)", at: value.range)
                }
            }
            let name = binding("item") ?? "item"
            var inner = scope
            inner[name] = element
            let body = node["do"].map { steps($0, scope: &inner) } ?? []
            if node["do"] == nil { compiler.diagnostics.error("'repeat_each' needs 'do:' steps", at: value.range) }
            for (variable, type) in inner where scope[variable] == nil && variable != name { scope[variable] = type }
            kind = .repeatEach(list.0, source: value.string ?? "", binding: name, body: body)

        case "choose":
            guard let prompt = textTemplate(value, scope: scope) else { return nil }
            guard let from = node["from"] else { compiler.diagnostics.error("'choose' needs 'from:' (a list of options)", at: value.range); return nil }
            guard let (options, type) = valueTemplate(from, scope: scope), let expression = options.soleExpression else {
                compiler.diagnostics.error("'from' is a list: [a, b] or ${list}", at: from.range)
                return nil
            }
            var element: ValueType = .string
            if let listType = type.valueType {
                if let inner = listType.element { element = inner } else { compiler.diagnostics.error("'from' takes a list, but this is \(listType)", at: from.range) }
            }
            let name = binding("choice") ?? "choice"
            scope[name] = element
            kind = .choose(prompt: prompt, options: expression, source: options.source, binding: name)

        case "ask":
            guard let prompt = textTemplate(value, scope: scope) else { return nil }
            var type: ValueType = .string
            if let typeNode = node["type"] {
                guard let text = typeNode.string, let resolved = resolveType(Located(text, at: typeNode.range)) else { return nil }
                if (resolved.element ?? resolved).entityName != nil {
                    compiler.diagnostics.error("'ask' takes plain values; for \(resolved), 'say' a phrase or 'choose' from a query", at: typeNode.range)
                    return nil
                }
                type = resolved
            }
            let name = binding("answer") ?? "answer"
            scope[name] = type
            kind = .ask(prompt: prompt, type: type, binding: name)

        case "show":
            guard let text = textTemplate(value, scope: scope) else { return nil }
            kind = .show(text)

        case "output":
            guard let (template, type) = valueTemplate(value, scope: scope) else { return nil }
            if outputType == nil { outputType = type.valueType ?? .string }
            kind = .output(template)

        case "stop":
            if value.isNull || value.bool == true {
                kind = .stop(nil)
            } else {
                guard let text = textTemplate(value, scope: scope) else { return nil }
                kind = .stop(text)
            }

        case "run":
            guard let text = value.string else { compiler.diagnostics.error("'run' takes a shortcut file, relative to this one", at: value.range); return nil }
            let directory = (value.range.start.file as NSString).deletingLastPathComponent
            let path = ((directory as NSString).appendingPathComponent(text) as NSString).standardizingPath
            guard let callee = file(path, from: value.range) else { return nil }
            let arguments = self.arguments(node["with"], parameters: callee.inputs.map { ($0.name, $0.type, $0.defaultValue == nil) },
                                           callee: callee.name, app: "", scope: scope, at: value.range, what: "input")
            let name = binding()
            if let name { scope[name] = outputTypes[path] ?? .string }
            kind = .run(file: path, arguments: arguments, binding: name)

        default:
            return nil
        }
        return Shortcut.Step(kind: kind, location: location)
    }

    // MARK: Values

    /// `with:` values for an intent's parameters or a shortcut's inputs: known names, fitting types, required ones present.
    private mutating func arguments(_ node: Node?, parameters: [(name: String, type: ValueType, required: Bool)], callee: String,
                                    app: String, scope: Scope, at location: SourceRange, what: String = "parameter") -> [IntentGraph.Assignment] {
        var assignments: [IntentGraph.Assignment] = []
        if let node, node.mapping == nil, !node.isNull {
            compiler.diagnostics.error("'with' maps \(what)s to values: { title: Morning block }", at: node.range)
        }
        for pair in node?.mapping ?? [] {
            let name = pair.key.string ?? ""
            guard let parameter = parameters.first(where: { $0.name == name }) else {
                compiler.diagnostics.missing("\(callee) has no \(what) '\(name)'", name, at: pair.key.range, known: parameters.map(\.name))
                continue
            }
            let context = "\(what) '\(name)' of \(callee)"
            // A plain YAML value is read as the parameter's type: enum cases, dates, durations, URLs checked here.
            if let scalar = pair.value.scalar, scalar.style == .plain || scalar.style == .singleQuoted || scalar.style == .doubleQuoted,
               !scalar.value.contains("${"), !pair.value.isNull {
                guard let literal = compiler.value(pair.value, as: parameter.type, context: context) else { continue }
                let expression = Expression(.literal(literal), span: 0..<scalar.value.count)
                assignments.append(IntentGraph.Assignment(name: name, value: Template(parts: [.expression(expression, source: scalar.value)], source: scalar.value)))
                continue
            }
            guard let (template, type) = valueTemplate(pair.value, scope: scope) else { continue }
            if let found = type.valueType, !fits(found, parameter.type) {
                compiler.diagnostics.error("\(context) must be \(parameter.type), but this is \(found)", at: pair.value.range)
            }
            assignments.append(IntentGraph.Assignment(name: name, value: template))
        }
        let given = Set(assignments.map(\.name) + (node?.mapping ?? []).compactMap(\.key.string))
        for parameter in parameters where parameter.required && !given.contains(parameter.name) {
            compiler.diagnostics.error("\(callee) needs \(what) '\(parameter.name)' (\(parameter.type)): give it under 'with:'", at: location)
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
        if case .array(let element) = expected { return fits(found, element) || found.element.map { fits($0, element) } == true }
        return false
    }

    /// A value: a plain YAML scalar, a list of them, or a `${…}` template.
    private mutating func valueTemplate(_ node: Node, scope: Scope) -> (Template, ExpressionType)? {
        if let items = node.sequence {
            var expressions: [Expression] = []
            var element: ValueType?
            for item in items {
                guard let (template, type) = compiler.assignmentTemplate(item, scope: scope, app: "") else { return nil }
                guard let expression = template.soleExpression ?? (template.parts.count == 1 ? stringLiteral(template) : nil) else {
                    compiler.diagnostics.error("list items are plain values or one ${…} each", at: item.range)
                    return nil
                }
                expressions.append(expression)
                if element == nil { element = type.valueType }
            }
            let source = node.description
            let list = Expression(.list(expressions), span: 0..<source.count)
            return (Template(parts: [.expression(list, source: source)], source: source), .value(.array(element ?? .string)))
        }
        return compiler.assignmentTemplate(node, scope: scope, app: "")
    }

    private func stringLiteral(_ template: Template) -> Expression? {
        guard case .text(let text) = template.parts.first else { return nil }
        return Expression(.literal(.string(text)), span: 0..<text.count)
    }

    private mutating func textTemplate(_ node: Node, scope: Scope) -> Template? {
        guard let text = node.string else {
            compiler.diagnostics.error("expected text (a ${…} template)", at: node.range)
            return nil
        }
        return compiler.checkTemplate(Located(text, at: node.range), scope: scope, app: "")?.0
    }

    private mutating func expression(_ node: Node, scope: Scope, condition: Bool) -> (Expression, ExpressionType)? {
        guard let text = node.string else {
            compiler.diagnostics.error("expected an expression", at: node.range)
            return nil
        }
        return compiler.checkExpression(Located(text, at: node.range), scope: scope, app: "", condition: condition)
    }
}

extension TypeEnvironment {
    /// Every entity's property types (built-ins included) and every enum's cases, from a graph.
    init(graph: IntentGraph) {
        self.init()
        for entity in graph.entities {
            var types: [String: ValueType] = [:]
            for (name, type) in IntentGraph.Entity.builtinProperties { types[name] = type }
            for property in entity.properties { types[property.name] = property.type }
            entities[entity.name] = types
        }
        for enumeration in graph.enums { enums[enumeration.name] = enumeration.cases.map(\.id) }
    }
}
