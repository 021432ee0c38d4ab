import IntentLanguage
import IntentModel

/// The keys `DefinitionSchema` allows at a place in a definition or shortcut file, read from the
/// JSON Schema it prints (one source of truth with the decoder).
struct SchemaKeys {
    private typealias Schema = [String: JSONValue]
    private let root: Schema
    private let definitions: Schema

    init(document: DefinitionSchema.Document) {
        root = DefinitionSchema.jsonSchemaValue(for: document).object ?? [:]
        definitions = root["$defs"]?.object ?? [:]
    }

    /// The keys (with their documentation) of the mapping at `path`: the keys above the cursor,
    /// outermost first (for `intents: → CreateTask: → parameters: → title:` the path is those four).
    func keys(at path: [String]) -> [(name: String, doc: String)] {
        var schemas: [Schema] = [root]
        for key in path {
            schemas = schemas.flatMap { objects(in: $0) }.flatMap { schema -> [Schema] in
                if let field = schema["properties"]?.object?[key]?.object { return [field] }
                if let value = schema["additionalProperties"]?.object { return [value] }
                return []
            }
        }
        var seen: Set<String> = []
        var keys: [(name: String, doc: String)] = []
        for schema in schemas.flatMap({ objects(in: $0) }) {
            for (name, field) in (schema["properties"]?.object ?? [:]).sorted(by: { $0.key < $1.key })
            where seen.insert(name).inserted {
                keys.append((name, field.object?["description"]?.string ?? ""))
            }
        }
        return keys
    }

    /// The object schemas a schema stands for: through `$ref`, `oneOf` and list items.
    private func objects(in schema: Schema, depth: Int = 0) -> [Schema] {
        guard depth < 8 else { return [] }
        if let reference = schema["$ref"]?.string, let name = reference.split(separator: "/").last,
            let target = definitions[String(name)]?.object
        {
            return objects(in: target, depth: depth + 1)
        }
        var found: [Schema] = []
        if schema["properties"] != nil || schema["additionalProperties"]?.object != nil { found.append(schema) }
        let alternatives = (schema["oneOf"]?.array ?? []) + (schema["anyOf"]?.array ?? [])
        for alternative in alternatives.compactMap(\.object) {
            found += objects(in: alternative, depth: depth + 1)
        }
        if let items = schema["items"]?.object { found += objects(in: items, depth: depth + 1) }
        return found
    }
}
