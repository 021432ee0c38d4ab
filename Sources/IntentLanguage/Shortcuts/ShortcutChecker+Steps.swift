import Foundation
import IntentModel
import PhraseMatching
import YAML

extension Diagnostic.Message {
    static func phraseFitsSeveral(_ text: String, _ intents: [QualifiedName]) -> Self {
        "“\(text)” fits \(intents.map(\.description).joined(separator: " and ")) equally: it will ask which"
    }
    static func noIntentMatches(_ text: String, suggestions: [String]) -> Self {
        let hint =
            suggestions.isEmpty ? "" : "; did you mean " + suggestions.map { "“\($0)”" }.joined(separator: " or ") + "?"
        return "no intent matches “\(text)”\(hint)"
    }
    static func intentOfSeveralApps(_ text: String, _ intents: [QualifiedName]) -> Self {
        "'\(text)' names \(intents.map(\.description).joined(separator: " and ")): write App.Intent"
    }
    static let variableName: Self = "a variable's name is letters, digits and '_'"
    static func cannotHold(_ name: String, _ type: ValueType, _ other: ValueType) -> Self {
        "'\(name)' is \(type); it cannot hold \(other)"
    }
    static func repeatNeedsWholeNumber(_ type: ValueType) -> Self {
        "'repeat' takes a whole number of times, but this is \(type)"
    }
    static func takesAList(_ key: String, _ type: ValueType) -> Self { "'\(key)' takes a list, but this is \(type)" }
    static let fromIsAList: Self = "'from' is a list: [a, b] or ${list}"
    static func askTakesPlainValues(_ type: ValueType) -> Self {
        "'ask' takes plain values; for \(type), 'say' a phrase or 'choose' from a query"
    }
}

/// The step kinds, one function each: check against the graph and the variables in scope, add
/// the names the step binds, and give the compiled step (nil when it cannot be compiled).
extension ShortcutChecker {
    mutating func say(_ text: Located<String>, binding: Located<String>?, scope: inout Scope) -> Shortcut.Kind? {
        guard let (template, _) = compiler.checkTemplate(text, scope: scope, app: "") else { return nil }
        var intent: QualifiedName?
        var resultType: ValueType = .string
        if template.expressions.isEmpty {
            switch matcher.recognize(text.value).outcome {
            case .match(let candidate):
                intent = candidate.intent
                resultType =
                    graph.intent(candidate.intent).flatMap { $0.resultValue == nil ? nil : $0.resultType } ?? .string
            case .ambiguous(let candidates):
                compiler.diagnostics.warning(.phraseFitsSeveral(text.value, candidates.map(\.intent)), at: text.range)
            case .noMatch(let suggestions):
                compiler.diagnostics.error(.noIntentMatches(text.value, suggestions: suggestions), at: text.range)
            }
        }
        let name = variable(binding)
        if let name { scope[name] = resultType }
        return .say(template, intent: intent, binding: name)
    }

    mutating func intent(
        _ text: Located<String>, _ arguments: Definition.Arguments, binding: Located<String>?,
        scope: inout Scope
    ) -> Shortcut.Kind? {
        let found = graph.intents(named: text.value)
        guard found.count == 1, let intent = found.first else {
            if found.isEmpty {
                let known = graph.intents.map(\.name.description) + graph.intents.map(\.name.name)
                compiler.diagnostics.unknown("intent", text.value, at: text.range, known: known)
            } else {
                compiler.diagnostics.error(.intentOfSeveralApps(text.value, found.map(\.name)), at: text.range)
            }
            return nil
        }
        let assignments = self.arguments(
            arguments, parameters: intent.parameters.map { ($0.name, $0.type, $0.isRequired) },
            callee: intent.name.name, scope: scope, at: text.range)
        let name = variable(binding)
        if let name { scope[name] = intent.resultValue == nil ? .string : intent.resultType ?? .string }
        return .intent(intent.name, arguments: assignments, binding: name)
    }

    mutating func set(_ values: [(name: Located<String>, value: Node)], scope: inout Scope) -> Shortcut.Kind? {
        var assignments: [IntentGraph.Assignment] = []
        for (located, node) in values {
            let name = located.value
            guard Compiler.isIdentifier(name) else {
                compiler.diagnostics.error(.variableName, at: located.range)
                continue
            }
            guard let (template, type) = valueTemplate(node, scope: scope) else {
                compiler.silentNames.insert(name)
                continue
            }
            if let previous = scope[name], let new = type.valueType, !previous.accepts(new), !new.accepts(previous) {
                compiler.diagnostics.error(.cannotHold(name, previous, new), at: node.range)
            }
            scope[name] = scope[name] ?? type.valueType ?? .string
            assignments.append(IntentGraph.Assignment(name: name, value: template))
        }
        return .set(assignments)
    }

    mutating func branch(
        _ condition: Located<String>, then: [Definition.Step], otherwise: [Definition.Step],
        scope: inout Scope
    ) -> Shortcut.Kind? {
        guard let (expression, _) = compiler.checkExpression(condition, scope: scope, app: "", condition: true) else {
            return nil
        }
        var thenScope = scope
        var elseScope = scope
        let thenSteps = steps(then, scope: &thenScope)
        let elseSteps = steps(otherwise, scope: &elseScope)
        // Variables set in either branch are known after it (nil when that branch did not run).
        for (name, type) in thenScope.merging(elseScope, uniquingKeysWith: { first, _ in first })
        where scope[name] == nil {
            scope[name] = type
        }
        return .branch(condition: expression, source: condition.value, then: thenSteps, otherwise: elseSteps)
    }

    mutating func repeatCount(
        _ count: Located<String>, _ body: [Definition.Step], binding: Located<String>?,
        scope: inout Scope
    ) -> Shortcut.Kind? {
        guard let (expression, type) = compiler.checkExpression(count, scope: scope, app: "", condition: false) else {
            return nil
        }
        if let type = type.valueType, type != .integer {
            compiler.diagnostics.error(.repeatNeedsWholeNumber(type), at: count.range)
        }
        let name = variable(binding)
        var inner = scope
        if let name { inner[name] = .integer }
        let steps = self.steps(body, scope: &inner)
        for (variable, type) in inner where scope[variable] == nil && variable != name { scope[variable] = type }
        return .repeatCount(expression, source: count.value, binding: name, body: steps)
    }

    mutating func repeatEach(
        _ list: Located<String>, _ body: [Definition.Step], binding: Located<String>?,
        scope: inout Scope
    ) -> Shortcut.Kind? {
        guard let (expression, type) = compiler.checkExpression(list, scope: scope, app: "", condition: false) else {
            return nil
        }
        var element: ValueType = .string
        if let type = type.valueType {
            if let inner = type.element {
                element = inner
            } else {
                compiler.diagnostics.error(.takesAList("repeat_each", type), at: list.range)
            }
        }
        let name = variable(binding) ?? "item"
        var inner = scope
        inner[name] = element
        let steps = self.steps(body, scope: &inner)
        for (variable, type) in inner where scope[variable] == nil && variable != name { scope[variable] = type }
        return .repeatEach(expression, source: list.value, binding: name, body: steps)
    }

    mutating func choose(
        _ prompt: Located<String>, from options: Node?, binding: Located<String>?, scope: inout Scope
    ) -> Shortcut.Kind? {
        guard let question = textTemplate(prompt, scope: scope), let options else { return nil }
        guard let (template, type) = valueTemplate(options, scope: scope), let expression = template.soleExpression
        else {
            compiler.diagnostics.error(.fromIsAList, at: options.range)
            return nil
        }
        var element: ValueType = .string
        if let listType = type.valueType {
            if let inner = listType.element {
                element = inner
            } else {
                compiler.diagnostics.error(.takesAList("from", listType), at: options.range)
            }
        }
        let name = variable(binding) ?? "choice"
        scope[name] = element
        return .choose(prompt: question, options: expression, source: template.source, binding: name)
    }

    mutating func ask(
        _ prompt: Located<String>, type typeName: Located<String>?, binding: Located<String>?,
        scope: inout Scope
    ) -> Shortcut.Kind? {
        guard let question = textTemplate(prompt, scope: scope) else { return nil }
        var type: ValueType = .string
        if let typeName {
            guard let resolved = resolveType(typeName) else { return nil }
            if (resolved.element ?? resolved).entityName != nil {
                compiler.diagnostics.error(.askTakesPlainValues(resolved), at: typeName.range)
                return nil
            }
            type = resolved
        }
        let name = variable(binding) ?? "answer"
        scope[name] = type
        return .ask(prompt: question, type: type, binding: name)
    }

    mutating func show(_ text: Located<String>, scope: Scope) -> Shortcut.Kind? {
        textTemplate(text, scope: scope).map { .show($0) }
    }

    mutating func output(_ value: Node, scope: Scope) -> Shortcut.Kind? {
        guard let (template, type) = valueTemplate(value, scope: scope) else { return nil }
        if outputType == nil { outputType = type.valueType ?? .string }
        return .output(template)
    }

    mutating func stop(_ message: Located<String>?, scope: Scope) -> Shortcut.Kind? {
        guard let message else { return .stop(nil) }
        return textTemplate(message, scope: scope).map { .stop($0) }
    }

    /// Another shortcut file, compiled here too; its inputs are checked like an intent's parameters.
    mutating func run(
        _ file: Located<String>, _ arguments: Definition.Arguments, binding: Located<String>?,
        scope: inout Scope
    ) -> Shortcut.Kind? {
        let directory = PathText.deletingLastComponent(file.range.start.file)
        // An absolute path is itself; a relative one is relative to the calling file (whose folder
        // is "" when it was named by its bare name: then the current folder, never `/`).
        let path = ShortcutPath.lexical(
            file.value.hasPrefix("/") ? file.value : PathText.appending(directory, file.value))
        if let folders = runFolders, files[path] == nil,
            !folders.contains(where: { ShortcutPath.isInside(ShortcutPath.canonical(path), $0) })
        {
            // Refused before the file is opened: nothing of it can reach a message.
            compiler.diagnostics.error(.runOutside(file.value, folders), at: file.range)
            return nil
        }
        guard let callee = self.file(path, from: file.range) else { return nil }
        let assignments = self.arguments(
            arguments, parameters: callee.inputs.map { ($0.name, $0.type, $0.defaultValue == nil) },
            callee: callee.name, scope: scope, at: file.range, what: "input")
        let name = variable(binding)
        if let name { scope[name] = outputTypes[path] ?? .string }
        return .run(file: path, arguments: assignments, binding: name)
    }
}
