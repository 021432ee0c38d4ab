import Foundation
import IntentModel
import PhraseMatching
import YAML

extension Diagnostic.Message {
    static func runsItself(_ path: String, through chain: [String]) -> Self {
        "'\(path)' runs itself (through \(chain.map { PathText.lastComponent($0) }.joined(separator: " → ")))"
    }
    static func unreadableShortcut(_ path: String) -> Self { "cannot read the shortcut file '\(path)'" }
    static func runOutside(_ file: String, _ folders: [String]) -> Self {
        Self(
            "'\(file)' is outside the folders a shortcut may run (\(folders.joined(separator: ", "))); "
                + "pass --run-anywhere to allow it")
    }
    static let inputName: Self = "an input's name is letters, digits and '_'"
    static func typeOfSeveralApps(_ name: String, _ apps: [String]) -> Self {
        "'\(name)' is declared by \(apps.joined(separator: " and ")): write App.\(name)"
    }
}

/// Checks shortcut files, decoded by `ShortcutDecoder`, against the graph: one file and the files
/// its `run:` steps call, each compiled once.
struct ShortcutChecker {
    typealias Scope = ExpressionChecker.Scope
    typealias Definition = ShortcutFileDefinition

    var compiler = Compiler()
    let graph: IntentGraph
    let matcher: Matcher
    /// Texts by path, read instead of the disk.
    let files: [String: String]
    var compiled: [String: Shortcut] = [:]
    /// Output types of compiled files, for `run:` bindings.
    var outputTypes: [String: ValueType] = [:]
    private var inProgress: [String] = []
    /// The canonical paths of `inProgress`: a file reached by another spelling is still itself.
    private var inProgressCanonical: [String] = []
    /// Canonical folders `run:` steps may read files from (the first file's folder is added when
    /// it is compiled); nil: anywhere.
    var runFolders: [String]? = []
    /// The output type of the file being compiled (its first `output:`).
    var outputType: ValueType?

    init(graph: IntentGraph, matcher: Matcher, files: [String: String]) {
        self.graph = graph
        self.matcher = matcher
        self.files = files
        compiler.environment = TypeEnvironment(graph: graph)
        for activity in graph.liveActivities { compiler.liveActivities[activity.qualifiedName] = activity }
    }

    // MARK: Files

    /// The compiled shortcut at `path`, compiling it first; `step` is the `run:` that calls it.
    mutating func file(_ path: String, from step: SourceRange?) -> Shortcut? {
        let path = ShortcutPath.lexical(path)
        if let done = compiled[path] { return done }
        let canonical = ShortcutPath.canonical(path)
        if inProgress.contains(path) || inProgressCanonical.contains(canonical) {
            compiler.diagnostics.error(.runsItself(path, through: inProgress), at: step)
            return nil
        }
        if step == nil, runFolders != nil {
            runFolders?.append(ShortcutPath.canonical(PathText.deletingLastComponent(path)))
        }
        guard let definition = read(path, from: step) else { return nil }
        inProgress.append(path)
        inProgressCanonical.append(canonical)
        let savedOutput = outputType
        outputType = nil
        defer {
            inProgress.removeLast()
            inProgressCanonical.removeLast()
            outputType = savedOutput
        }
        let shortcut = shortcut(definition)
        compiled[path] = shortcut
        outputTypes[path] = outputType ?? .string
        return shortcut
    }

    /// Reads, parses and decodes a file; nil (with diagnostics) when there is nothing to check.
    private mutating func read(_ path: String, from step: SourceRange?) -> Definition? {
        let text: String
        if let given = files[path] {
            text = given
        } else if case .bytes(let bytes) = FileBytes.read(path, limit: FileBytes.maximumDefinitionBytes) {
            text = String(decoding: bytes, as: UTF8.self)
        } else if FileBytes.read(path, limit: 0) == .tooLarge {
            compiler.diagnostics.append(
                Diagnostic(
                    .error,
                    "the file is more than \(YAMLParser.maximumBytes >> 20) MB; a shortcut file is at most \(YAMLParser.maximumBytes >> 20) MB",
                    at: step ?? SourceRange(at: Mark(file: path, line: 1, column: 1))))
            return nil
        } else {
            compiler.diagnostics.error(.unreadableShortcut(path), at: step)
            return nil
        }
        compiler.sources.add(path: path, text: text)
        let document: YAMLDocument
        do {
            document = try YAMLParser.parse(bytes: Array(text.utf8), file: path)
        } catch {
            compiler.diagnostics.append(Diagnostic(error))
            return nil
        }
        for problem in document.duplicateKeys { compiler.diagnostics.append(Diagnostic(problem)) }
        var decoder = ShortcutDecoder()
        let definition = decoder.decodeFile(document.root, path: path)
        for diagnostic in decoder.diagnostics.diagnostics { compiler.diagnostics.append(diagnostic) }
        return definition
    }

    private mutating func shortcut(_ definition: Definition) -> Shortcut {
        var scope: Scope = [:]
        var inputs: [Shortcut.Input] = []
        for definition in definition.inputs {
            guard Compiler.isIdentifier(definition.name.value) else {
                compiler.diagnostics.error(.inputName, at: definition.name.range)
                continue
            }
            if let input = input(definition) {
                inputs.append(input)
                scope[input.name] = input.type
            } else {
                // Its own error says what is wrong; its uses say nothing more.
                compiler.silentNames.insert(definition.name.value)
            }
        }
        let steps = self.steps(definition.steps, scope: &scope)
        return Shortcut(
            name: definition.name?.value ?? PathText.lastComponent(definition.path),
            description: definition.description?.value, file: definition.path, inputs: inputs, steps: steps,
            location: definition.range)
    }

    private mutating func input(_ definition: Definition.Input) -> Shortcut.Input? {
        let name = definition.name.value
        guard let type = resolveType(definition.type) else { return nil }
        var defaultValue: Value?
        if let node = definition.defaultValue, !node.isNull {
            defaultValue = compiler.value(node, as: type, context: "the default of input '\(name)'")
            if defaultValue == nil { return nil }
        }
        return Shortcut.Input(
            name: name, type: type, defaultValue: defaultValue, prompt: definition.prompt?.value,
            location: definition.range)
    }

    /// A type name; a bare enum or entity name is looked up across apps.
    mutating func resolveType(_ located: Located<String>) -> ValueType? {
        let text = located.value.trimmed
        let bare = text.trimmingCharacters(in: CharacterSet(charactersIn: "[]?"))
        var app = ""
        if !bare.contains(".") {
            let owners = Set(
                graph.enums.filter { $0.name.name == bare }.map(\.name.app)
                    + graph.entities.filter { $0.name.name == bare }.map(\.name.app))
            if owners.count > 1 {
                compiler.diagnostics.error(.typeOfSeveralApps(bare, owners.sorted()), at: located.range)
                return nil
            }
            app = owners.first ?? ""
        }
        return compiler.resolveType(located, app: app)?.0
    }

    // MARK: Steps

    mutating func steps(_ definitions: [Definition.Step], scope: inout Scope) -> [Shortcut.Step] {
        definitions.compactMap { step($0, scope: &scope) }
    }

    /// One step: each kind is checked by its own function, which may add the names it binds to `scope`.
    private mutating func step(_ step: Definition.Step, scope: inout Scope) -> Shortcut.Step? {
        let kind: Shortcut.Kind?
        switch step.kind {
        case .say(let text): kind = say(text, binding: step.binding, scope: &scope)
        case .intent(let name, let arguments): kind = intent(name, arguments, binding: step.binding, scope: &scope)
        case .set(let assignments): kind = set(assignments, scope: &scope)
        case .branch(let condition, let then, let otherwise):
            kind = branch(condition, then: then, otherwise: otherwise, scope: &scope)
        case .repeatCount(let count, let body): kind = repeatCount(count, body, binding: step.binding, scope: &scope)
        case .repeatEach(let list, let body): kind = repeatEach(list, body, binding: step.binding, scope: &scope)
        case .choose(let prompt, let options):
            kind = choose(prompt, from: options, binding: step.binding, scope: &scope)
        case .ask(let prompt, let type): kind = ask(prompt, type: type, binding: step.binding, scope: &scope)
        case .show(let text): kind = show(text, scope: scope)
        case .output(let value): kind = output(value, scope: scope)
        case .stop(let message): kind = stop(message, scope: scope)
        case .run(let file, let arguments): kind = run(file, arguments, binding: step.binding, scope: &scope)
        case .activity(let definition):
            kind = compiler.compileActivityStep(definition, scope: scope, app: "").map { .activity($0) }
        }
        return kind.map { Shortcut.Step(kind: $0, location: step.location) }
    }
}
