import IntentModel
import YAML

extension Diagnostic.Message {
    static func badExpiry(_ text: String) -> Self {
        "'\(text)' is not a duration for 'expires'; write a whole number and a unit: 30d, 12h, 90m, 2w"
    }
    static func keywordsType(_ type: ValueType) -> Self {
        "'keywords' is text or a list of strings, not \(type)"
    }
    static func noShortcutForTip(_ intent: String) -> Self {
        "intent '\(intent)' has no app shortcut; a tip teaches a shortcut's phrase"
    }
    static func unknownTipPhrase(_ phrase: String) -> Self { "no phrase \"\(phrase)\" in the app shortcut" }
    static func donatedMoment(_ name: String, _ type: ValueType) -> Self {
        "'\(name)' is \(type == .duration ? "a duration" : "a date"); donate stable parameters, never timestamps"
    }
}

extension Compiler {
    /// `searchable:`: templates in the entity's scope, the filter a condition, `expires` a duration.
    mutating func compileSearchable(
        _ definition: SearchableDefinition, scope: ExpressionChecker.Scope, app: String
    ) -> IntentGraph.Searchable? {
        let title = checkTemplate(definition.title, scope: scope, app: app)?.0
        let description = definition.description.flatMap { checkTemplate($0, scope: scope, app: app)?.0 }
        var keywords: Template?
        if let source = definition.keywords, let (template, type) = checkTemplate(source, scope: scope, app: app) {
            if let valueType = type.valueType, valueType != .string, valueType != .array(.string) {
                diagnostics.error(.keywordsType(valueType), at: source.range)
            } else {
                keywords = template
            }
        }
        let filter = definition.filter.flatMap { checkExpression($0, scope: scope, app: app, condition: true)?.0 }
        var expires: Int?
        if let source = definition.expires {
            if let seconds = Self.expiry(source.value) {
                expires = seconds
            } else {
                diagnostics.error(.badExpiry(source.value), at: source.range)
            }
        }
        guard let title else { return nil }
        let signature = [
            definition.title.value, definition.description?.value ?? "", definition.keywords?.value ?? "",
            definition.filter?.value ?? "", definition.expires?.value ?? "",
        ].joined(separator: "\u{1F}")
        return IntentGraph.Searchable(
            title: title, description: description, keywords: keywords, filter: filter, expires: expires,
            signature: signature)
    }

    /// `30d`, `12h`, `90m`, `2w`, `45s` → seconds.
    static func expiry(_ text: String) -> Int? {
        let trimmed = text.trimmed
        guard let unit = trimmed.last, let number = Int(trimmed.dropLast()), number > 0, number < 100_000 else {
            return nil
        }
        switch unit {
        case "s": return number
        case "m": return number * 60
        case "h": return number * 3600
        case "d": return number * 86_400
        case "w": return number * 604_800
        default: return nil
        }
    }

    /// The app's tips: those declared under `tips:` (one per language its shortcut speaks), then
    /// derived ones: an `after-long-way` and an `after-near-miss` tip for every app shortcut that has
    /// none declared there, and a `start` tip for the first shortcut when the app declares none.
    mutating func compileTips(
        app: AppDeclaration, shortcuts: [IntentGraph.AppShortcut], rules: [String: PhraseTemplate]
    ) -> [IntentGraph.Tip] {
        var tips: [IntentGraph.Tip] = []
        let definitions = app.files.flatMap(\.tips)
        for definition in definitions {
            let name = definition.intent.value
            let bare = name.hasPrefix(app.name + ".") ? String(name.dropFirst(app.name.count + 1)) : name
            guard app.intentDefinitions[bare] != nil else {
                diagnostics.unknown(
                    "intent", name, at: definition.intent.range, known: app.intentDefinitions.keys.sorted())
                continue
            }
            let qualified = QualifiedName(app: app.name, name: bare)
            guard let shortcut = shortcuts.first(where: { $0.intent == qualified }) else {
                diagnostics.error(.noShortcutForTip(bare), at: definition.intent.range)
                continue
            }
            var placement = IntentGraph.TipPlacement.start
            if let source = definition.placement {
                guard let known = IntentGraph.TipPlacement(rawValue: source.value) else {
                    diagnostics.unknown(
                        "placement", source.value, at: source.range,
                        known: IntentGraph.TipPlacement.allCases.map(\.rawValue))
                    continue
                }
                placement = known
            }
            let condition = definition.condition.flatMap {
                checkExpression($0, scope: constantScope(app: app.name), app: app.name, condition: true)?.0
            }
            var phrases = shortcut.phrases
            if let wanted = definition.phrase {
                phrases = phrases.filter { $0.template.source == wanted.value }
                if phrases.isEmpty {
                    diagnostics.missing(
                        .unknownTipPhrase(wanted.value), wanted.value, at: wanted.range,
                        known: shortcut.phrases.map(\.template.source))
                    continue
                }
            }
            if let language = definition.language {
                phrases = phrases.filter { $0.language == language.value }
                if phrases.isEmpty {
                    diagnostics.error(
                        "the app shortcut of '\(bare)' has no phrase in '\(language.value)'", at: language.range)
                    continue
                }
            }
            tips += Self.tips(
                app: app.name, shortcut: shortcut, phrases: phrases, placement: placement, condition: condition,
                declared: true, rules: rules)
        }
        for shortcut in shortcuts {
            for placement in [IntentGraph.TipPlacement.afterLongWay, .afterNearMiss]
            where !tips.contains(where: { $0.intent == shortcut.intent && $0.placement == placement }) {
                tips += Self.tips(
                    app: app.name, shortcut: shortcut, phrases: shortcut.phrases, placement: placement, condition: nil,
                    declared: false, rules: rules)
            }
        }
        if definitions.isEmpty, let first = shortcuts.first {
            tips += Self.tips(
                app: app.name, shortcut: first, phrases: first.phrases, placement: .start, condition: nil,
                declared: false, rules: rules)
        }
        return tips
    }

    /// One tip per language: the first phrase of that language, slot-free ones preferred.
    private static func tips(
        app: String, shortcut: IntentGraph.AppShortcut, phrases: [IntentGraph.Phrase],
        placement: IntentGraph.TipPlacement, condition: Expression?, declared: Bool, rules: [String: PhraseTemplate]
    ) -> [IntentGraph.Tip] {
        var languages: [String] = []
        for phrase in phrases where !languages.contains(phrase.language) { languages.append(phrase.language) }
        return languages.compactMap { language in
            let candidates = phrases.filter { $0.language == language }
            guard let phrase = candidates.first(where: { $0.template.slots.isEmpty }) ?? candidates.first else {
                return nil
            }
            return IntentGraph.Tip(
                app: app, intent: shortcut.intent,
                phrase: IntentGraph.speak(phrase.template, appName: app, rules: rules), language: language,
                placement: placement, condition: condition, declared: declared)
        }
    }
}
