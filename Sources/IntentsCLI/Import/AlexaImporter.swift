import Foundation
import YAML

/// An Alexa interaction model (JSON) → one app: custom slot types become enums (values with their
/// synonyms), built-in slot types map to ours, intents keep their samples as phrases, dialog
/// prompts become parameters' prompts and confirmations `confirm:`.
struct AlexaImporter {
    let file: String
    var appName: String?
    var report = ImportReport()

    init(file: String, appName: String?) {
        self.file = file
        self.appName = appName
    }

    /// Alexa's built-in slot types with a type of ours, and what is lost for the others.
    static let builtins: [String: String] = [
        "AMAZON.NUMBER": "integer", "AMAZON.FOUR_DIGIT_NUMBER": "integer", "AMAZON.DATE": "date",
        "AMAZON.TIME": "date", "AMAZON.DURATION": "duration", "AMAZON.SearchQuery": "string",
    ]

    mutating func importApp(from document: Node) -> ImportedApp {
        let model = document["interactionModel"] ?? document
        let language = model["languageModel"] ?? Node(kind: .mapping([]), range: document.range)
        let invocation = language["invocationName"]?.string ?? "imported skill"
        var app = ImportedApp(
            name: appName ?? Names.typeName(invocation), description: "Imported from the Alexa skill '\(invocation)'.")
        if app.name.lowercased() != invocation.replacingOccurrences(of: " ", with: "").lowercased()
            || invocation.contains(" ")
        {
            app.synonyms = [invocation]
        }
        for pair in model.mapping ?? [] where !["languageModel", "dialog", "prompts"].contains(pair.key.string ?? "") {
            lost("'\(pair.key.string ?? "?")'", why: "not part of what a skill's sentences need", at: pair.key.mark)
        }

        // Prompts by id, then the dialog model's slots and confirmations.
        var prompts: [String: String] = [:]
        for prompt in model["prompts"]?.sequence ?? [] {
            guard let id = prompt["id"]?.string else { continue }
            let variations = prompt["variations"]?.sequence ?? []
            if let text = variations.first?["value"]?.string { prompts[id] = text }
            if variations.count > 1 {
                lost(
                    "\(variations.count - 1) more variation(s) of the prompt '\(id)'",
                    why: "a parameter has one prompt here; the first is kept", at: variations[1].mark)
            }
        }
        var dialogSlots: [String: [String: Node]] = [:]
        var confirmations: [String: String] = [:]
        for intent in model["dialog"]?["intents"]?.sequence ?? [] {
            guard let name = intent["name"]?.string else { continue }
            if intent["confirmationRequired"]?.bool == true, let id = intent["prompts"]?["confirmation"]?.string {
                confirmations[name] = prompts[id] ?? "Are you sure?"
            }
            for slot in intent["slots"]?.sequence ?? [] {
                if let slotName = slot["name"]?.string { dialogSlots[name, default: [:]][slotName] = slot }
                if slot["validations"] != nil {
                    lost(
                        "the validations of the slot '\(slot["name"]?.string ?? "?")'",
                        why: "Alexa's validation rules are not translated; add validate: by hand",
                        at: slot["validations"]!.mark)
                }
                if slot["confirmationRequired"]?.bool == true {
                    lost(
                        "the slot confirmation of '\(slot["name"]?.string ?? "?")'",
                        why: "we confirm whole intents (confirm:), not single values", at: slot.mark)
                }
            }
        }

        // Custom slot types.
        var enums: [String: ImportedApp.Enumeration] = [:]
        for type in language["types"]?.sequence ?? [] {
            guard let name = type["name"]?.string else { continue }
            var enumeration = ImportedApp.Enumeration(name: Names.typeName(name))
            for value in type["values"]?.sequence ?? [] {
                guard let title = value["name"]?["value"]?.string else { continue }
                enumeration.add(title, synonyms: (value["name"]?["synonyms"]?.sequence ?? []).compactMap(\.string))
                if let id = value["id"]?.string, Names.caseID(id) != Names.caseID(title) {
                    lost(
                        "the id '\(id)' of '\(title)'",
                        why: "a case's id here is made from its name ('\(Names.caseID(title))')", at: value.mark)
                }
            }
            if enumeration.cases.isEmpty {
                lost("the slot type '\(name)'", why: "it has no values", at: type.mark)
                continue
            }
            enums[name] = enumeration
        }

        var seenPhrases: [String: String] = [:]
        for intent in language["intents"]?.sequence ?? [] {
            guard let name = intent["name"]?.string else { continue }
            if name.hasPrefix("AMAZON.") {
                lost(
                    "the built-in intent '\(name)'",
                    why: "help, stop, cancel and fallback are the conversation's own here", at: intent.mark)
                continue
            }
            var imported = ImportedApp.Intent(
                name: Names.typeName(name.hasSuffix("Intent") && name != "Intent" ? String(name.dropLast(6)) : name),
                title: Self.title(name), description: "Alexa intent '\(name)'.", dialog: Self.title(name) + ".",
                confirm: confirmations[name])
            var fill: [String: (say: String, expect: String?)] = [:]
            for slot in intent["slots"]?.sequence ?? [] {
                guard let slotName = slot["name"]?.string, let typeName = slot["type"]?.string else { continue }
                let type: String
                if let enumeration = enums[typeName] {
                    type = enumeration.name
                    fill[slotName] = (enumeration.cases[0].title, enumeration.cases[0].id)
                } else if let builtin = Self.builtins[typeName] {
                    type = builtin
                    if typeName == "AMAZON.TIME" {
                        lost(
                            "the slot '\(slotName)' (AMAZON.TIME)",
                            why: "a time of day is a date here (today at that time)", at: slot.mark)
                    }
                    switch builtin {
                    case "integer": fill[slotName] = ("3", "3")
                    case "date": fill[slotName] = ("tomorrow", nil)
                    case "duration": fill[slotName] = ("five minutes", nil)
                    default: fill[slotName] = ("something new", "something new")
                    }
                } else {
                    type = "string"
                    fill[slotName] = ("something new", "something new")
                    lost(
                        "the slot type '\(typeName)' of '\(slotName)'",
                        why: "no such type here; the slot takes free text", at: slot.mark)
                }
                let dialog = dialogSlots[name]?[slotName]
                var parameter = ImportedApp.Parameter(name: Names.parameterName(slotName), type: type)
                if dialog?["elicitationRequired"]?.bool == true {
                    parameter.optional = false
                    if let id = dialog?["prompts"]?["elicitation"]?.string { parameter.prompt = prompts[id] }
                }
                if type == "string", parameter.optional == false {
                    parameter.prompt = parameter.prompt ?? "What \(slotName)?"
                }
                imported.parameters.append(parameter)
                for sample in slot["samples"]?.sequence ?? [] {
                    lost(
                        "the slot sample '\(sample.string ?? "")'",
                        why: "answers to a prompt are understood by the slot's type here", at: sample.mark)
                }
            }
            for sample in intent["samples"]?.sequence ?? [] {
                guard let text = sample.string else { continue }
                var phrase = ""
                var said = ""
                var expect: [(String, String)] = []
                var unknown: String?
                var rest = Substring(text)
                while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                    let literal = Names.literal(String(rest[..<open]))
                    let slot = String(rest[rest.index(after: open)..<close])
                    phrase += " " + literal + " {\(Names.parameterName(slot))} "
                    if let value = fill[slot] {
                        said += " " + literal + " " + value.say + " "
                        if let expected = value.expect { expect.append((Names.parameterName(slot), expected)) }
                    } else {
                        unknown = slot
                    }
                    rest = rest[rest.index(after: close)...]
                }
                phrase += " " + Names.literal(String(rest))
                said += " " + Names.literal(String(rest))
                phrase = phrase.split(separator: " ").joined(separator: " ")
                said = said.split(separator: " ").joined(separator: " ")
                if let unknown {
                    lost(
                        "'\(text)'", why: "it uses the slot '\(unknown)', which the intent does not declare",
                        at: sample.mark)
                    continue
                }
                guard !phrase.isEmpty else { continue }
                if let other = seenPhrases[phrase.lowercased()], other != imported.name {
                    lost("'\(text)'", why: "the intent '\(other)' already has this sentence", at: sample.mark)
                    continue
                }
                seenPhrases[phrase.lowercased()] = imported.name
                imported.phrases.append(phrase)
                imported.examples.append(ImportedApp.Example(say: said, expect: expect))
            }
            guard !imported.phrases.isEmpty else {
                lost("the intent '\(name)'", why: "it has no samples to make phrases from", at: intent.mark)
                continue
            }
            app.intents.append(imported)
        }
        let used = Set(app.intents.flatMap { $0.parameters.map(\.type) })
        app.enums = enums.values.filter { used.contains($0.name) }.sorted { $0.name < $1.name }
        return app
    }

    static func title(_ name: String) -> String {
        var base = name.hasSuffix("Intent") && name != "Intent" ? String(name.dropLast(6)) : name
        base = base.replacingOccurrences(of: "_", with: " ")
        var words: [String] = []
        var current = ""
        for character in base {
            if character.isUppercase, !current.isEmpty, current.last != " " {
                words.append(current)
                current = ""
            }
            if character != " " {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words.enumerated().map { $0.offset == 0 ? $0.element.capitalized : $0.element.lowercased() }.joined(
            separator: " ")
    }

    private mutating func lost(_ what: String, why: String, at mark: Mark) {
        report.lost(what, why: why, file: file, line: mark.line, column: mark.column)
    }
}
