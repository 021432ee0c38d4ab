import Foundation

extension IntentGraph {
    /// An outline: apps, their types, intents with parameters, shortcuts and the edges between intents.
    public func renderText() -> String {
        var out = ""
        for app in apps {
            out += "app \(app.name)"
            if !app.synonyms.isEmpty { out += " (also: \(app.synonyms.joined(separator: ", ")))" }
            out += " — languages: \(app.languages.joined(separator: ", "))"
            if let scheme = app.scheme { out += ", scheme: \(scheme)://" }
            out += "\n"
            for enumeration in app.enums {
                out += "  enum \(enumeration.name.name): \(enumeration.cases.map(\.id).joined(separator: ", "))\n"
            }
            for entity in app.entities {
                let properties = entity.properties.filter { !$0.isBuiltin }.map {
                    "\($0.name): \($0.type)\($0.isOptional ? "?" : "")"
                }
                out += "  entity \(entity.name.name) { \(properties.joined(separator: ", ")) }\n"
            }
            for intent in app.intents {
                let parameters = intent.parameters.map(Self.signature).joined(separator: ", ")
                out += "  intent \(intent.name.name)(\(parameters))"
                if let type = intent.resultType { out += " -> \(type)" }
                out += " — \(intent.phrases.count) phrase\(intent.phrases.count == 1 ? "" : "s")\n"
            }
            for shortcut in app.shortcuts {
                out += "  shortcut \"\(shortcut.shortTitle)\" -> \(shortcut.intent.name)\n"
            }
        }
        if !edges.isEmpty {
            out += "edges\n"
            for edge in edges {
                out += "  \(edge.from) -> \(edge.to) (\(edge.parameter): \(edge.type))\n"
            }
        }
        return out
    }

    static func signature(_ parameter: Parameter) -> String {
        var text = "\(parameter.name): \(parameter.type)"
        if parameter.isOptional { text += "?" }
        if let value = parameter.defaultValue { text += " = \(value)" }
        return text
    }

    /// Graphviz DOT: one cluster per app, intents as boxes, types as ellipses,
    /// parameter edges from types to intents and result edges from intents to types.
    public func renderDOT() -> String {
        func id(_ kind: String, _ name: QualifiedName) -> String { "\"\(kind):\(name)\"" }
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        }
        var out =
            "digraph intents {\n  rankdir=LR;\n  node [fontname=\"Helvetica\", fontsize=11];\n  edge [fontname=\"Helvetica\", fontsize=9];\n"
        for (index, app) in apps.enumerated() {
            out += "  subgraph cluster_\(index) {\n    label=\"\(escape(app.name))\";\n    style=rounded;\n"
            for enumeration in app.enums {
                out +=
                    "    \(id("enum", enumeration.name)) [label=\"\(escape(enumeration.name.name))\\n(enum)\", shape=ellipse, style=dashed];\n"
            }
            for entity in app.entities {
                out +=
                    "    \(id("entity", entity.name)) [label=\"\(escape(entity.name.name))\\n(entity)\", shape=ellipse];\n"
            }
            for intent in app.intents {
                out +=
                    "    \(id("intent", intent.name)) [label=\"\(escape(intent.title))\", shape=box, style=\"rounded,filled\", fillcolor=\"#eef3ff\"];\n"
            }
            for (number, shortcut) in app.shortcuts.enumerated() {
                let node = "\"shortcut:\(app.name):\(number)\""
                out += "    \(node) [label=\"\(escape(shortcut.shortTitle))\", shape=note];\n"
                out += "    \(node) -> \(id("intent", shortcut.intent)) [style=dotted];\n"
            }
            out += "  }\n"
        }
        for intent in intents {
            for parameter in intent.parameters {
                let base = parameter.type.element ?? parameter.type
                if let name = base.entityName {
                    out +=
                        "  \(id("entity", name)) -> \(id("intent", intent.name)) [label=\"\(escape(parameter.name))\"];\n"
                } else if let name = base.enumName {
                    out +=
                        "  \(id("enum", name)) -> \(id("intent", intent.name)) [label=\"\(escape(parameter.name))\", style=dashed];\n"
                }
            }
            if let result = intent.resultType, let name = (result.element ?? result).entityName {
                out +=
                    "  \(id("intent", intent.name)) -> \(id("entity", name)) [label=\"result\", color=\"#3366cc\"];\n"
            }
        }
        out += "}\n"
        return out
    }

    /// The graph as JSON: apps, enums, entities, intents (with parameters and phrases), shortcuts, edges.
    public func renderJSON() -> String {
        let object: [String: Any] = [
            "apps": apps.map { app -> [String: Any] in
                [
                    "name": app.name,
                    "synonyms": app.synonyms,
                    "languages": app.languages,
                    "scheme": app.scheme ?? NSNull(),
                    "enums": app.enums.map {
                        [
                            "name": $0.name.name,
                            "cases": $0.cases.map { ["id": $0.id, "title": $0.title, "synonyms": $0.synonyms] },
                        ]
                    },
                    "entities": app.entities.map { entity -> [String: Any] in
                        [
                            "name": entity.name.name, "matchBy": entity.matchBy,
                            "properties": entity.properties.map {
                                [
                                    "name": $0.name, "type": $0.type.description, "optional": $0.isOptional,
                                    "builtin": $0.isBuiltin,
                                ]
                            },
                        ]
                    },
                    "intents": app.intents.map { intent -> [String: Any] in
                        [
                            "name": intent.name.name,
                            "title": intent.title,
                            "description": intent.description ?? NSNull(),
                            "parameters": intent.parameters.map { parameter -> [String: Any] in
                                var object: [String: Any] = [
                                    "name": parameter.name, "type": parameter.type.description,
                                    "optional": parameter.isOptional,
                                    "default": parameter.defaultValue.map { $0.description } ?? NSNull(),
                                    "prompt": parameter.prompt ?? NSNull(),
                                ]
                                if let context = parameter.context { object["context"] = context }
                                return object
                            },
                            "phrases": intent.phrases.map { phrase -> [String: Any] in
                                var object: [String: Any] = ["lang": phrase.language, "text": phrase.template.source]
                                if !phrase.values.isEmpty { object["set"] = phrase.values.mapValues(\.description) }
                                return object
                            },
                            "resultType": intent.resultType.map { $0.description } ?? NSNull(),
                            "confirm": intent.confirmation != nil || intent.deletes,
                            "donate": intent.donate,
                            "examples": intent.examples.count,
                        ]
                    },
                    "shortcuts": app.shortcuts.map {
                        [
                            "intent": $0.intent.name, "shortTitle": $0.shortTitle,
                            "phrases": $0.phrases.map(\.template.source),
                        ]
                    },
                ]
            },
            "edges": edges.map {
                [
                    "from": $0.from.description, "to": $0.to.description, "parameter": $0.parameter,
                    "type": $0.type.description,
                ]
            },
        ]
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
