import Foundation
public import IntentModel

/// Checks a value against a JSON Schema (draft 2020-12), the subset docs/json.schema.json and the
/// server's OpenAPI document use: boolean schemas, `$ref` (a pointer into the same document),
/// `type` (one or several), `const`, `enum`, `properties`, `required`, `additionalProperties`
/// (false or a schema), `minProperties`, `maxProperties`, `items`, `minItems`, `minimum`,
/// `maximum`, `maxLength`, `pattern`, `allOf`, `anyOf`, `oneOf`, and `if`/`then`. A keyword
/// outside the subset is reported, so a schema cannot grow past what the tests check.
public struct JSONSchemaValidator: Sendable {
    /// The whole document: the schema itself, or (OpenAPI) the document its schemas live in.
    public let document: JSONValue

    static let keywords: Set<String> = [
        "$schema", "$ref", "$defs", "title", "description", "type", "const", "enum", "properties", "required",
        "additionalProperties", "minProperties", "maxProperties", "items", "minItems", "minimum", "maximum",
        "maxLength", "pattern", "allOf", "anyOf", "oneOf", "if", "then",
    ]

    /// Reads the schema (or the document holding the schemas) from the JSON file at `path`.
    public init(path: String) throws {
        document = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The schema (or the document holding the schemas) as JSON text.
    public init(json: String) throws {
        document = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
    }

    /// The problems with `value` against the whole document (empty: it is valid).
    public func problems(_ value: JSONValue) -> [String] {
        problems(value, against: document)
    }

    /// The problems with `value` against `schema`, whose `$ref`s point into the document.
    public func problems(_ value: JSONValue, against schema: JSONValue) -> [String] {
        var problems: [String] = []
        check(value, against: schema, at: "$", into: &problems)
        return problems
    }

    /// The part of the document `reference` (`#/a/b`) points at.
    public func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#/") else { return nil }
        var node: JSONValue? = document
        for part in reference.dropFirst(2).split(separator: "/") {
            let key = String(part).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            guard case .object(let object)? = node else { return nil }
            node = object[key]
        }
        return node
    }

    private func isValid(_ value: JSONValue, _ schema: JSONValue) -> Bool {
        var problems: [String] = []
        check(value, against: schema, at: "$", into: &problems)
        return problems.isEmpty
    }

    private func check(_ value: JSONValue, against schema: JSONValue, at path: String, into problems: inout [String]) {
        switch schema {
        case .bool(true): return
        case .bool(false): return problems.append("\(path): is not allowed here")
        case .object: break
        default: return problems.append("\(path): the schema is not an object")
        }
        guard case .object(let keywords) = schema else { return }
        for key in keywords.keys where !Self.keywords.contains(key) {
            problems.append("\(path): the schema uses '\(key)', which this validator does not check")
        }
        if case .string(let reference)? = keywords["$ref"] {
            guard let resolved = resolve(reference) else { return problems.append("\(path): unresolved \(reference)") }
            check(value, against: resolved, at: path, into: &problems)
        }
        if let constant = keywords["const"], constant != value {
            problems.append("\(path): \(value) is not \(constant)")
        }
        if case .array(let choices)? = keywords["enum"], !choices.contains(value) {
            problems.append("\(path): \(value) is not one of \(choices)")
        }
        if let type = keywords["type"] {
            let types: [String] =
                switch type {
                case .string(let one): [one]
                case .array(let several): several.compactMap { if case .string(let name) = $0 { name } else { nil } }
                default: []
                }
            if !types.contains(where: { Self.isOfType(value, $0) }) {
                return problems.append("\(path): \(value) is not of type \(types.joined(separator: "|"))")
            }
        }
        if let minimum = keywords["minimum"]?.number, let number = value.number, number < minimum {
            problems.append("\(path): \(number) is below \(minimum)")
        }
        if let maximum = keywords["maximum"]?.number, let number = value.number, number > maximum {
            problems.append("\(path): \(number) is above \(maximum)")
        }
        if let maximum = keywords["maxLength"]?.number, case .string(let text) = value, Double(text.count) > maximum {
            problems.append("\(path): longer than \(Int(maximum)) characters")
        }
        if case .string(let pattern)? = keywords["pattern"], case .string(let text) = value {
            if text.range(of: pattern, options: .regularExpression) == nil {
                problems.append("\(path): \(text.debugDescription) does not match \(pattern)")
            }
        }
        if case .object(let object) = value {
            checkObject(object, keywords, at: path, into: &problems)
        }
        if case .array(let array) = value {
            if let minimum = keywords["minItems"]?.number, Double(array.count) < minimum {
                problems.append("\(path): fewer than \(Int(minimum)) items")
            }
            if let items = keywords["items"] {
                for (index, item) in array.enumerated() {
                    check(item, against: items, at: "\(path)[\(index)]", into: &problems)
                }
            }
        }
        if case .array(let all)? = keywords["allOf"] {
            for sub in all { check(value, against: sub, at: path, into: &problems) }
        }
        if case .array(let any)? = keywords["anyOf"], !any.contains(where: { isValid(value, $0) }) {
            problems.append("\(path): matches none of anyOf")
        }
        if case .array(let one)? = keywords["oneOf"] {
            let matched = one.filter { isValid(value, $0) }.count
            if matched != 1 { problems.append("\(path): matches \(matched) of oneOf, not exactly one") }
        }
        if let condition = keywords["if"], let then = keywords["then"], isValid(value, condition) {
            check(value, against: then, at: path, into: &problems)
        }
    }

    private func checkObject(
        _ object: [String: JSONValue], _ keywords: [String: JSONValue], at path: String, into problems: inout [String]
    ) {
        let properties: [String: JSONValue] =
            if case .object(let declared)? = keywords["properties"] { declared } else { [:] }
        if case .array(let required)? = keywords["required"] {
            for case .string(let key) in required where object[key] == nil {
                problems.append("\(path): '\(key)' is missing")
            }
        }
        if let minimum = keywords["minProperties"]?.number, Double(object.count) < minimum {
            problems.append("\(path): fewer than \(Int(minimum)) properties")
        }
        if let maximum = keywords["maxProperties"]?.number, Double(object.count) > maximum {
            problems.append("\(path): more than \(Int(maximum)) properties")
        }
        for (key, item) in object.sorted(by: { $0.key < $1.key }) {
            if let property = properties[key] {
                check(item, against: property, at: "\(path).\(key)", into: &problems)
            } else if let additional = keywords["additionalProperties"] {
                if case .bool(false) = additional {
                    problems.append("\(path): '\(key)' is not in the schema")
                } else {
                    check(item, against: additional, at: "\(path).\(key)", into: &problems)
                }
            }
        }
    }

    public static func isOfType(_ value: JSONValue, _ type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("integer", .integer), ("number", .integer), ("number", .number),
            ("string", .string), ("array", .array), ("object", .object):
            true
        case ("integer", .number(let number)): number == number.rounded()
        default: false
        }
    }
}

extension JSONValue {
    /// The value of `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    fileprivate var number: Double? {
        switch self {
        case .integer(let number): Double(number)
        case .number(let number): number
        default: nil
        }
    }
}
