import IntentModel

extension DefinitionSchema {
    /// A JSON Schema (draft 2020-12) of definition files or shortcut files, for editors' YAML language servers.
    public static func jsonSchema(for document: Document = .definitions) -> String {
        JSONText.pretty(jsonSchemaValue(for: document), depth: 0) + "\n"
    }

    /// The JSON Schema `jsonSchema(for:)` prints, as a value (the language server reads its keys).
    public static func jsonSchemaValue(for document: Document = .definitions) -> JSONValue {
        var definitions: [String: JSONValue] = [:]
        for object in objects(reachableFrom: document.root) where object != document.root {
            definitions[object.rawValue] = .object(objectSchema(object))
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
        root["$defs"] = .object(definitions)
        return .object(root)
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

    private static func objectSchema(_ object: Object) -> [String: JSONValue] {
        var properties: [String: JSONValue] = [:]
        for field in fields(of: object) {
            var schema = shapeSchema(field.shape)
            schema["description"] = .string(field.doc)
            properties[field.name] = .object(schema)
        }
        var schema: [String: JSONValue] = [
            "type": "object", "properties": .object(properties), "additionalProperties": false,
        ]
        let required = requiredKeys(of: object)
        if !required.isEmpty { schema["required"] = strings(required) }
        if object == .step {
            // Exactly one verb, and only the keys that verb takes: what the decoder checks.
            schema["oneOf"] = .array(stepVerbs.map { ["required": [.string($0)]] })
            schema["allOf"] = .array(
                PerformVerb.allCases.map { verb in
                    [
                        "if": ["required": [.string(verb.rawValue)]],
                        "then": ["propertyNames": ["enum": strings([verb.rawValue] + verb.keys)]],
                    ]
                })
        }
        return schema
    }

    private static func strings(_ texts: [String]) -> JSONValue { .array(texts.map(JSONValue.string)) }

    private static func shapeSchema(_ shape: Shape) -> [String: JSONValue] {
        switch shape {
        case .string: ["type": "string"]
        case .integer: ["type": "integer"]
        case .number: ["type": "number"]
        case .boolean: ["type": "boolean"]
        case .null: ["type": "null"]
        case .any: [:]
        case .list(let item): ["type": "array", "items": .object(shapeSchema(item))]
        case .names(let value): ["type": "object", "additionalProperties": .object(shapeSchema(value))]
        case .object(let object): ["$ref": .string("#/$defs/\(object.rawValue)")]
        case .oneOf(let shapes): ["anyOf": .array(shapes.map { .object(shapeSchema($0)) })]
        }
    }
}
