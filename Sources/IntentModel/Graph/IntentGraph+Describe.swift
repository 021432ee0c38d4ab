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

    /// The first sentence a template produces, with the app's name and slot names filled in.
    public static func speak(_ template: PhraseTemplate, appName: String, rules: [String: PhraseTemplate]) -> String {
        guard let sentence = template.expansions(rules: rules, limit: 4096)?.first else { return template.source }
        let words = sentence.map { piece -> String in
            switch piece {
            case .word(let word): word
            case .app: appName
            case .slot(let name): "<\(name)>"
            }
        }
        guard var text = words.first else { return "" }
        text = text.prefix(1).uppercased() + text.dropFirst()
        return ([text] + words.dropFirst()).joined(separator: " ")
    }
}
