import Foundation
import IntentModel
import YAML

/// Completion, hover, go to definition and document symbols, answered from the last graph that
/// compiled and the text around the cursor.
extension LanguageServer {
    /// Where the cursor is: the text before it on its line and the keys of the mappings around it.
    struct Cursor {
        var path: String
        var before: String
        var word: String
        var keyPath: [String]
        /// The cursor's whole line and its number.
        var line: String
        var lineNumber: Int
    }

    func cursor(_ at: TextDocumentPositionParams) -> Cursor? {
        guard let path = Self.path(of: at.textDocument.uri), let text = project.text(of: path)
        else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard at.position.line < lines.count else { return nil }
        let line = String(lines[at.position.line])
        let utf16 = Array(line.utf16)
        let split = min(at.position.character, utf16.count)
        let before = String(decoding: utf16[..<split], as: UTF16.self)
        var start = split, end = split
        while start > 0, !ProjectWorkspace.isSeparator(utf16[start - 1]) { start -= 1 }
        while end < utf16.count, !ProjectWorkspace.isSeparator(utf16[end]) { end += 1 }
        let word = String(decoding: utf16[start..<end], as: UTF16.self)
        // The keys above: each earlier line indented less than the current level opens a mapping.
        var indent = Self.indentation(of: before.trimmingCharacters(in: .whitespaces).isEmpty ? before : line)
        var keys: [String] = []
        if let own = Self.key(of: line), own.indent < indent { indent = own.indent }
        for number in stride(from: at.position.line - 1, through: 0, by: -1) where indent > 0 {
            guard let key = Self.key(of: String(lines[number])), key.indent < indent else { continue }
            keys.insert(key.name, at: 0)
            indent = key.indent
        }
        return Cursor(path: path, before: before, word: word, keyPath: keys, line: line, lineNumber: at.position.line)
    }

    static func indentation(of line: some StringProtocol) -> Int {
        var count = 0
        for character in line {
            if character == " " || character == "-" { count += 1 } else { break }
        }
        return count
    }

    /// The key a line starts (`  title: …` → title at 2), ignoring list dashes.
    static func key(of line: String) -> (name: String, indent: Int)? {
        let indent = indentation(of: line)
        let rest = line.dropFirst(indent)
        guard let colon = rest.firstIndex(of: ":") else { return nil }
        let name = rest[..<colon]
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        return (String(name), indent)
    }

    /// The app whose files hold `path`.
    func app(of path: String) -> IntentGraph.App? {
        project.lastGraph?.apps.first { $0.files.contains(path) }
    }

    /// The intent whose mapping holds the cursor (`intents: → Name: → …`).
    func intent(at cursor: Cursor) -> IntentGraph.Intent? {
        guard cursor.keyPath.count >= 2, cursor.keyPath[0] == "intents", let app = app(of: cursor.path) else {
            return nil
        }
        return app.intents.first { $0.name.name == cursor.keyPath[1] }
    }

    // MARK: Completion

    func completions(_ at: TextDocumentPositionParams) -> [CompletionItem] {
        guard let cursor = cursor(at) else { return [] }
        let graph = project.lastGraph
        if let items = expressionCompletions(cursor) { return items }
        // Inside a phrase's {slot}: the intent's parameters.
        if let open = cursor.before.lastIndex(of: "{"), !cursor.before[open...].contains("}"),
            cursor.before[..<open].last != "$", cursor.before[..<open].filter({ $0 == "\"" }).count % 2 == 1
        {
            let parameters = intent(at: cursor)?.parameters ?? []
            return parameters.map {
                CompletionItem(label: $0.name, kind: CompletionItem.variable, detail: $0.type.description)
            }
                + [CompletionItem(label: "app", kind: CompletionItem.keyword, detail: "the app's name or a synonym")]
        }
        let trimmed = cursor.before.trimmingCharacters(in: .whitespaces)
        // A value after `call:` / `intent:`: intent names.
        if trimmed.range(of: #"(^|[\s{,-])(call|intent):\s*[\w.]*$"#, options: .regularExpression) != nil {
            let local = app(of: cursor.path)?.name
            return (graph?.intents ?? []).map {
                CompletionItem(
                    label: $0.name.app == local ? $0.name.name : $0.name.description, kind: CompletionItem.function,
                    detail: $0.title)
            }
        }
        // A value after `type:` (or a parameter's or property's shorthand type): types.
        if trimmed.range(of: #"(^|[\s{,])type:\s*\[?\w*$"#, options: .regularExpression) != nil
            || (cursor.keyPath.last == "parameters" || cursor.keyPath.last == "properties")
                && trimmed.range(of: #"^\w+:\s*\w*$"#, options: .regularExpression) != nil
        {
            var items = ValueType.builtins.keys.sorted().map {
                CompletionItem(label: $0, kind: CompletionItem.typeKind, detail: "built-in")
            }
            for enumeration in graph?.enums ?? [] {
                items.append(
                    CompletionItem(
                        label: enumeration.name.name, kind: CompletionItem.typeKind, detail: "enum \(enumeration.name)")
                )
            }
            for entity in graph?.entities ?? [] {
                items.append(
                    CompletionItem(
                        label: entity.name.name, kind: CompletionItem.typeKind, detail: "entity \(entity.name)"))
            }
            return items
        }
        // A value after `default:` of an enum-typed parameter: its cases.
        if trimmed.range(of: #"default:\s*\w*$"#, options: .regularExpression) != nil, let intent = intent(at: cursor),
            cursor.keyPath.count >= 4, let parameter = intent.parameter(cursor.keyPath[3]),
            case .enumeration(let name) = parameter.type,
            let enumeration = graph?.enums.first(where: { $0.name == name })
        {
            return enumeration.cases.map {
                CompletionItem(label: $0.id, kind: CompletionItem.enumMember, detail: $0.title)
            }
        }
        // At the start of a line: the keys the schema allows here.
        if trimmed.isEmpty || trimmed.range(of: #"^(- )?\w*$"#, options: .regularExpression) != nil {
            return schemaKeys.keys(at: cursor.keyPath).map {
                CompletionItem(label: $0.name, kind: CompletionItem.keyword, detail: $0.doc)
            }
        }
        return []
    }

    // MARK: Hover

    func hover(_ at: TextDocumentPositionParams) -> String? {
        guard let cursor = cursor(at), !cursor.word.isEmpty, let graph = project.lastGraph else { return nil }
        if let intent = intent(at: cursor), let parameter = intent.parameter(cursor.word) {
            var text = "**\(parameter.name)**: `\(parameter.type)\(parameter.isOptional ? "?" : "")`"
            if let prompt = parameter.prompt { text += "\n\nprompt: “\(prompt)”" }
            if let value = parameter.defaultValue { text += "\n\ndefault: \(value)" }
            return text
        }
        if let intent = find(cursor.word, in: graph.intents, name: \.name) {
            let parameters = intent.parameters.map { "\($0.name): \($0.type)\($0.isOptional ? "?" : "")" }.joined(
                separator: ", ")
            var text = "**\(intent.title)** — `\(intent.name)(\(parameters))`"
            if let description = intent.description { text += "\n\n\(description)" }
            let samples = intent.phrases.prefix(3).map { "- \($0.template.source)" }
            if !samples.isEmpty { text += "\n\n" + samples.joined(separator: "\n") }
            return text
        }
        if let enumeration = find(cursor.word, in: graph.enums, name: \.name) {
            return "**enum \(enumeration.name)**: " + enumeration.cases.map(\.id).joined(separator: ", ")
        }
        if let entity = find(cursor.word, in: graph.entities, name: \.name) {
            return "**entity \(entity.name)**: "
                + entity.properties.filter { !$0.isBuiltin }.map { "\($0.name): \($0.type)" }.joined(separator: ", ")
        }
        for enumeration in graph.enums {
            if let found = enumeration.cases.first(where: { $0.id == cursor.word }) {
                return "**\(found.title)** (`\(enumeration.name).\(found.id)`)\n\nsynonyms: "
                    + (found.synonyms.isEmpty ? "none" : found.synonyms.joined(separator: ", "))
            }
        }
        return nil
    }

    // MARK: Go to definition

    func definition(_ at: TextDocumentPositionParams) -> LSPLocation? {
        guard let cursor = cursor(at), !cursor.word.isEmpty, let graph = project.lastGraph else { return nil }
        let target: SourceRange?
        if let intent = intent(at: cursor), let parameter = intent.parameter(cursor.word) {
            target = parameter.location
        } else if let intent = find(cursor.word, in: graph.intents, name: \.name) {
            target = intent.location
        } else if let enumeration = find(cursor.word, in: graph.enums, name: \.name) {
            target = enumeration.location
        } else if let entity = find(cursor.word, in: graph.entities, name: \.name) {
            target = entity.location
        } else {
            target = nil
        }
        guard let target else { return nil }
        return LSPLocation(uri: Self.uri(of: target.start.file), range: project.range(of: target))
    }

    /// The declaration `word` names: `App.Name`, or `Name` (preferring the cursor's own app).
    func find<T>(_ word: String, in items: [T], name: KeyPath<T, QualifiedName>) -> T? {
        items.first { $0[keyPath: name].description == word } ?? items.first { $0[keyPath: name].name == word }
    }

    // MARK: Document symbols

    func symbols(in path: String) -> [DocumentSymbol] {
        guard let graph = project.lastGraph else { return [] }
        func symbol(
            _ name: String, _ detail: String?, kind: Int, _ range: SourceRange, children: [DocumentSymbol]? = nil
        )
            -> DocumentSymbol
        {
            let lsp = project.range(of: range)
            return DocumentSymbol(
                name: name, detail: detail, kind: kind, range: lsp, selectionRange: lsp, children: children)
        }
        var found: [DocumentSymbol] = []
        for app in graph.apps where app.files.contains(path) {
            if app.location.start.file == path { found.append(symbol(app.name, "app", kind: 2, app.location)) }
            for enumeration in app.enums where enumeration.location.start.file == path {
                found.append(symbol(enumeration.name.name, "enum", kind: 10, enumeration.location))
            }
            for entity in app.entities where entity.location.start.file == path {
                found.append(symbol(entity.name.name, "entity", kind: 23, entity.location))
            }
            for intent in app.intents where intent.location.start.file == path {
                let parameters = intent.parameters.map { symbol($0.name, $0.type.description, kind: 7, $0.location) }
                found.append(symbol(intent.name.name, intent.title, kind: 12, intent.location, children: parameters))
            }
        }
        return found
    }
}
