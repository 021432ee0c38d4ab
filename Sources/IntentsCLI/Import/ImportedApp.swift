import Foundation

/// What an importer made of another ecosystem's files: one app, rendered as our YAML by `yaml`.
struct ImportedApp {
    var name: String
    var description: String
    var synonyms: [String] = []
    var language = "en"
    var rules: [(name: String, template: String)] = []
    var enums: [Enumeration] = []
    var intents: [Intent] = []

    struct Enumeration {
        var name: String
        var cases: [Case] = []

        struct Case {
            var id: String
            var title: String
            var synonyms: [String] = []
        }

        /// The case a spoken value names (its id, title or a synonym), case-insensitively.
        func caseID(for value: String) -> String? {
            let folded = value.lowercased()
            return cases.first {
                $0.id == folded || $0.title.lowercased() == folded || $0.synonyms.contains { $0.lowercased() == folded }
            }?.id
        }

        /// Adds a case for `title` (with `synonyms`), or the synonyms to the case it already has.
        mutating func add(_ title: String, synonyms: [String] = []) {
            let id = Names.caseID(title)
            if let index = cases.firstIndex(where: { $0.id == id }) {
                for synonym in synonyms
                where !cases[index].synonyms.contains(synonym) && synonym.lowercased() != title.lowercased() {
                    cases[index].synonyms.append(synonym)
                }
            } else if !id.isEmpty {
                cases.append(
                    Case(id: id, title: title, synonyms: synonyms.filter { $0.lowercased() != title.lowercased() }))
            }
        }
    }

    struct Intent {
        var name: String
        var title: String
        var description: String?
        var parameters: [Parameter] = []
        var phrases: [String] = []
        /// Phrases that fix parameter values when they match (`set:`), each value a case id or literal.
        var phrasesWithValues: [(template: String, set: [(String, String)])] = []
        var examples: [Example] = []
        var dialog: String
        var confirm: String?

        func parameter(_ name: String) -> Parameter? { parameters.first { $0.name == name } }
    }

    struct Parameter {
        var name: String
        var type: String
        var prompt: String?
        var optional = true
        /// Validation rules, each a YAML flow mapping (`{ min: 0, max: 100 }`).
        var validate: [String] = []
        /// Filled from the request's context of this name when the sentence does not say it.
        var context: String?
    }

    struct Example {
        var say: String
        /// Parameter → expected value, in order.
        var expect: [(String, String)] = []
    }

    /// The app as a definition file.
    var yaml: String {
        var out = ""
        out += "app: \(Names.quoted(name))\n"
        out += "description: \(Names.quoted(description))\n"
        if !synonyms.isEmpty { out += "synonyms: [\(synonyms.map(Names.quoted).joined(separator: ", "))]\n" }
        out += "languages: [\(language)]\n"
        if !rules.isEmpty {
            out += "\nrules:\n"
            for rule in rules { out += "  \(rule.name): \(Names.quoted(rule.template))\n" }
        }
        if !enums.isEmpty {
            out += "\nenums:\n"
            for enumeration in enums {
                out += "  \(enumeration.name):\n    cases:\n"
                for item in enumeration.cases {
                    out += "      \(item.id): { title: \(Names.quoted(item.title))"
                    if !item.synonyms.isEmpty {
                        out += ", synonyms: [\(item.synonyms.map(Names.quoted).joined(separator: ", "))]"
                    }
                    out += " }\n"
                }
            }
        }
        out += "\nintents:\n"
        for intent in intents {
            out += "  \(intent.name):\n"
            out += "    title: \(Names.quoted(intent.title))\n"
            if let description = intent.description { out += "    description: \(Names.quoted(description))\n" }
            if !intent.parameters.isEmpty {
                out += "    parameters:\n"
                for parameter in intent.parameters {
                    var fields = ["type: \(parameter.type)"]
                    if parameter.optional { fields.append("optional: true") }
                    if let prompt = parameter.prompt { fields.append("prompt: \(Names.quoted(prompt))") }
                    if let context = parameter.context { fields.append("context: \(context)") }
                    if !parameter.validate.isEmpty {
                        fields.append("validate: [\(parameter.validate.joined(separator: ", "))]")
                    }
                    out += "      \(parameter.name): { \(fields.joined(separator: ", ")) }\n"
                }
            }
            if !intent.parameters.isEmpty {
                // Every parameter in the summary: the values show in `describe`, `explain` and the REPL.
                let values = intent.parameters.map { "${\($0.name)}" }.joined(separator: " ")
                out += "    summary: \(Names.quoted(intent.title + " " + values))\n"
            }
            out += "    phrases:\n"
            for phrase in intent.phrases { out += "      - \(Names.quoted(phrase))\n" }
            for phrase in intent.phrasesWithValues {
                let values = phrase.set.map { "\($0.0): \(Names.quoted($0.1))" }.joined(separator: ", ")
                out += "      - { text: \(Names.quoted(phrase.template)), set: { \(values) } }\n"
            }
            if let confirm = intent.confirm { out += "    confirm: \(Names.quoted(confirm))\n" }
            out += "    result:\n      dialog: \(Names.quoted(intent.dialog))\n"
            if !intent.examples.isEmpty {
                out += "    examples:\n"
                for example in intent.examples {
                    let expect = example.expect.map { "\($0.0): \(Int($0.1) != nil ? $0.1 : Names.quoted($0.1))" }
                        .joined(separator: ", ")
                    out +=
                        "      - say: \(Names.quoted(example.say))\n        expect: {\(expect.isEmpty ? "" : " \(expect) ")}\n"
                }
            }
        }
        return out
    }
}

/// Names and text in our spelling.
enum Names {
    /// `order_pizza`, `faq/ask name` → `OrderPizza`, `FaqAskName`.
    static func typeName(_ text: String) -> String {
        let name = words(text).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        guard let first = name.first else { return "Imported" }
        return first.isLetter ? name : "N" + name
    }

    /// `pizza_size` → `pizzaSize`.
    static func parameterName(_ text: String) -> String {
        let name = typeName(text)
        return name.prefix(1).lowercased() + name.dropFirst()
    }

    /// `New York` → `new_york`.
    static func caseID(_ text: String) -> String {
        let id = words(text).map { $0.lowercased() }.joined(separator: "_")
        guard let first = id.first else { return "" }
        return first.isLetter ? id : "v_" + id
    }

    static func words(_ text: String) -> [String] {
        text.split { !($0.isLetter || $0.isNumber) || !$0.isASCII }.map(String.init)
    }

    /// A YAML double-quoted scalar (JSON's escapes are YAML's).
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\x%02X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Literal words for a phrase template: the grammar's own characters become spaces, runs of
    /// spaces one.
    static func literal(_ text: String) -> String {
        let cleaned = text.map { "()[]{}|<>;".contains($0) ? " " : $0 }
        return String(cleaned).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}
