import Foundation
import IntentModel

extension DefinitionSchema {
    /// A JSON Schema (draft 2020-12) of definition files, for editors' YAML language servers.
    public static func jsonSchema() -> String {
        var definitions: [String: Any] = [:]
        for object in Object.allCases where object != .file {
            definitions[object.rawValue] = objectSchema(object)
        }
        var root = objectSchema(.file)
        root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        root["$id"] = "https://intents.dev/schema/definitions.json"
        root["title"] = "intents definition file"
        root["$defs"] = definitions
        let data = (try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private static func objectSchema(_ object: Object) -> [String: Any] {
        var properties: [String: Any] = [:]
        for field in fields(of: object) {
            var schema = shapeSchema(field.shape)
            schema["description"] = field.doc
            properties[field.name] = schema
        }
        return ["type": "object", "properties": properties, "additionalProperties": false]
    }

    private static func shapeSchema(_ shape: Shape) -> [String: Any] {
        switch shape {
        case .string: ["type": "string"]
        case .integer: ["type": "integer"]
        case .number: ["type": "number"]
        case .boolean: ["type": "boolean"]
        case .any: [:]
        case .list(let item): ["type": "array", "items": shapeSchema(item)]
        case .names(let value): ["type": "object", "additionalProperties": shapeSchema(value)]
        case .object(let object): ["$ref": "#/$defs/\(object.rawValue)"]
        case .oneOf(let shapes): ["anyOf": shapes.map(shapeSchema)]
        }
    }
}
