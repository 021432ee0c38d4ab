import Foundation
public import IntentModel

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
        JSONText.pretty(jsonValue(), depth: 0) + "\n"
    }

    /// What `renderJSON()` prints, as a value.
    public func jsonValue() -> JSONValue {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        func texts(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
        func parameter(_ parameter: Parameter) -> JSONValue {
            var object: [String: JSONValue] = [
                "name": .string(parameter.name), "type": .string(parameter.type.description),
                "optional": .bool(parameter.isOptional), "default": text(parameter.defaultValue?.description),
                "prompt": text(parameter.prompt),
            ]
            if let context = parameter.context { object["context"] = .string(context) }
            return .object(object)
        }
        func phrase(_ phrase: Phrase) -> JSONValue {
            var object: [String: JSONValue] = [
                "lang": .string(phrase.language), "text": .string(phrase.template.source),
            ]
            if !phrase.values.isEmpty { object["set"] = .object(phrase.values.mapValues { .string($0.description) }) }
            return .object(object)
        }
        func intent(_ intent: Intent) -> JSONValue {
            [
                "name": .string(intent.name.name),
                "title": .string(intent.title),
                "description": text(intent.description),
                "parameters": .array(intent.parameters.map(parameter)),
                "phrases": .array(intent.phrases.map(phrase)),
                "resultType": text(intent.resultType?.description),
                "confirm": .bool(intent.confirmation != nil || intent.deletes),
                "donate": texts(intent.donate),
                "examples": .integer(intent.examples.count),
            ]
        }
        func entity(_ entity: Entity) -> JSONValue {
            [
                "name": .string(entity.name.name), "matchBy": texts(entity.matchBy),
                "properties": .array(
                    entity.properties.map {
                        [
                            "name": .string($0.name), "type": .string($0.type.description),
                            "optional": .bool($0.isOptional), "builtin": .bool($0.isBuiltin),
                        ]
                    }),
            ]
        }
        func app(_ app: App) -> JSONValue {
            [
                "name": .string(app.name),
                "synonyms": texts(app.synonyms),
                "languages": texts(app.languages),
                "scheme": text(app.scheme),
                "enums": .array(
                    app.enums.map {
                        [
                            "name": .string($0.name.name),
                            "cases": .array(
                                $0.cases.map {
                                    ["id": .string($0.id), "title": .string($0.title), "synonyms": texts($0.synonyms)]
                                }),
                        ]
                    }),
                "entities": .array(app.entities.map(entity)),
                "intents": .array(app.intents.map(intent)),
                "shortcuts": .array(
                    app.shortcuts.map {
                        [
                            "intent": .string($0.intent.name), "shortTitle": .string($0.shortTitle),
                            "phrases": texts($0.phrases.map(\.template.source)),
                        ]
                    }),
            ]
        }
        return [
            "apps": .array(apps.map(app)),
            "edges": .array(
                edges.map {
                    [
                        "from": .string($0.from.description), "to": .string($0.to.description),
                        "parameter": .string($0.parameter), "type": .string($0.type.description),
                    ]
                }),
        ]
    }
}
