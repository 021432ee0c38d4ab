public import IntentModel

extension IntentGraph {
    /// What `intents describe` prints for an intent: summary, parameters, phrases and tips.
    public func describe(_ intent: Intent) -> String {
        let app = app(named: intent.name.app)
        var out = "\(intent.title) — \(intent.name)\n"
        if let description = intent.description { out += "\(description)\n" }
        if !intent.summary.isEmpty {
            let branches = intent.summary.map { branch in
                branch.conditionSource.map { "\(branch.text.source) (when \($0))" } ?? branch.text.source
            }
            out += "\nSummary: \(branches.joined(separator: "; otherwise "))\n"
        }
        out += "\nParameters:\n"
        if intent.parameters.isEmpty { out += "  (none)\n" }
        for parameter in intent.parameters {
            var line = "  \(parameter.name): \(parameter.type)"
            if parameter.isOptional { line += " (optional)" }
            if let value = parameter.defaultValue { line += " = \(value)" }
            if parameter.isRequired { line += " (required)" }
            if let prompt = parameter.prompt { line += " — asks \"\(prompt)\"" }
            if let context = parameter.context { line += " — else from the context's '\(context)'" }
            out += line + "\n"
            for validation in parameter.validations { out += "    rule: \(validation.message)\n" }
        }
        if let result = intent.resultType { out += "\nResult: \(result)\n" }
        if intent.confirmation != nil || intent.deletes { out += "Asks for confirmation before it runs.\n" }
        if !intent.phrases.isEmpty {
            out += "\nPhrases:\n"
            for phrase in intent.phrases {
                out += "  [\(phrase.language)] \(phrase.template.source)"
                if !phrase.values.isEmpty {
                    out +=
                        " (sets "
                        + phrase.values.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }
                        .joined(separator: ", ") + ")"
                }
                out += "\n"
            }
        }
        let shortcuts = app?.shortcuts.filter { $0.intent == intent.name } ?? []
        if !shortcuts.isEmpty {
            out += "\nTips:\n"
            for shortcut in shortcuts {
                for phrase in shortcut.phrases {
                    out +=
                        "  Try saying: \"\(Self.speak(phrase.template, appName: intent.name.app, rules: app?.rules ?? [:]))\"\n"
                }
            }
        }
        let into = edges.filter { $0.from == intent.name }
        if !into.isEmpty {
            out +=
                "\nIts result goes on to: \(into.map { "\($0.to.name) (\($0.parameter))" }.joined(separator: ", "))\n"
        }
        return out
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
