import YAML

extension Compiler {
    mutating func compilePhrases(_ definitions: [PhraseDefinition], parameters: [IntentGraph.Parameter], app: AppDeclaration) -> [IntentGraph.Phrase] {
        var phrases: [IntentGraph.Phrase] = []
        for definition in definitions {
            let language = definition.language?.value ?? app.languages[0]
            if let lang = definition.language, !app.languages.contains(lang.value) {
                diagnostics.error("language '\(lang.value)' is not one of the app's languages (\(app.languages.joined(separator: ", ")))", at: lang.range)
            }
            guard let template = parsePhrase(definition.text) else { continue }
            var seen: Set<String> = []
            for slot in template.slots {
                var range: SourceRange { locate(definition.text, slot.offset..<(slot.offset + slot.name.count)) }
                if silentNames.contains(slot.name) { continue }
                if !parameters.contains(where: { $0.name == slot.name }) {
                    diagnostics.unknown("slot", slot.name, at: range, known: parameters.map(\.name))
                } else if !seen.insert(slot.name).inserted, !Self.inDifferentBranches(slot.name, template.items) {
                    diagnostics.error("slot '\(slot.name)' appears twice in one phrase", at: range)
                }
            }
            for rule in template.rules where app.rules[rule.name] == nil {
                diagnostics.unknown("rule", rule.name, at: locate(definition.text, rule.offset..<(rule.offset + rule.name.count)), known: app.rules.keys.sorted())
            }
            phrases.append(IntentGraph.Phrase(language: language, template: template, location: definition.text.range))
        }
        return phrases
    }

    /// Whether every use of a slot sits in a different branch of one alternative (`({a} x|y {a})`).
    private static func inDifferentBranches(_ slot: String, _ items: [PhraseTemplate.Item]) -> Bool {
        let holding = items.filter { !PhraseTemplate.slots(in: [$0]).filter { $0.name == slot }.isEmpty }
        guard holding.count == 1, case .alternatives(let branches) = holding[0] else { return false }
        return branches.allSatisfy { branch in PhraseTemplate.slots(in: branch).filter { $0.name == slot }.count <= 1 }
    }

    mutating func compileShortcut(_ definition: ShortcutDefinition, app: AppDeclaration) -> IntentGraph.AppShortcut? {
        let parts = definition.intent.value.split(separator: ".", maxSplits: 1).map(String.init)
        let name = parts.count == 2 ? QualifiedName(app: parts[0], name: parts[1]) : QualifiedName(app: app.name, name: definition.intent.value)
        guard name.app == app.name, let intent = intents[name] else {
            if name.app != app.name {
                diagnostics.error("an app shortcut runs an intent of its own app", at: definition.intent.range)
            } else if app.intentDefinitions[name.name] == nil {
                diagnostics.unknown("intent", definition.intent.value, at: definition.intent.range, known: app.intentDefinitions.keys.sorted())
            }
            return nil
        }
        if definition.phrases.isEmpty {
            diagnostics.error("an app shortcut needs at least one phrase", at: definition.range)
        }
        let phrases = compilePhrases(definition.phrases, parameters: intent.parameters, app: app)
        for (phrase, source) in zip(phrases, definition.phrases) where !phrase.template.mentionsApp(rules: app.rules) {
            diagnostics.warning("an app shortcut phrase should say the app's name with {app}", at: source.text.range)
        }
        return IntentGraph.AppShortcut(
            intent: name, phrases: phrases, shortTitle: definition.shortTitle?.value ?? intent.title,
            image: definition.image?.value, location: definition.range)
    }

    /// Two intents that can be said with the same words are an error: the sentence would be a coin toss.
    mutating func checkPhraseConflicts(_ apps: [IntentGraph.App]) {
        var owners: [String: (intent: QualifiedName, location: SourceRange)] = [:]
        var folded: [String: String] = [:]
        func fold(_ word: String) -> String {
            if let known = folded[word] { return known }
            let result = Self.fold(word)
            folded[word] = result
            return result
        }
        for app in apps {
            var sources: [(QualifiedName, IntentGraph.Phrase)] = app.intents.flatMap { intent in intent.phrases.map { (intent.name, $0) } }
            sources += app.shortcuts.flatMap { shortcut in shortcut.phrases.map { (shortcut.intent, $0) } }
            for (intentName, phrase) in sources {
                guard let intent = app.intents.first(where: { $0.name == intentName }),
                      let sentences = phrase.template.expansions(rules: app.rules) else { continue }
                var reported = false
                for sentence in sentences {
                    let key = phrase.language + "|" + sentence.map { piece -> String in
                        switch piece {
                        case .word(let word): return fold(word)
                        case .app: return "{app:\(app.name)}"
                        case .slot(let slot): return "{\(intent.parameter(slot)?.type.description ?? slot)}"
                        }
                    }.joined(separator: " ")
                    if let owner = owners[key], owner.intent != intentName {
                        if !reported {
                            let words = sentence.map { piece -> String in
                                switch piece {
                                case .word(let word): return word
                                case .app: return app.name
                                case .slot(let slot): return "{\(slot)}"
                                }
                            }.joined(separator: " ")
                            let note = [Diagnostic.Note("'\(owner.intent)' says it here", at: owner.location)]
                            if owner.intent.app == intentName.app {
                                diagnostics.error("'\(words)' is a phrase of both '\(owner.intent.name)' and '\(intentName.name)'", at: phrase.location, notes: note)
                            } else {
                                diagnostics.warning("'\(words)' is a phrase of both '\(owner.intent)' and '\(intentName)'; people will have to name the app", at: phrase.location, notes: note)
                            }
                            reported = true
                        }
                    } else if owners[key] == nil {
                        owners[key] = (intentName, phrase.location)
                    }
                }
            }
        }
    }
}

extension PhraseTemplate {
    /// Whether every sentence of the template names the app.
    func mentionsApp(rules: [String: PhraseTemplate]) -> Bool {
        func mentions(_ items: [Item]) -> Bool {
            items.contains { item in
                switch item {
                case .app: true
                case .rule(let name, _): rules[name].map { mentions($0.items) } ?? false
                case .alternatives(let branches): branches.allSatisfy(mentions)
                default: false
                }
            }
        }
        return mentions(items)
    }
}
