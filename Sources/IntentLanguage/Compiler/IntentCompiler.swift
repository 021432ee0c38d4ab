import Foundation
import IntentModel
import YAML

/// What compiling the definitions gave: the graph when there were no errors, and every diagnostic.
public struct Compilation: Sendable {
    /// The checked graph; nil when any error was found.
    public let graph: IntentGraph?
    /// Every diagnostic, in file order.
    public let diagnostics: [Diagnostic]
    /// The text of the files read, for printing source lines.
    public let sources: SourceFiles
    public let files: [String]

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// Turns definition files into one checked `IntentGraph`.
public enum IntentCompiler {
    /// Compiles every definition file under `directory` (one folder per app).
    public static func compile(directory: String) throws(DefinitionLoadError) -> Compilation {
        let paths = try DefinitionLoader.files(in: directory)
        var inputs: [(path: String, bytes: [UInt8])] = []
        var unreadable: [Diagnostic] = []
        for path in paths {
            // Read at most the parser's limit: a 5 GB file is refused after 4 MB, not read whole.
            switch FileBytes.read(path, limit: FileBytes.maximumDefinitionBytes) {
            case .bytes(let bytes):
                inputs.append((path, bytes))
            case .tooLarge:
                unreadable.append(
                    Diagnostic(
                        .error,
                        "the file is more than \(YAMLParser.maximumBytes >> 20) MB; a definition file is at most \(YAMLParser.maximumBytes >> 20) MB",
                        at: SourceRange(at: Mark(file: path, line: 1, column: 1))))
            case .unreadable:
                unreadable.append(
                    Diagnostic(
                        .error, "cannot read this file", at: SourceRange(at: Mark(file: path, line: 1, column: 1))))
            }
        }
        let compilation = compile(files: inputs, root: directory)
        guard !unreadable.isEmpty else { return compilation }
        return Compilation(
            graph: nil, diagnostics: unreadable + compilation.diagnostics, sources: compilation.sources,
            files: compilation.files)
    }

    /// Compiles definition files given as bytes; `root` decides which folder makes an app.
    /// `phraseConflicts: false` leaves out the check that two intents share a sentence: only for
    /// definitions known to have compiled without errors (the compiled cache's key says so).
    public static func compile(files: [(path: String, bytes: [UInt8])], root: String, phraseConflicts: Bool = true)
        -> Compilation
    {
        var compiler = Compiler()
        compiler.checksPhraseConflicts = phraseConflicts
        var definitions: [FileDefinition] = []
        for file in files {
            compiler.sources.add(path: file.path, text: String(decoding: file.bytes, as: UTF8.self))
            do {
                let document = try YAMLParser.parse(bytes: file.bytes, file: file.path)
                for problem in document.duplicateKeys { compiler.diagnostics.append(Diagnostic(problem)) }
                var decoder = DefinitionDecoder()
                let folder = DefinitionLoader.appFolder(of: file.path, root: root)
                definitions.append(decoder.decodeFile(document.root, path: file.path, folder: folder))
                for diagnostic in decoder.diagnostics.diagnostics { compiler.diagnostics.append(diagnostic) }
            } catch {
                compiler.diagnostics.append(Diagnostic(error))
            }
        }
        let apps = compiler.compile(definitions)
        let diagnostics = compiler.diagnostics.sorted
        let failed = diagnostics.contains { $0.severity == .error }
        return Compilation(
            graph: failed ? nil : IntentGraph(apps: apps),
            diagnostics: diagnostics, sources: compiler.sources, files: files.map(\.path))
    }
}

extension Diagnostic.Message {
    static func duplicate(_ what: String, _ name: String) -> Self { "duplicate \(what) '\(name)'" }
    static let firstDeclaredHere: Self = "first declared here"
    static func unknownSlot(_ slot: String) -> Self { "unknown slot '\(slot)'" }
}

/// The compiler's working state: diagnostics, sources and the types declared so far.
struct Compiler {
    var diagnostics = DiagnosticCollector()
    var sources = SourceFiles()
    var environment = TypeEnvironment()
    var checksPhraseConflicts = true

    /// One app's declarations, merged from the files in its folder.
    struct AppDeclaration {
        var name: String
        var location: SourceRange
        var files: [FileDefinition]
        var languages: [String]
        var enums: [String: IntentGraph.Enumeration] = [:]
        var entityDefinitions: [String: EntityDefinition] = [:]
        var intentDefinitions: [String: IntentDefinition] = [:]
        var rules: [String: PhraseTemplate] = [:]
        var constants: [String: IntentGraph.Constant] = [:]

        var description: String? { files.lazy.compactMap(\.description).first?.value }
        var synonyms: [String] { files.flatMap(\.synonyms).map(\.value) }
        var scheme: String? { files.lazy.compactMap(\.scheme).first?.value }
    }

    var apps: [String: AppDeclaration] = [:]
    var entities: [QualifiedName: IntentGraph.Entity] = [:]
    var intents: [QualifiedName: IntentGraph.Intent] = [:]
    var intentsInProgress: [QualifiedName] = []
    /// Live activities, compiled before the intents whose steps drive them.
    var liveActivities: [QualifiedName: IntentGraph.LiveActivity] = [:]
    /// Parameters of the intent being compiled whose declaration failed; their uses report nothing more.
    var silentNames: Set<String> = []
    /// Properties and parameters (`App.Owner.name`) whose declaration failed: their uses report nothing more.
    var failedMembers: Set<String> = []
    /// Sentences the phrases compiled so far expand to (`Compiler.maximumSentences` in all).
    var expandedSentences = 0
    /// The phrase that crossed `maximumSentences` was reported; later phrases are left out silently.
    var sentencesExceeded = false

    mutating func compile(_ files: [FileDefinition]) -> [IntentGraph.App] {
        declareApps(files)
        for name in apps.keys.sorted() { declareTypes(app: name) }
        for name in apps.keys.sorted() { compileEntities(app: name) }
        var activitiesByApp: [String: [IntentGraph.LiveActivity]] = [:]
        for name in apps.keys.sorted() {
            activitiesByApp[name] = compileLiveActivities(app: name)
            for activity in activitiesByApp[name]! { liveActivities[activity.qualifiedName] = activity }
        }
        for name in apps.keys.sorted() {
            for intent in apps[name]!.intentDefinitions.keys.sorted() {
                _ = compileIntent(QualifiedName(app: name, name: intent))
            }
        }
        var result: [IntentGraph.App] = []
        for name in apps.keys.sorted() {
            let app = apps[name]!
            let shortcuts = app.files.flatMap(\.shortcuts).compactMap { compileShortcut($0, app: app) }
            let appIntents = intents.values.filter { $0.name.app == name }.sorted { $0.name < $1.name }
            let links = compileLinks(app: name)
            let shareRoutes = compileShareRoutes(app: name)
            let widgets = compileWidgets(app: name)
            let controls = compileControls(app: name)
            // A widget's button and a control run an intent too (an interactive widget's Button(intent:)).
            var pressed = Set(widgets.flatMap { $0.buttons.map(\.action.intent) })
            for control in controls {
                switch control.kind {
                case .button(let call): pressed.insert(call.intent)
                case .toggle(_, let on, let off): pressed.formUnion([on.intent, off.intent])
                }
            }
            for intent in appIntents
            where app.intentDefinitions[intent.name.name]?.phrases.isEmpty ?? true
                && !shortcuts.contains(where: { $0.intent == intent.name })
                && !links.contains(where: { $0.intent == intent.name })
                && !shareRoutes.contains(where: { $0.intent == intent.name })
                && !pressed.contains(intent.name)
            {
                diagnostics.warning(
                    "intent '\(intent.name.name)' has neither a phrase nor an app shortcut; nothing can say it",
                    at: intent.location)
            }
            var built = IntentGraph.App(
                name: name, description: app.description, synonyms: app.synonyms, languages: app.languages,
                scheme: app.scheme, enums: app.enums.values.sorted { $0.name < $1.name },
                entities: entities.values.filter { $0.name.app == name }.sorted { $0.name < $1.name },
                intents: appIntents, shortcuts: shortcuts, rules: app.rules, constants: app.constants,
                examples: app.files.flatMap(\.examples).compactMap { compileExample($0, app: app, intent: nil) },
                widgets: widgets, controls: controls,
                files: app.files.map(\.path), location: app.location,
                tips: compileTips(app: app, shortcuts: shortcuts, rules: app.rules))
            built.links = links
            built.liveActivities = activitiesByApp[name] ?? []
            built.shareRoutes = shareRoutes
            built.understanding = compileUnderstanding(app: app)
            result.append(built)
        }
        if checksPhraseConflicts { checkPhraseConflicts(result) }
        checkLinkConflicts(result)
        return result
    }

    // MARK: - Apps

    private mutating func declareApps(_ files: [FileDefinition]) {
        var byFolder: [String: [FileDefinition]] = [:]
        for file in files { byFolder[file.folder, default: []].append(file) }
        var folderOfApp: [String: (String, SourceRange)] = [:]
        for folder in byFolder.keys.sorted() {
            let group = byFolder[folder]!
            let named = group.compactMap(\.app)
            guard let name = named.first else {
                let hasContent = group.contains {
                    !$0.intents.isEmpty || !$0.enums.isEmpty || !$0.entities.isEmpty || !$0.shortcuts.isEmpty
                }
                if hasContent, let first = group.first {
                    diagnostics.error(
                        "no file in '\(folder)' names its app; add 'app: Name' to one of them", at: first.range)
                }
                continue
            }
            for other in named.dropFirst() where other.value != name.value {
                diagnostics.error(
                    "this folder's app is '\(name.value)'; one folder holds one app", at: other.range,
                    notes: [Diagnostic.Note("named here", at: name.range)])
            }
            if !name.value.allSatisfy({ $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" }) || name.value.isEmpty {
                diagnostics.error("an app's name is made of letters, digits, spaces and '-'", at: name.range)
            }
            let key = name.value.lowercased()
            if let (otherFolder, range) = folderOfApp[key] {
                diagnostics.error(
                    "app '\(name.value)' is already defined in '\(otherFolder)'", at: name.range,
                    notes: [Diagnostic.Note(.firstDeclaredHere, at: range)])
                continue
            }
            folderOfApp[key] = (folder, name.range)
            var languages: [String] = []
            for language in group.flatMap(\.languages) where !languages.contains(language.value) {
                languages.append(language.value)
            }
            let schemes = group.compactMap(\.scheme)
            for scheme in schemes.dropFirst() where scheme.value != schemes[0].value {
                diagnostics.error(
                    "the app's URL scheme is already '\(schemes[0].value)'", at: scheme.range,
                    notes: [Diagnostic.Note(.firstDeclaredHere, at: schemes[0].range)])
            }
            apps[name.value] = AppDeclaration(
                name: name.value, location: name.range, files: group,
                languages: languages.isEmpty ? ["en"] : languages)
        }
    }

    // MARK: - Types

    private mutating func declareTypes(app name: String) {
        var app = apps[name]!
        var declared: [String: SourceRange] = [:]
        func declare(_ what: String, _ located: Located<String>, into diagnostics: inout DiagnosticCollector) -> Bool {
            if ValueType.builtins[located.value] != nil || located.value == "app" {
                diagnostics.error("'\(located.value)' is a built-in type name", at: located.range)
                return false
            }
            if let first = declared[located.value] {
                diagnostics.error(
                    .duplicate(what, located.value), at: located.range,
                    notes: [Diagnostic.Note(.firstDeclaredHere, at: first)])
                return false
            }
            if !Self.isIdentifier(located.value) {
                diagnostics.error(
                    "'\(located.value)' is not a valid type name: use letters, digits and '_'", at: located.range)
                return false
            }
            declared[located.value] = located.range
            return true
        }
        for file in app.files {
            for definition in file.enums where declare("type", definition.name, into: &diagnostics) {
                let enumeration = compileEnum(definition, app: name)
                app.enums[definition.name.value] = enumeration
                environment.enums[enumeration.name] = enumeration.cases.map(\.id)
            }
            for definition in file.entities where declare("type", definition.name, into: &diagnostics) {
                app.entityDefinitions[definition.name.value] = definition
                environment.entities[QualifiedName(app: name, name: definition.name.value)] = [:]
            }
        }
        var intentNames: [String: SourceRange] = [:]
        for file in app.files {
            for definition in file.intents {
                if let first = intentNames[definition.name.value] {
                    diagnostics.error(
                        .duplicate("intent", definition.name.value), at: definition.name.range,
                        notes: [Diagnostic.Note(.firstDeclaredHere, at: first)])
                    continue
                }
                if !Self.isIdentifier(definition.name.value) {
                    diagnostics.error(
                        "'\(definition.name.value)' is not a valid intent name: use letters, digits and '_'",
                        at: definition.name.range)
                }
                intentNames[definition.name.value] = definition.name.range
                app.intentDefinitions[definition.name.value] = definition
            }
            for rule in file.rules {
                if app.rules[rule.name.value] != nil {
                    diagnostics.error(.duplicate("rule", rule.name.value), at: rule.name.range)
                    continue
                }
                if let template = parsePhrase(rule.text) {
                    if let slot = template.slots.first {
                        diagnostics.error(
                            "a rule cannot hold a slot; write '{\(slot.name)}' in the phrase itself",
                            at: locate(rule.text, slot.offset..<(slot.offset + slot.name.count)))
                    }
                    app.rules[rule.name.value] = template
                }
            }
            for constant in file.constants {
                if app.constants[constant.name.value] != nil {
                    diagnostics.error(.duplicate("constant", constant.name.value), at: constant.name.range)
                    continue
                }
                if let (type, value) = constantValue(constant.value) {
                    app.constants[constant.name.value] = IntentGraph.Constant(
                        name: constant.name.value, type: type, value: value)
                }
            }
        }
        checkRuleCycles(app)
        apps[name] = app
    }

    private mutating func checkRuleCycles(_ app: AppDeclaration) {
        for file in app.files {
            for rule in file.rules {
                guard let template = app.rules[rule.name.value] else { continue }
                for reference in template.rules where app.rules[reference.name] == nil {
                    diagnostics.unknown(
                        "rule", reference.name,
                        at: locate(rule.text, reference.offset..<(reference.offset + reference.name.count)),
                        known: app.rules.keys.sorted())
                }
                var seen: Set<String> = [rule.name.value]
                var frontier = template.rules.map(\.name)
                while let next = frontier.popLast() {
                    if next == rule.name.value {
                        diagnostics.error("rule '\(rule.name.value)' refers to itself", at: rule.name.range)
                        break
                    }
                    if seen.insert(next).inserted { frontier += app.rules[next]?.rules.map(\.name) ?? [] }
                }
            }
        }
    }

    private mutating func constantValue(_ node: Node) -> (ValueType, Value)? {
        if let items = node.sequence {
            var values: [Value] = []
            var element: ValueType?
            for item in items {
                guard let (type, value) = constantValue(item) else { return nil }
                if type.element != nil {
                    diagnostics.error("a constant list holds plain values, not lists", at: item.range)
                    return nil
                }
                if let known = element, known != type {
                    diagnostics.error(
                        "a constant list holds one type; this is \(type), the list so far \(known)", at: item.range)
                    return nil
                }
                element = type
                values.append(value)
            }
            return (.array(element ?? .string), .array(values))
        }
        guard let scalar = node.scalar, !node.isNull else {
            diagnostics.error("a constant is a string, a number, a boolean or a list of them", at: node.range)
            return nil
        }
        if scalar.style == .plain {
            if let int = node.int { return (.integer, .integer(int)) }
            if let double = node.double { return (.number, .number(double)) }
            if let bool = node.bool { return (.boolean, .boolean(bool)) }
        }
        return (.string, .string(scalar.value))
    }

    private mutating func compileEnum(_ definition: EnumDefinition, app: String) -> IntentGraph.Enumeration {
        var cases: [IntentGraph.Enumeration.Case] = []
        var terms: [String: (caseID: String, range: SourceRange)] = [:]
        if definition.cases.isEmpty {
            diagnostics.error("enum '\(definition.name.value)' has no cases", at: definition.name.range)
        }
        for caseDefinition in definition.cases {
            let id = caseDefinition.id.value
            if !Self.isIdentifier(id) {
                diagnostics.error(
                    "'\(id)' is not a valid case identifier: use letters, digits and '_'", at: caseDefinition.id.range)
            }
            let title = caseDefinition.title?.value ?? Self.humanize(id)
            var spoken: [Located<String>] = [
                Located(id.replacingOccurrences(of: "_", with: " "), at: caseDefinition.id.range)
            ]
            spoken.append(caseDefinition.title ?? Located(title, at: caseDefinition.id.range))
            spoken += caseDefinition.synonyms
            for term in spoken {
                let key = TextFolding.foldPhrase(term.value)
                if let other = terms[key], other.caseID != id {
                    diagnostics.error(
                        "'\(term.value)' would mean both '\(other.caseID)' and '\(id)' of \(definition.name.value)",
                        at: term.range,
                        notes: [Diagnostic.Note("'\(other.caseID)' is said this way here", at: other.range)])
                } else if terms[key] == nil {
                    terms[key] = (id, term.range)
                }
            }
            cases.append(
                IntentGraph.Enumeration.Case(id: id, title: title, synonyms: caseDefinition.synonyms.map(\.value)))
        }
        return IntentGraph.Enumeration(
            name: QualifiedName(app: app, name: definition.name.value), cases: cases, location: definition.name.range)
    }

    /// Resolves a type name as written (`[Task]`, `Urgency`, `date?`, `Radar.Radar`); the flag tells a trailing `?`.
    mutating func resolveType(_ located: Located<String>, app: String) -> (ValueType, optional: Bool)? {
        var text = located.value.trimmed
        var optional = false
        if text.hasSuffix("?") {
            optional = true
            text.removeLast()
        }
        guard let type = resolveTypeName(text, located: located, app: app) else { return nil }
        return (type, optional)
    }

    private mutating func resolveTypeName(_ text: String, located: Located<String>, app: String) -> ValueType? {
        if text.hasPrefix("[") && text.hasSuffix("]") && text.count >= 2 {
            let inner = String(text.dropFirst().dropLast()).trimmed
            guard let element = resolveTypeName(inner, located: located, app: app) else { return nil }
            if element.element != nil {
                diagnostics.error("lists of lists are not supported", at: located.range)
                return nil
            }
            return .array(element)
        }
        if let builtin = ValueType.builtins[text] { return builtin }
        let parts = text.split(separator: ".", maxSplits: 1).map(String.init)
        let name = parts.count == 2 ? QualifiedName(app: parts[0], name: parts[1]) : QualifiedName(app: app, name: text)
        if environment.enums[name] != nil { return .enumeration(name) }
        if environment.entities[name] != nil { return .entity(name) }
        if let meant = Self.typeAliases[text.lowercased()] {
            diagnostics.error(
                "unknown type '\(text)'; did you mean '\(meant)'?", at: located.range,
                fixIt: Diagnostic.FixIt(replacement: meant, range: located.range))
            return nil
        }
        let known =
            Array(ValueType.builtins.keys) + environment.enums.keys.filter { $0.app == app }.map(\.name)
            + environment.entities.keys.filter { $0.app == app }.map(\.name)
        diagnostics.unknown("type", text, at: located.range, known: known.sorted())
        return nil
    }

    // MARK: - Shared helpers

    static func isIdentifier(_ text: String) -> Bool {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII over its bytes, without Unicode's tables: a letter or "_", then letters, digits, "_".
            func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
            guard let first = text.utf8.first, isLetter(first) || first == 0x5F else { return false }
            return text.utf8.allSatisfy { isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
        }
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    /// `CreateTask` → `Create Task`, `not_urgent` → `Not urgent`.
    static func humanize(_ name: String) -> String {
        // Bytes, not Foundation's `contains(_:)`, which searched through `range(of:)`.
        if name.utf8.contains(UInt8(ascii: "_")) {
            let words = name.split(separator: "_").map(String.init)
            return ([words.first.map { $0.prefix(1).uppercased() + $0.dropFirst() } ?? ""] + words.dropFirst()).joined(
                separator: " ")
        }
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII, byte by byte: the same words as the loop over characters below.
            func isUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
            var result: [UInt8] = []
            result.reserveCapacity(name.utf8.count + 4)
            for (index, byte) in name.utf8.enumerated() {
                if index > 0, isUpper(byte), let previous = result.last, !isUpper(previous) { result.append(0x20) }
                result.append(index == 0 && byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte)
            }
            return String(decoding: result, as: UTF8.self)
        }
        var result = ""
        for (index, character) in name.enumerated() {
            if index > 0, character.isUppercase, let previous = result.last, !previous.isUppercase {
                result.append(" ")
            }
            result.append(index == 0 ? Character(character.uppercased()) : character)
        }
        return result
    }

    /// The range of `span` (offsets into a scalar's value) in its file.
    func locate(_ located: Located<String>, _ span: Range<Int>) -> SourceRange {
        sources.locate(span, in: located)
    }

    mutating func parsePhrase(_ located: Located<String>) -> PhraseTemplate? {
        do {
            return try PhraseTemplateParser.parse(located.value)
        } catch {
            diagnostics.error(Diagnostic.Message(error.message), at: locate(located, error.offset..<(error.offset + 1)))
            return nil
        }
    }

    /// Parses and checks a `${…}` template; returns it with its type (the sole expression's, else string).
    mutating func checkTemplate(_ located: Located<String>, scope: ExpressionChecker.Scope, app: String) -> (
        Template, ExpressionType
    )? {
        let template: Template
        do {
            template = try TemplateParser.parse(located.value)
        } catch {
            diagnostics.error(Diagnostic.Message(error.message), at: locate(located, error.offset..<(error.offset + 1)))
            return nil
        }
        var checker = makeChecker(located, app: app)
        var parts: [Template.Part] = []
        var soleType: ExpressionType = .value(.string)
        for part in template.parts {
            switch part {
            case .text: parts.append(part)
            case .expression(let expression, let source):
                let (checked, type) = checker.check(expression, in: scope)
                parts.append(.expression(checked, source: source))
                soleType = type
            }
        }
        for diagnostic in checker.diagnostics.diagnostics { diagnostics.append(diagnostic) }
        let result = Template(parts: parts, source: template.source)
        return (result, result.soleExpression == nil ? .value(.string) : soleType)
    }

    /// Parses and checks a bare expression (`when:`, `where:`, `if:`); `${…}` around it is allowed.
    mutating func checkExpression(
        _ located: Located<String>, scope: ExpressionChecker.Scope, app: String, condition: Bool
    ) -> (Expression, ExpressionType)? {
        var source = located.value
        var offset = 0
        let trimmed = source.trimmed
        if trimmed.hasPrefix("${"), trimmed.hasSuffix("}"),
            trimmed.dropFirst(2).firstIndex(of: "}") == trimmed.index(before: trimmed.endIndex)
        {
            offset = source.distance(from: source.startIndex, to: source.range(of: "${")!.upperBound)
            source = String(trimmed.dropFirst(2).dropLast())
        }
        let expression: Expression
        do {
            expression = try ExpressionParser.parse(source, baseOffset: offset)
        } catch {
            diagnostics.error(Diagnostic.Message(error.message), at: locate(located, error.offset..<(error.offset + 1)))
            return nil
        }
        var checker = makeChecker(located, app: app)
        let result: (Expression, ExpressionType)
        if condition {
            result = (checker.checkCondition(expression, in: scope), .value(.boolean))
        } else {
            result = checker.check(expression, in: scope)
        }
        for diagnostic in checker.diagnostics.diagnostics { diagnostics.append(diagnostic) }
        return result
    }

    private func makeChecker(_ located: Located<String>, app: String) -> ExpressionChecker {
        let sources = self.sources
        var checker = ExpressionChecker(environment: environment, app: app) { span in
            sources.locate(span, in: located)
        }
        checker.silent =
            failedMembers.isEmpty
            ? silentNames : silentNames.union(failedMembers.map { String($0.split(separator: ".").last ?? "") })
        checker.silentMembers = failedMembers
        return checker
    }

    /// Names every expression in the app can read: its constants.
    func constantScope(app: String) -> ExpressionChecker.Scope {
        (apps[app]?.constants ?? [:]).mapValues(\.type)
    }
}
