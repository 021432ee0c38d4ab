import Foundation
import IntentModel
import YAML

/// What a name in the definitions stands for: the things find references and rename follow.
/// App names are kept in lower case, as the compiler compares them.
enum DefinitionSymbol: Hashable {
    /// A parameter of an intent, or of a widget (`owner` is `widget:Name` then).
    case parameter(app: String, owner: String, name: String)
    case intent(app: String, name: String)
    /// An entity or an enum.
    case type(app: String, name: String)
    /// A phrase rule, used as `<name>`.
    case rule(app: String, name: String)

    var name: String {
        switch self {
        case .parameter(_, _, let name), .intent(_, let name), .type(_, let name), .rule(_, let name): name
        }
    }
}

/// One place a symbol is written: its declaration or a use.
struct Occurrence {
    var symbol: DefinitionSymbol
    var file: String
    /// Scalar offsets of the name in the file's text.
    var start: Int
    var end: Int
    var isDeclaration: Bool
}

/// Every declaration and use of parameters, intents, entities, enums and rules in the definition
/// files and shortcut files, read from the YAML as written (not the compiled graph), so it follows
/// the text the editor holds even while the project does not compile.
struct SymbolIndex {
    private(set) var occurrences: [Occurrence] = []
    private(set) var sources: [String: SourceText] = [:]
    /// Declared names: intents and types by app, parameters by app and owner, rules by app.
    private(set) var intents: [String: Set<String>] = [:]
    private(set) var types: [String: Set<String>] = [:]
    private(set) var parameters: [String: [String: Set<String>]] = [:]
    private(set) var rules: [String: Set<String>] = [:]

    /// Each file's YAML as last parsed, kept while its text stays the same: after an edit only the
    /// edited file is parsed again.
    final class ParseCache {
        private var entries: [String: (text: String, root: Node?)] = [:]

        func root(of path: String, text: String) -> Node? {
            if let entry = entries[path], entry.text == text { return entry.root }
            let root = try? YAMLParser.parse(text, file: path).root
            entries[path] = (text, root)
            return root
        }

        /// Forgets the files no longer in the project.
        func keep(only paths: Set<String>) {
            entries = entries.filter { paths.contains($0.key) }
        }
    }

    init(
        definitions: [(path: String, text: String)], shortcuts: [(path: String, text: String)],
        cache: ParseCache = ParseCache()
    ) {
        cache.keep(only: Set(definitions.map(\.path) + shortcuts.map(\.path)))
        var roots: [(path: String, app: String, root: Node)] = []
        var appOfFolder: [String: String] = [:]
        var parsed: [(String, Node)] = []
        for (path, text) in definitions {
            sources[path] = SourceText(text)
            guard let root = cache.root(of: path, text: text) else { continue }
            parsed.append((path, root))
            if let app = root["app"]?.string { appOfFolder[PathText.deletingLastComponent(path)] = app.lowercased() }
        }
        for (path, root) in parsed {
            let folder = PathText.deletingLastComponent(path)
            let app = appOfFolder[folder] ?? (folder as NSString).lastPathComponent.lowercased()
            roots.append((path, app, root))
            declare(root, app: app)
        }
        for (path, app, root) in roots {
            guard let source = sources[path] else { continue }
            var walker = Walker(index: self, file: path, app: app, source: source)
            walker.file(root)
            occurrences += walker.found
        }
        for (path, text) in shortcuts {
            let source = SourceText(text)
            sources[path] = source
            guard let root = cache.root(of: path, text: text) else { continue }
            var walker = Walker(index: self, file: path, app: nil, source: source)
            walker.value(root, key: nil)
            occurrences += walker.found
        }
    }

    private mutating func declare(_ root: Node, app: String) {
        for pair in root["intents"]?.mapping ?? [] {
            guard let name = pair.key.string else { continue }
            intents[app, default: []].insert(name)
            let names = (pair.value["parameters"]?.mapping ?? []).compactMap(\.key.string)
            parameters[app, default: [:]][name, default: []].formUnion(names)
        }
        for pair in root["widgets"]?.mapping ?? [] {
            guard let name = pair.key.string else { continue }
            let names = (pair.value["parameters"]?.mapping ?? []).compactMap(\.key.string)
            parameters[app, default: [:]]["widget:" + name, default: []].formUnion(names)
        }
        for key in ["entities", "enums"] {
            for pair in root[key]?.mapping ?? [] {
                if let name = pair.key.string { types[app, default: []].insert(name) }
            }
        }
        for pair in root["rules"]?.mapping ?? [] {
            if let name = pair.key.string { rules[app, default: []].insert(name) }
        }
    }

    /// The occurrence at an LSP position of a file.
    func occurrence(at position: LSPPosition, in file: String) -> Occurrence? {
        guard let source = sources[file] else { return nil }
        let offset = source.offset(of: position)
        return occurrences.first { $0.file == file && $0.start <= offset && offset <= $0.end }
    }

    func occurrences(of symbol: DefinitionSymbol) -> [Occurrence] {
        occurrences.filter { $0.symbol == symbol }
    }

    func location(of occurrence: Occurrence) -> LSPLocation? {
        guard let source = sources[occurrence.file] else { return nil }
        return LSPLocation(
            uri: LanguageServer.uri(of: occurrence.file), range: source.range(occurrence.start, occurrence.end))
    }

    /// `Name` or `App.Name` among the names `declared` by app: the app's own first, else the only app
    /// declaring it. The name's offset within `text` comes with it.
    func resolve(_ text: String, from app: String?, in declared: [String: Set<String>]) -> (
        app: String, name: String, skip: Int
    )? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        if parts.count == 2 {
            let owner = parts[0].lowercased()
            guard declared[owner]?.contains(parts[1]) == true else { return nil }
            return (owner, parts[1], parts[0].unicodeScalars.count + 1)
        }
        if let app, declared[app]?.contains(text) == true { return (app, text, 0) }
        let owners = declared.filter { $0.value.contains(text) }.map(\.key)
        return owners.count == 1 ? (owners[0], text, 0) : nil
    }
}

/// Walks one file's YAML and records what it declares and uses.
private struct Walker {
    let index: SymbolIndex
    let file: String
    /// The file's app (nil for a shortcut file: its names are qualified, or unique across apps).
    let app: String?
    let source: SourceText
    var found: [Occurrence] = []
    /// The parameters bare names in templates and conditions stand for here, and their owner.
    var owner: (app: String, name: String)?

    init(index: SymbolIndex, file: String, app: String?, source: SourceText) {
        self.index = index
        self.file = file
        self.app = app
        self.source = source
    }

    var ownParameters: Set<String> {
        guard let owner else { return [] }
        return index.parameters[owner.app]?[owner.name] ?? []
    }

    mutating func add(_ symbol: DefinitionSymbol, _ start: Int, _ end: Int, declaration: Bool = false) {
        found.append(Occurrence(symbol: symbol, file: file, start: start, end: end, isDeclaration: declaration))
    }

    // MARK: Files

    mutating func file(_ root: Node) {
        for pair in root.mapping ?? [] {
            guard let key = pair.key.string else { continue }
            switch key {
            case "intents":
                for intent in pair.value.mapping ?? [] {
                    guard let name = intent.key.string, let app else { continue }
                    declare(.intent(app: app, name: name), intent.key)
                    owner = (app, name)
                    self.intent(intent.value)
                    owner = nil
                }
            case "widgets":
                for widget in pair.value.mapping ?? [] {
                    guard let name = widget.key.string, let app else { continue }
                    owner = (app, "widget:" + name)
                    mapping(widget.value, declaringParameters: true)
                    owner = nil
                }
            case "entities":
                for entity in pair.value.mapping ?? [] {
                    guard let name = entity.key.string, let app else { continue }
                    declare(.type(app: app, name: name), entity.key)
                    for property in entity.value["properties"]?.mapping ?? [] { typeOf(property.value) }
                    for other in entity.value.mapping ?? [] where other.key.string != "properties" {
                        value(other.value, key: other.key.string)
                    }
                }
            case "enums":
                for enumeration in pair.value.mapping ?? [] {
                    guard let name = enumeration.key.string, let app else { continue }
                    declare(.type(app: app, name: name), enumeration.key)
                }
            case "rules":
                for rule in pair.value.mapping ?? [] {
                    guard let name = rule.key.string, let app else { continue }
                    declare(.rule(app: app, name: name), rule.key)
                    phrases(rule.value, parameters: nil)
                }
            case "app", "description", "synonyms", "languages", "scheme", "constants", "understanding":
                break
            default:
                value(pair.value, key: key)
            }
        }
    }

    mutating func declare(_ symbol: DefinitionSymbol, _ key: Node) {
        let span = source.span(of: key)
        add(symbol, span.start, span.end, declaration: true)
    }

    // MARK: Intents

    mutating func intent(_ node: Node) {
        guard let owner else { return }
        for pair in node.mapping ?? [] {
            guard let key = pair.key.string else { continue }
            switch key {
            case "parameters":
                parameters(pair.value)
            case "phrases", "negativePhrases":
                phrases(pair.value, parameters: owner)
            case "training":
                training(pair.value)
            case "donate":
                for item in pair.value.sequence ?? [] { name(item) }
            case "examples":
                for example in pair.value.sequence ?? [] {
                    var target = owner
                    if let intent = example["intent"] { target = intentReference(intent) ?? owner }
                    for field in example.mapping ?? [] where field.key.string == "expect" {
                        arguments(field.value, of: target)
                    }
                }
            default:
                value(pair.value, key: key)
            }
        }
    }

    /// `parameters:`: each name declared, each type a use of the type.
    mutating func parameters(_ node: Node) {
        guard let owner else { return }
        for parameter in node.mapping ?? [] {
            guard let name = parameter.key.string else { continue }
            declare(.parameter(app: owner.app, owner: owner.name, name: name), parameter.key)
            typeOf(parameter.value)
            for field in parameter.value.mapping ?? [] where field.key.string != "type" {
                value(field.value, key: field.key.string)
            }
        }
    }

    /// A property's or parameter's type: `Item`, `[Item]`, `Item?`, `{ type: App.Item }`.
    mutating func typeOf(_ node: Node) {
        if let type = node["type"] { return typeOf(type) }
        guard node.scalar != nil, let text = node.string else { return }
        let span = source.span(of: node)
        let raw = source.scalars[span.start..<span.end]
        guard let first = raw.firstIndex(where: { $0.startsIdentifier }) else { return }
        var end = first
        while end < span.end, raw[end].continuesIdentifier || raw[end] == "." { end += 1 }
        let name = source.text(first, end)
        guard !text.isEmpty, let resolved = index.resolve(name, from: app, in: index.types) else { return }
        add(.type(app: resolved.app, name: resolved.name), first + resolved.skip, end)
    }

    /// A scalar that is a parameter's name as a whole (`donate:`, `update:`, `delete:`).
    mutating func name(_ node: Node) {
        guard let owner, let text = node.string, ownParameters.contains(text) else { return }
        let span = source.span(of: node)
        add(.parameter(app: owner.app, owner: owner.name, name: text), span.start, span.end)
    }

    /// The keys of a `with:` or `expect:` mapping: parameters of `target`.
    mutating func arguments(_ node: Node, of target: (app: String, name: String)?) {
        for pair in node.mapping ?? [] {
            if let target, let name = pair.key.string,
                index.parameters[target.app]?[target.name]?.contains(name) == true
            {
                let span = source.span(of: pair.key)
                add(.parameter(app: target.app, owner: target.name, name: name), span.start, span.end)
            }
            value(pair.value, key: nil)
        }
    }

    /// An intent's name as written in `call:`, `intent:`; records it and returns the intent.
    mutating func intentReference(_ node: Node) -> (app: String, name: String)? {
        guard let text = node.string, let resolved = index.resolve(text, from: app, in: index.intents) else {
            return nil
        }
        let span = source.span(of: node)
        add(.intent(app: resolved.app, name: resolved.name), span.start + resolved.skip, span.end)
        return (resolved.app, resolved.name)
    }

    // MARK: Phrases

    /// Phrases anywhere under `node`: `{slot}` uses of `parameters`' owner, `<rule>` uses, and the
    /// keys of a phrase's `set:`.
    mutating func phrases(_ node: Node, parameters target: (app: String, name: String)?) {
        switch node.kind {
        case .scalar:
            let span = source.span(of: node)
            var i = span.start
            while i < span.end {
                let open = source.scalars[i]
                guard open == "{" || open == "<" else {
                    i += 1
                    continue
                }
                let close: Unicode.Scalar = open == "{" ? "}" : ">"
                var end = i + 1
                while end < span.end, source.scalars[end].continuesIdentifier { end += 1 }
                if end < span.end, source.scalars[end] == close, end > i + 1 {
                    let name = source.text(i + 1, end)
                    if open == "{", let target, index.parameters[target.app]?[target.name]?.contains(name) == true {
                        add(.parameter(app: target.app, owner: target.name, name: name), i + 1, end)
                    } else if open == "<", let app = app ?? target?.app, index.rules[app]?.contains(name) == true {
                        add(.rule(app: app, name: name), i + 1, end)
                    }
                }
                i = end
            }
        case .sequence(let items):
            for item in items { phrases(item, parameters: target) }
        case .mapping(let pairs):
            for pair in pairs {
                if pair.key.string == "set" {
                    arguments(pair.value, of: target)
                } else {
                    phrases(pair.value, parameters: target)
                }
            }
        }
    }

    /// `training:` sentences: `[four](partySize)`.
    mutating func training(_ node: Node) {
        guard let owner else { return }
        if let items = node.sequence {
            for item in items { training(item) }
            return
        }
        guard node.scalar != nil else { return }
        let span = source.span(of: node)
        var i = span.start
        while i + 1 < span.end {
            defer { i += 1 }
            guard source.scalars[i] == "]", source.scalars[i + 1] == "(" else { continue }
            var end = i + 2
            while end < span.end, source.scalars[end].continuesIdentifier { end += 1 }
            let name = source.text(i + 2, end)
            if end < span.end, source.scalars[end] == ")", ownParameters.contains(name) {
                add(.parameter(app: owner.app, owner: owner.name, name: name), i + 2, end)
            }
        }
    }

    // MARK: Values: templates, conditions, steps

    /// Any value: templates in its scalars; in mappings, the keys that name intents, types,
    /// parameters or hold conditions.
    mutating func value(_ node: Node, key: String?) {
        switch node.kind {
        case .scalar:
            switch key {
            case "if", "when", "state", "gauge":
                expression(node, bareNamesAreProperties: false)
            case "where":
                expression(node, bareNamesAreProperties: true)
            case "items":
                expression(node, bareNamesAreProperties: true, startsWithEntity: true)
            case "create", "find", "find_first", "from", "type":
                typeOf(node)
            case "update", "delete":
                name(node)
            case "call", "intent":
                _ = intentReference(node)
            default:
                template(node)
            }
        case .sequence(let items):
            for item in items { value(item, key: nil) }
        case .mapping:
            mapping(node, declaringParameters: false)
        }
    }

    mutating func mapping(_ node: Node, declaringParameters: Bool) {
        let pairs = node.mapping ?? []
        // The intent this mapping runs (`call:`, `intent:`): `with:` names its parameters, a link's
        // `url:` and an App Shortcut's phrases use them as {slot}.
        var target: (app: String, name: String)?
        for pair in pairs where pair.key.string == "call" || pair.key.string == "intent" {
            target = intentReference(pair.value)
        }
        for pair in pairs {
            guard let key = pair.key.string else { continue }
            switch key {
            case "call", "intent":
                break
            case "with", "expect":
                arguments(pair.value, of: target)
            case "input":
                for field in pair.value.mapping ?? [] { typeOf(field.value) }
            case "url":
                phrases(pair.value, parameters: target)
            case "phrases" where target != nil:
                phrases(pair.value, parameters: target)
            case "parameters" where declaringParameters:
                parameters(pair.value)
            case "set", "increment", "let":
                for field in pair.value.mapping ?? [] { value(field.value, key: nil) }
            case "sort", "toggle", "as", "image", "families", "eligible", "keywords", "accepts":
                break
            default:
                value(pair.value, key: key)
            }
        }
    }

    /// The `${…}` holes of a template.
    mutating func template(_ node: Node) {
        guard node.scalar != nil else { return }
        let span = source.span(of: node)
        var i = span.start
        while i + 1 < span.end {
            if source.scalars[i] == "$", source.scalars[i + 1] == "$" {
                i += 2  // `$${` is a literal `${`
                continue
            }
            guard source.scalars[i] == "$", source.scalars[i + 1] == "{" else {
                i += 1
                continue
            }
            var end = i + 2
            while end < span.end, source.scalars[end] != "}" { end += 1 }
            names(in: i + 2, end, bareNamesAreProperties: false, startsWithEntity: false)
            i = end
        }
    }

    mutating func expression(_ node: Node, bareNamesAreProperties: Bool, startsWithEntity: Bool = false) {
        guard node.scalar != nil else { return }
        let span = source.span(of: node)
        names(
            in: span.start, span.end, bareNamesAreProperties: bareNamesAreProperties, startsWithEntity: startsWithEntity
        )
    }

    /// The names of an expression between two offsets: bare names are parameters (unless they are
    /// an entity's properties there), `Entity where …` and `Enum.case` name types.
    mutating func names(in start: Int, _ end: Int, bareNamesAreProperties: Bool, startsWithEntity: Bool) {
        let tokens = ExpressionTokens.scan(source.scalars, start, end)
        var queries: [Int] = []  // the parenthesis depth each open query began at
        var depth = 0
        let parameters = ownParameters
        for (number, token) in tokens.enumerated() {
            guard token.isName else {
                if token.text == "(" { depth += 1 }
                if token.text == ")" {
                    depth -= 1
                    while let last = queries.last, depth < last { queries.removeLast() }
                }
                continue
            }
            let previous = number > 0 ? tokens[number - 1] : nil
            let next = number + 1 < tokens.count ? tokens[number + 1] : nil
            let afterDot = previous?.text == "."
            if token.text == "where", previous?.isName == true {
                queries.append(depth)
                continue
            }
            let qualifier = afterDot && number >= 2 && tokens[number - 2].isName ? tokens[number - 2].text : nil
            let isQueryEntity =
                (next?.isName == true && next?.text == "where") || (startsWithEntity && number == 0)
                || (startsWithEntity && number == 2 && afterDot)
            if isQueryEntity || next?.text == "." && !afterDot && index.types[app ?? ""]?.contains(token.text) == true {
                let written = qualifier.map { $0 + "." + token.text } ?? token.text
                if let resolved = index.resolve(written, from: app, in: index.types) {
                    add(.type(app: resolved.app, name: resolved.name), token.start, token.end)
                }
                continue
            }
            // An entity named alone, as in `exists(Radar)` or `count(App.Task)`.
            let qualifiedByApp = qualifier.map({ index.types[$0.lowercased()] != nil }) ?? false
            if !parameters.contains(token.text), next?.text != "(", next?.text != ".", !afterDot || qualifiedByApp,
                let resolved = index.resolve(
                    qualifier.map { $0 + "." + token.text } ?? token.text, from: app, in: index.types)
            {
                add(.type(app: resolved.app, name: resolved.name), token.start, token.end)
                continue
            }
            guard !afterDot, next?.text != "(", queries.isEmpty, !bareNamesAreProperties, !startsWithEntity,
                let owner, parameters.contains(token.text)
            else { continue }
            add(.parameter(app: owner.app, owner: owner.name, name: token.text), token.start, token.end)
        }
    }
}

/// The tokens of an expression, enough to tell names from members, calls and string literals.
enum ExpressionTokens {
    struct Token {
        var text: String
        var start: Int
        var end: Int
        var isName: Bool
    }

    static func scan(_ scalars: [Unicode.Scalar], _ start: Int, _ end: Int) -> [Token] {
        var tokens: [Token] = []
        var i = start
        while i < end {
            let c = scalars[i]
            if c == "'" {
                i += 1
                while i < end, scalars[i] != "'" { i += 1 }
                i += 1
            } else if c.startsIdentifier {
                let first = i
                while i < end, scalars[i].continuesIdentifier { i += 1 }
                var text = String.UnicodeScalarView()
                text.append(contentsOf: scalars[first..<i])
                tokens.append(Token(text: String(text), start: first, end: i, isName: true))
            } else if ("0"..."9").contains(c) {
                while i < end, scalars[i].continuesIdentifier || scalars[i] == "." { i += 1 }
            } else if c == " " || c == "\n" || c == "\t" || c == "\r" {
                i += 1
            } else {
                tokens.append(Token(text: String(c), start: i, end: i + 1, isName: false))
                i += 1
            }
        }
        return tokens
    }
}
