import Foundation
import IntentLanguage

/// The keys `DefinitionSchema` allows at a place in a definition or shortcut file, read from the
/// JSON Schema it prints (one source of truth with the decoder).
struct SchemaKeys {
    private let root: [String: Any]
    private let definitions: [String: Any]

    init(document: DefinitionSchema.Document) {
        let text = DefinitionSchema.jsonSchema(for: document)
        root = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
        definitions = root["$defs"] as? [String: Any] ?? [:]
    }

    /// The keys (with their documentation) of the mapping at `path`: the keys above the cursor,
    /// outermost first (for `intents: → CreateTask: → parameters: → title:` the path is those four).
    func keys(at path: [String]) -> [(name: String, doc: String)] {
        var schemas: [[String: Any]] = [root]
        for key in path {
            schemas = schemas.flatMap { objects(in: $0) }.flatMap { schema -> [[String: Any]] in
                if let properties = schema["properties"] as? [String: Any], let field = properties[key] as? [String: Any] {
                    return [field]
                }
                if let value = schema["additionalProperties"] as? [String: Any] { return [value] }
                return []
            }
        }
        var seen: Set<String> = []
        var keys: [(name: String, doc: String)] = []
        for schema in schemas.flatMap({ objects(in: $0) }) {
            for (name, field) in (schema["properties"] as? [String: Any] ?? [:]).sorted(by: { $0.key < $1.key })
            where seen.insert(name).inserted {
                keys.append((name, (field as? [String: Any])?["description"] as? String ?? ""))
            }
        }
        return keys
    }

    /// The object schemas a schema stands for: through `$ref`, `oneOf` and list items.
    private func objects(in schema: [String: Any], depth: Int = 0) -> [[String: Any]] {
        guard depth < 8 else { return [] }
        if let reference = schema["$ref"] as? String, let name = reference.split(separator: "/").last,
            let target = definitions[String(name)] as? [String: Any]
        {
            return objects(in: target, depth: depth + 1)
        }
        var found: [[String: Any]] = []
        if schema["properties"] != nil || schema["additionalProperties"] is [String: Any] { found.append(schema) }
        for alternative in (schema["oneOf"] as? [[String: Any]] ?? []) + (schema["anyOf"] as? [[String: Any]] ?? []) {
            found += objects(in: alternative, depth: depth + 1)
        }
        if let items = schema["items"] as? [String: Any] { found += objects(in: items, depth: depth + 1) }
        return found
    }
}
