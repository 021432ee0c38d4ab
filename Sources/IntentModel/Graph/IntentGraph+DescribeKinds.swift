extension IntentGraph {
    /// Something `intents describe NAME` can describe besides an intent.
    public enum Describable: Sendable {
        case app(App)
        case entity(Entity)
        case enumeration(Enumeration)

        /// `app`, `entity`, `enum`.
        public var kind: String {
            switch self {
            case .app: "app"
            case .entity: "entity"
            case .enumeration: "enum"
            }
        }
    }

    /// Apps, entities and enums called `name` (`App.Name` for the latter two), case-insensitive.
    public func describables(named name: String) -> [Describable] {
        let folded = name.lowercased()
        func matches(_ qualified: QualifiedName) -> Bool {
            name.contains(".") ? qualified.description.lowercased() == folded : qualified.name.lowercased() == folded
        }
        var found: [Describable] = []
        if let app = app(named: name) { found.append(.app(app)) }
        found += entities.filter { matches($0.name) }.map(Describable.entity)
        found += enums.filter { matches($0.name) }.map(Describable.enumeration)
        return found
    }

    /// What `intents describe` prints for an app, an entity or an enum.
    public func describe(_ item: Describable) -> String {
        switch item {
        case .app(let app):
            var out = "\(app.name) — app\n"
            if let description = app.description { out += "\(description)\n" }
            if !app.synonyms.isEmpty { out += "Also called: \(app.synonyms.joined(separator: ", "))\n" }
            out += "Languages: \(app.languages.joined(separator: ", "))\n"
            if let scheme = app.scheme { out += "Links: \(scheme)://…\n" }
            if !app.intents.isEmpty {
                out += "\nIntents:\n"
                for intent in app.intents { out += "  \(intent.name.name) — \(intent.title)\n" }
            }
            if !app.entities.isEmpty {
                out += "\nEntities: \(app.entities.map(\.name.name).joined(separator: ", "))\n"
            }
            if !app.enums.isEmpty { out += "Enums: \(app.enums.map(\.name.name).joined(separator: ", "))\n" }
            return out
        case .entity(let entity):
            var out = "\(entity.name.name) — entity of \(entity.name.app)\n\nProperties:\n"
            for property in entity.properties {
                var line = "  \(property.name): \(property.type)"
                if property.isBuiltin { line += " (kept by the store)" }
                if property.isOptional { line += " (optional)" }
                if let value = property.defaultValue { line += " = \(value)" }
                out += line + "\n"
            }
            if !entity.matchBy.isEmpty { out += "\nFound by: \(entity.matchBy.joined(separator: ", "))\n" }
            let users = intents.filter { intent in
                intent.parameters.contains { ($0.type.element ?? $0.type).entityName == entity.name }
            }
            if !users.isEmpty {
                out += "Taken by: \(users.map(\.name.name).joined(separator: ", "))\n"
            }
            return out
        case .enumeration(let enumeration):
            var out = "\(enumeration.name.name) — enum of \(enumeration.name.app)\n\nCases:\n"
            for item in enumeration.cases {
                out += "  \(item.id) — \(item.title)"
                if !item.synonyms.isEmpty { out += " (also: \(item.synonyms.joined(separator: ", ")))" }
                out += "\n"
            }
            return out
        }
    }
}
