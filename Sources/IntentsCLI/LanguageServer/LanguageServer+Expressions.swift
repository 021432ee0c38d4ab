import Foundation
import IntentModel

/// Completion inside expressions (`${…}` holes, `where:`, `if:`, `when:` …) and of `<rule>` names
/// inside phrases.
extension LanguageServer {
    /// The completions for the cursor when it is inside an expression or a phrase's `<rule>`; nil
    /// when it is not, so the other kinds of completion are tried.
    func expressionCompletions(_ cursor: Cursor) -> [CompletionItem]? {
        let before = cursor.before
        // A `${…}` hole not closed before the cursor.
        if let open = before.range(of: "${", options: .backwards), !before[open.upperBound...].contains("}") {
            return expressionItems(String(before[open.upperBound...]), cursor, properties: nil)
        }
        // A `<rule>` inside a phrase.
        if let open = before.lastIndex(of: "<"),
            before[before.index(after: open)...].unicodeScalars.allSatisfy(\.continuesIdentifier),
            cursor.keyPath.contains(where: { ["phrases", "negativePhrases", "rules"].contains($0) })
                || before.contains("phrases:")
        {
            let rules = app(of: cursor.path)?.rules.keys.sorted() ?? []
            return rules.map { CompletionItem(label: $0, kind: CompletionItem.rule, detail: "rule") }
        }
        // `where:`: bare names are the entity's properties.
        if let match = before.range(of: #"(^|[\s{,-])where:\s*["']?"#, options: .regularExpression) {
            let entity = entityForWhere(cursor)
            return expressionItems(String(before[match.upperBound...]), cursor, properties: entity)
        }
        // Conditions: bare names are parameters and names bound before.
        if let match = before.range(of: #"(^|[\s{,-])(if|when|state|gauge):\s*["']?"#, options: .regularExpression) {
            return expressionItems(String(before[match.upperBound...]), cursor, properties: nil)
        }
        return nil
    }

    /// The names that may come at the end of `expression`: members after `name.`, an entity's
    /// properties inside `Entity where …` (or `properties` when bare names are properties), else
    /// the parameters, the names bound by earlier steps and the app's constants.
    private func expressionItems(_ expression: String, _ cursor: Cursor, properties: IntentGraph.Entity?)
        -> [CompletionItem]
    {
        let scalars = Array(expression.unicodeScalars)
        var tokens = ExpressionTokens.scan(scalars, 0, scalars.count)
        // The word being typed is not part of the context.
        if let last = tokens.last, last.isName, last.end == scalars.count { tokens.removeLast() }
        if tokens.last?.text == ".", tokens.count >= 2, tokens[tokens.count - 2].isName {
            return members(of: tokens[tokens.count - 2].text, cursor, properties: properties)
        }
        var queries: [(depth: Int, entity: String)] = []
        var depth = 0
        for (number, token) in tokens.enumerated() {
            if token.text == "(" { depth += 1 }
            if token.text == ")" {
                depth -= 1
                while let last = queries.last, depth < last.depth { queries.removeLast() }
            }
            if token.isName, token.text == "where", number > 0, tokens[number - 1].isName {
                queries.append((depth, tokens[number - 1].text))
            }
        }
        if let query = queries.last, let entity = entity(named: query.entity, cursor) { return items(for: entity) }
        if let properties { return items(for: properties) }
        var items: [CompletionItem] = []
        for (name, type) in scope(cursor) {
            items.append(CompletionItem(label: name, kind: CompletionItem.variable, detail: type?.description))
        }
        for constant in (app(of: cursor.path)?.constants.values.sorted { $0.name < $1.name }) ?? [] {
            items.append(
                CompletionItem(label: constant.name, kind: CompletionItem.constant, detail: constant.type.description))
        }
        return items
    }

    private func items(for entity: IntentGraph.Entity) -> [CompletionItem] {
        entity.properties.map {
            CompletionItem(
                label: $0.name, kind: CompletionItem.property, detail: "\($0.type)\($0.isOptional ? "?" : "")")
        }
    }

    /// `name.`: an entity's properties, an enum's cases.
    private func members(of name: String, _ cursor: Cursor, properties: IntentGraph.Entity?) -> [CompletionItem] {
        var type = scope(cursor).first { $0.name == name }?.type ?? nil
        if type == nil, let property = properties?.properties.first(where: { $0.name == name }) { type = property.type }
        if type == nil, name == "item", let widget = widget(at: cursor), let items = widget.content.items {
            type = .entity(items.entity)
        }
        if let entityName = (type?.element ?? type)?.entityName, let entity = project.lastGraph?.entity(entityName) {
            return items(for: entity)
        }
        let enumeration =
            (type?.enumName).flatMap { project.lastGraph?.enumeration($0) }
            ?? project.lastGraph.flatMap { find(name, in: $0.enums, name: \.name) }
        if let enumeration {
            return enumeration.cases.map {
                CompletionItem(label: $0.id, kind: CompletionItem.enumMember, detail: $0.title)
            }
        }
        return []
    }

    /// The names an expression at the cursor may read: the intent's (or widget's) parameters and
    /// the names its steps bind, with their types when known.
    private func scope(_ cursor: Cursor) -> [(name: String, type: ValueType?)] {
        if let widget = widget(at: cursor) {
            var names: [(String, ValueType?)] = widget.parameters.map { ($0.name, $0.type) }
            if let items = widget.content.items { names.append(("item", .entity(items.entity))) }
            return names
        }
        guard let intent = intent(at: cursor) else { return [] }
        var names: [(String, ValueType?)] = intent.parameters.map { ($0.name, $0.type) }
        func bind(_ steps: [IntentGraph.Step]) {
            for step in steps {
                switch step {
                case .create(let entity, _, let binding):
                    if let binding { names.append((binding, .entity(entity))) }
                case .find(let query, let first, let binding):
                    if let binding {
                        names.append((binding, first ? .entity(query.entity) : .array(.entity(query.entity))))
                    }
                case .call(let callee, _, let binding):
                    if let binding { names.append((binding, project.lastGraph?.intent(callee)?.resultType)) }
                case .update(_, _, _, _, let binding):
                    if let binding { names.append((binding, nil)) }
                case .bind(let assignments):
                    names += assignments.map { ($0.name, nil) }
                case .branch(_, let then, let otherwise):
                    bind(then)
                    bind(otherwise)
                default:
                    break
                }
            }
        }
        bind(intent.perform)
        var seen: Set<String> = []
        return names.filter { seen.insert($0.0).inserted }
    }

    /// The widget whose mapping holds the cursor (`widgets: → Name: → …`).
    private func widget(at cursor: Cursor) -> IntentGraph.Widget? {
        guard cursor.keyPath.count >= 2, cursor.keyPath[0] == "widgets", let app = app(of: cursor.path) else {
            return nil
        }
        return app.widgets.first { $0.name == cursor.keyPath[1] }
    }

    private func entity(named name: String, _ cursor: Cursor) -> IntentGraph.Entity? {
        guard let graph = project.lastGraph else { return nil }
        let local = app(of: cursor.path)?.entities.first { $0.name.name == name }
        return local ?? find(name, in: graph.entities, name: \.name)
    }

    /// The entity a `where:` filters: the entity it is declared in (`suggested:`, `searchable:`),
    /// else the `find:`, `find_first:` or `from:` of its step or query, on its line or above it.
    private func entityForWhere(_ cursor: Cursor) -> IntentGraph.Entity? {
        if cursor.keyPath.count >= 2, cursor.keyPath[0] == "entities" {
            return self.entity(named: cursor.keyPath[1], cursor)
        }
        guard let text = project.text(of: cursor.path) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let pattern = #"(^|[\s{,-])(find|find_first|from):\s*([\w.]+)"#
        func entity(in line: Substring) -> IntentGraph.Entity? {
            guard let match = line.range(of: pattern, options: .regularExpression) else { return nil }
            let name = line[match].split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? ""
            return self.entity(named: name, cursor)
        }
        if let found = entity(in: Substring(cursor.line)) { return found }
        let indent = Self.indentation(of: cursor.line)
        for number in stride(from: cursor.lineNumber - 1, through: max(cursor.lineNumber - 12, 0), by: -1) {
            let line = lines[number]
            guard Self.indentation(of: line) >= indent || line.trimmingCharacters(in: .whitespaces).isEmpty else {
                return entity(in: line)
            }
            if let found = entity(in: line) { return found }
        }
        return nil
    }
}
