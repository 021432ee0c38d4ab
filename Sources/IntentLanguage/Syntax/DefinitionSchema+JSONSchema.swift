import Foundation
import IntentModel

extension DefinitionSchema {
    /// A JSON Schema (draft 2020-12) of definition files or shortcut files, for editors' YAML language servers.
    public static func jsonSchema(for document: Document = .definitions) -> String {
        var definitions: [String: Any] = [:]
        for object in objects(reachableFrom: document.root) where object != document.root {
            definitions[object.rawValue] = objectSchema(object)
        }
        var root = objectSchema(document.root)
        root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        switch document {
        case .definitions:
            root["$id"] = "https://intents.dev/schema/definitions.json"
            root["title"] = "intents definition file"
        case .shortcuts:
            root["$id"] = "https://intents.dev/schema/shortcuts.json"
            root["title"] = "intents shortcut file"
        }
        root["$defs"] = definitions
        let data =
            (try? JSONSerialization.data(
                withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The objects a document's root refers to, directly or through others (the root included).
    private static func objects(reachableFrom root: Object) -> Set<Object> {
        var found: Set<Object> = [root]
        var frontier = [root]
        while let object = frontier.popLast() {
            for field in fields(of: object) {
                for next in referencedObjects(field.shape) where found.insert(next).inserted {
                    frontier.append(next)
                }
            }
        }
        return found
    }

    private static func referencedObjects(_ shape: Shape) -> [Object] {
        switch shape {
        case .string, .integer, .number, .boolean, .null, .any: []
        case .list(let item), .names(let item): referencedObjects(item)
        case .object(let object): [object]
        case .oneOf(let shapes): shapes.flatMap(referencedObjects)
        }
    }

    private static func objectSchema(_ object: Object) -> [String: Any] {
        var properties: [String: Any] = [:]
        for field in fields(of: object) {
            var schema = shapeSchema(field.shape)
            schema["description"] = field.doc
            properties[field.name] = schema
        }
        var schema: [String: Any] = ["type": "object", "properties": properties, "additionalProperties": false]
        let required = requiredKeys(of: object)
        if !required.isEmpty { schema["required"] = required }
        if object == .step {
            // Exactly one verb, and only the keys that verb takes: what the decoder checks.
            schema["oneOf"] = stepVerbs.map { ["required": [$0]] }
            schema["allOf"] = PerformVerb.allCases.map { verb -> [String: Any] in
                [
                    "if": ["required": [verb.rawValue]],
                    "then": ["propertyNames": ["enum": [verb.rawValue] + verb.keys]],
                ]
            }
        }
        return schema
    }

    private static func shapeSchema(_ shape: Shape) -> [String: Any] {
        switch shape {
        case .string: ["type": "string"]
        case .integer: ["type": "integer"]
        case .number: ["type": "number"]
        case .boolean: ["type": "boolean"]
        case .null: ["type": "null"]
        case .any: [:]
        case .list(let item): ["type": "array", "items": shapeSchema(item)]
        case .names(let value): ["type": "object", "additionalProperties": shapeSchema(value)]
        case .object(let object): ["$ref": "#/$defs/\(object.rawValue)"]
        case .oneOf(let shapes): ["anyOf": shapes.map(shapeSchema)]
        }
    }
}
