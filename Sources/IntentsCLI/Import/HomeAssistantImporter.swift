import Foundation
import YAML

/// Home Assistant's `custom_sentences/<lang>/*.yaml` (hassil's format) → one app. The template
/// syntax is nearly ours: alternatives, optionals, `<rules>` and `{lists}` carry over as they are,
/// `{list:slot}` becomes `{slot}`, permutations `(a;b)` become alternatives of every order. Lists
/// become enums (`values`, with `in`/`out`), integers with bounds (`range`) or free text
/// (`wildcard`); fixed `slots:` become phrase values (`set:`); `requires_context` with `slot: true`
/// becomes a parameter filled from the request's context; `responses` become dialogs.
struct HomeAssistantImporter {
    let appName: String
    var report = ImportReport()

    init(appName: String) {
        self.appName = appName
    }

    /// hassil's own lists, filled from Home Assistant's registry: free text here.
    static let registryLists: Set<String> = ["name", "area", "floor"]

    enum List {
        case values(ImportedApp.Enumeration, outs: [String: String])
        case range(from: Int, to: Int)
        case wildcard
    }

    struct Block {
        var sentences: [(text: String, mark: Mark)]
        var slots: [(name: String, value: String, mark: Mark)]
        var context: [String]
    }

    mutating func importApp(files: [(path: String, root: Node)], folder: String) -> ImportedApp {
        var app = ImportedApp(
            name: appName, description: "Imported from Home Assistant's custom sentences (\(folder)).")
        var lists: [String: List] = [:]
        var intents: [(name: String, mark: Mark, blocks: [Block])] = []
        var responses: [String: (text: String, mark: Mark)] = [:]
        for (path, root) in files {
            if let language = root["language"]?.string { app.language = language }
            for pair in root.mapping ?? [] {
                guard let key = pair.key.string else { continue }
                switch key {
                case "language": break
                case "intents":
                    for intent in pair.value.mapping ?? [] {
                        guard let name = intent.key.string else { continue }
                        intents.append((name, intent.key.mark, blocks(of: intent.value)))
                    }
                case "lists":
                    for list in pair.value.mapping ?? [] {
                        guard let name = list.key.string else { continue }
                        if let made = self.list(name, list.value) { lists[name] = made }
                    }
                case "expansion_rules":
                    for rule in pair.value.mapping ?? [] {
                        guard let name = rule.key.string, let text = rule.value.string else { continue }
                        app.rules.append((name, convert(text, at: rule.value.mark)))
                    }
                case "skip_words":
                    let words = (pair.value.sequence ?? []).compactMap(\.string)
                    lost(
                        "skip_words (\(words.joined(separator: ", ")))",
                        why:
                            "not a setting here: the matcher passes over fillers such as please, hey and could you by itself; other skip words must be written as [optional] words",
                        at: pair.key.mark)
                case "responses":
                    for intent in pair.value["intents"]?.mapping ?? [] {
                        guard let name = intent.key.string else { continue }
                        if let text = intent.value["default"]?.string {
                            responses[name] = (text, intent.value["default"]!.mark)
                        }
                        for other in intent.value.mapping ?? [] where other.key.string != "default" {
                            lost(
                                "the response '\(other.key.string ?? "?")' of \(name)",
                                why: "an intent has one dialog here; 'default' is kept", at: other.key.mark)
                        }
                    }
                default:
                    lost("'\(key):'", why: "not part of custom sentences' meaning here", at: pair.key.mark)
                }
            }
            _ = path
        }

        // Enums from value lists, used by name.
        var enumNames: [String: String] = [:]
        for (name, list) in lists.sorted(by: { $0.key < $1.key }) {
            if case .values(let enumeration, _) = list {
                app.enums.append(enumeration)
                enumNames[name] = enumeration.name
            }
        }
        var fixedEnums: [String: ImportedApp.Enumeration] = [:]

        for (name, mark, blocks) in intents {
            var intent = ImportedApp.Intent(
                name: Names.typeName(name),
                title: AlexaImporter.title(name.hasPrefix("Hass") ? String(name.dropFirst(4)) : name),
                description: "Home Assistant intent '\(name)'.", dialog: "")
            var phrases: [(template: String, set: [(String, String)], sample: String, expect: [(String, String)])] = []
            for block in blocks {
                var set: [(String, String)] = []
                for slot in block.slots {
                    let parameter = Names.parameterName(slot.name)
                    if let list = lists[slot.name], case .values(let enumeration, let outs) = list {
                        let id = enumeration.caseID(for: slot.value) ?? outs[slot.value] ?? Names.caseID(slot.value)
                        set.append((parameter, id))
                        if intent.parameter(parameter) == nil {
                            intent.parameters.append(.init(name: parameter, type: enumeration.name))
                        }
                    } else {
                        var enumeration =
                            fixedEnums[slot.name] ?? ImportedApp.Enumeration(name: Names.typeName(slot.name))
                        enumeration.add(slot.value)
                        fixedEnums[slot.name] = enumeration
                        set.append((parameter, Names.caseID(slot.value)))
                        if intent.parameter(parameter) == nil {
                            intent.parameters.append(.init(name: parameter, type: enumeration.name))
                        }
                    }
                }
                for context in block.context where intent.parameter(Names.parameterName(context)) == nil {
                    var parameter = ImportedApp.Parameter(
                        name: Names.parameterName(context), type: enumNames[context] ?? "string")
                    parameter.context = context
                    intent.parameters.append(parameter)
                }
                for sentence in block.sentences {
                    let template = convert(sentence.text, at: sentence.mark)
                    var missing: String?
                    let parsed = TemplateSampler.parse(template)
                    for slot in TemplateSampler.slots(parsed, rules: app.rules) {
                        let parameter = Names.parameterName(slot.name)
                        if intent.parameter(parameter) != nil { continue }
                        let list = lists[slot.list]
                        switch list {
                        case .values(let enumeration, _)?:
                            intent.parameters.append(.init(name: parameter, type: enumeration.name))
                        case .range(let from, let to)?:
                            intent.parameters.append(
                                .init(
                                    name: parameter, type: "integer",
                                    validate: [
                                        "{ min: \(from), message: \"At least \(from).\" }",
                                        "{ max: \(to), message: \"At most \(to).\" }",
                                    ]))
                        case .wildcard?: intent.parameters.append(.init(name: parameter, type: "string"))
                        case nil:
                            if Self.registryLists.contains(slot.list) {
                                intent.parameters.append(.init(name: parameter, type: "string"))
                                lost(
                                    "the list {\(slot.list)} in '\(sentence.text)'",
                                    why:
                                        "Home Assistant fills it from its registry; here it takes free text (declare an entity and use it as the type)",
                                    at: sentence.mark)
                            } else {
                                missing = slot.list
                            }
                        }
                    }
                    if let missing {
                        lost(
                            "'\(sentence.text)'", why: "the list {\(missing)} is not defined in these files",
                            at: sentence.mark)
                        continue
                    }
                    // One sample sentence per template: first alternatives, no optionals, first values.
                    var expect: [(String, String)] = []
                    let sample = TemplateSampler.sample(parsed, rules: app.rules) { slot in
                        let parameter = Names.parameterName(slot.name)
                        switch lists[slot.list] {
                        case .values(let enumeration, _)?:
                            expect.append((parameter, enumeration.cases[0].id))
                            return enumeration.cases[0].title
                        case .range(let from, _)?:
                            expect.append((parameter, "\(max(from, 1))"))
                            return "\(max(from, 1))"
                        default:
                            expect.append((parameter, "hallway"))
                            return "hallway"
                        }
                    }
                    phrases.append((template, set, sample, expect + set))
                }
            }
            for (template, set, sample, expect) in phrases {
                let ours = TemplateSampler.ourTemplate(template)
                if set.isEmpty {
                    intent.phrases.append(ours)
                } else {
                    intent.phrasesWithValues.append((ours, set))
                }
                intent.examples.append(ImportedApp.Example(say: sample, expect: expect))
            }
            guard !intent.phrases.isEmpty || !intent.phrasesWithValues.isEmpty else {
                lost("the intent '\(name)'", why: "none of its sentences could be carried over", at: mark)
                continue
            }
            if let response = responses[name] {
                intent.dialog = dialog(response.text, intent: intent, at: response.mark)
            } else {
                intent.dialog = intent.title + "."
            }
            app.intents.append(intent)
        }
        app.rules = app.rules.map { ($0.name, TemplateSampler.ourTemplate($0.template)) }
        app.enums += fixedEnums.values.filter { fixed in !app.enums.contains { $0.name == fixed.name } }.sorted {
            $0.name < $1.name
        }
        return app
    }

    /// A `{{ slots.name }}` response as a dialog template; other Jinja is left out, with a report line.
    private mutating func dialog(_ text: String, intent: ImportedApp.Intent, at mark: Mark) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            out += rest[..<open.lowerBound]
            let inside = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            let name = inside.hasPrefix("slots.") ? Names.parameterName(String(inside.dropFirst(6))) : ""
            if !name.isEmpty, intent.parameter(name) != nil {
                out += "${\(name)}"
            } else {
                lost(
                    "'{{ \(inside) }}' in the response of \(intent.name)",
                    why: "only {{ slots.NAME }} has a meaning here", at: mark)
            }
            rest = rest[close.upperBound...]
        }
        out += rest
        while let open = out.range(of: "{%"), let close = out[open.upperBound...].range(of: "%}") {
            out.removeSubrange(open.lowerBound..<close.upperBound)
        }
        if text.contains("{%") {
            lost(
                "the response of \(intent.name)",
                why: "Jinja statements ({% … %}) are not carried over; the text around them is kept", at: mark)
        }
        return out.split(separator: " ").joined(separator: " ")
    }

    private mutating func list(_ name: String, _ node: Node) -> List? {
        if let values = node["values"]?.sequence {
            var enumeration = ImportedApp.Enumeration(name: Names.typeName(name))
            var outs: [String: String] = [:]
            for value in values {
                if let text = value.string {
                    enumeration.add(text)
                } else if let said = value["in"]?.string, let meant = value["out"]?.string {
                    enumeration.add(meant, synonyms: [said])
                    outs[meant] = Names.caseID(meant)
                } else {
                    lost(
                        "a value of the list '\(name)'", why: "only text values (or in/out pairs of text) carry over",
                        at: value.mark)
                }
                if value["context"] != nil || value["metadata"] != nil {
                    lost(
                        "the context or metadata of a value of '\(name)'",
                        why: "list values here are words, not filters", at: value.mark)
                }
            }
            guard !enumeration.cases.isEmpty else {
                lost("the list '\(name)'", why: "it has no values", at: node.mark)
                return nil
            }
            return .values(enumeration, outs: outs)
        }
        if let range = node["range"] {
            guard let from = range["from"]?.int, let to = range["to"]?.int else {
                lost("the range of '\(name)'", why: "it needs whole-number from and to", at: range.mark)
                return nil
            }
            if let step = range["step"]?.int, step != 1 {
                lost(
                    "the step \(step) of the range '\(name)'",
                    why: "every whole number from \(from) to \(to) is accepted here", at: range.mark)
            }
            for key in ["type", "multiplier", "digits", "words"] where range[key] != nil {
                lost("'\(key)' of the range '\(name)'", why: "numbers here are plain integers", at: range[key]!.mark)
            }
            return .range(from: from, to: to)
        }
        if node["wildcard"]?.bool == true { return .wildcard }
        lost("the list '\(name)'", why: "neither values, range nor wildcard", at: node.mark)
        return nil
    }

    private mutating func blocks(of intent: Node) -> [Block] {
        var found: [Block] = []
        for data in intent["data"]?.sequence ?? [] {
            var block = Block(sentences: [], slots: [], context: [])
            for sentence in data["sentences"]?.sequence ?? [] {
                if let text = sentence.string { block.sentences.append((text, sentence.mark)) }
            }
            for slot in data["slots"]?.mapping ?? [] {
                guard let name = slot.key.string else { continue }
                if let value = slot.value.string {
                    block.slots.append((name, value, slot.value.mark))
                } else {
                    lost(
                        "the slot '\(name)'", why: "only a single text value can be fixed by a phrase",
                        at: slot.key.mark)
                }
            }
            for requirement in data["requires_context"]?.mapping ?? [] {
                guard let name = requirement.key.string else { continue }
                if requirement.value["slot"]?.bool == true {
                    block.context.append(name)
                } else {
                    lost(
                        "requires_context '\(name)'",
                        why: "a condition on where the request comes from; here context only fills parameters",
                        at: requirement.key.mark)
                }
            }
            if let excludes = data["excludes_context"] {
                lost(
                    "excludes_context",
                    why: "a condition on where the request comes from; here context only fills parameters",
                    at: excludes.mark)
            }
            for pair in data.mapping ?? [] {
                guard let key = pair.key.string,
                    !["sentences", "slots", "requires_context", "excludes_context"].contains(key)
                else { continue }
                lost("'\(key):' of a data block", why: "not carried over", at: pair.key.mark)
            }
            found.append(block)
        }
        return found
    }

    /// hassil's template syntax in ours: `{list:slot}` → `{slot}`, `(a;b)` → `(a b|b a)`.
    private mutating func convert(_ text: String, at mark: Mark) -> String {
        var out = text
        // {list:slot}
        while let open = out.range(of: "{"), let close = out[open.upperBound...].range(of: "}"),
            out[open.upperBound..<close.lowerBound].contains(":")
        {
            let inside = out[open.upperBound..<close.lowerBound]
            let parts = inside.split(separator: ":", maxSplits: 1)
            out.replaceSubrange(open.lowerBound..<close.upperBound, with: "{\(parts[0])@\(parts[1])}")
        }
        out =
            TemplateSampler.expandPermutations(out)
            ?? {
                lost("'\(text)'", why: "a permutation of more than three parts; written as its first order", at: mark)
                return out.replacingOccurrences(of: ";", with: " ")
            }()
        // {list@slot} marks a renamed list: the slot's name is what our phrase uses.
        return out
    }

    private mutating func lost(_ what: String, why: String, at mark: Mark) {
        report.lost(what, why: why, file: mark.file, line: mark.line, column: mark.column)
    }
}
