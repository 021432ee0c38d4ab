import Foundation
import IntentModel

/// Checks a response against the OpenAPI document's schema for its path, method and status — the
/// subset of JSON Schema the document uses: `$ref`, `type` (one or several), `enum`, `properties`,
/// `required`, `additionalProperties` (false or a schema), `items`, `minimum`, `minItems`.
struct OpenAPIValidator {
    let document: JSONValue

    init(json: String) throws {
        document = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
    }

    /// The problems with `reply` as an answer to `method path` (empty: it matches).
    func problems(method: String, path: String, reply: HTTPReply) -> [String] {
        let bare = String(path.split(separator: "?", maxSplits: 1).first ?? "")
        guard case .object(let paths)? = document["paths"] else { return ["no paths"] }
        let template = paths.keys.sorted().first { Self.matches(template: $0, path: bare) }
        guard let template, let operation = paths[template]?[method.lowercased()] else {
            // A path or method the document does not list is refused the documented way.
            return schemaProblems(reply, schema: .object(["$ref": .string("#/components/schemas/Error")]), at: "\(method) \(bare)")
        }
        guard let responses = operation["responses"],
            var response = responses[String(reply.status)] ?? responses["default"]
        else { return ["\(method) \(template): status \(reply.status) is not documented"] }
        if case .string(let reference)? = response["$ref"], let resolved = resolve(reference) { response = resolved }
        guard let content = response["content"] else { return [] }
        let type = (reply.headers["content-type"] ?? "").split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces)
        } ?? ""
        guard let media = content[type] else {
            return ["\(method) \(template) \(reply.status): content type '\(type)' is not documented"]
        }
        guard type == "application/json", let schema = media["schema"] else { return [] }
        return schemaProblems(reply, schema: schema, at: "\(method) \(template) \(reply.status)")
    }

    private func schemaProblems(_ reply: HTTPReply, schema: JSONValue, at place: String) -> [String] {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(reply.body)) else {
            return ["\(place): the body is not JSON: \(reply.text.prefix(200))"]
        }
        var problems: [String] = []
        check(value, against: schema, at: "$", into: &problems)
        return problems.map { "\(place): \($0)" }
    }

    static func matches(template: String, path: String) -> Bool {
        let a = template.split(separator: "/")
        let b = path.split(separator: "/")
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
    }

    func resolve(_ reference: String) -> JSONValue? {
        var node: JSONValue? = document
        for part in reference.dropFirst(2).split(separator: "/") { node = node?[String(part)] }
        return node
    }

    func check(_ value: JSONValue, against schema: JSONValue, at path: String, into problems: inout [String]) {
        if case .string(let reference)? = schema["$ref"] {
            guard let resolved = resolve(reference) else { return problems.append("\(path): unresolved \(reference)") }
            return check(value, against: resolved, at: path, into: &problems)
        }
        if case .array(let choices)? = schema["enum"], !choices.contains(value) {
            problems.append("\(path): \(value) is not one of \(choices)")
        }
        if let type = schema["type"] {
            let types: [String]
            switch type {
            case .string(let one): types = [one]
            case .array(let several): types = several.compactMap { if case .string(let t) = $0 { t } else { nil } }
            default: types = []
            }
            if !types.contains(where: { Self.isOfType(value, $0) }) {
                return problems.append("\(path): \(value) is not of type \(types.joined(separator: "|"))")
            }
        }
        if let minimum = schema["minimum"]?.double, let number = value.double, number < minimum {
            problems.append("\(path): \(number) is below \(minimum)")
        }
        if case .object(let object) = value {
            let properties: [String: JSONValue] = if case .object(let p)? = schema["properties"] { p } else { [:] }
            if case .array(let required)? = schema["required"] {
                for case .string(let key) in required where object[key] == nil {
                    problems.append("\(path): '\(key)' is missing")
                }
            }
            for (key, item) in object.sorted(by: { $0.key < $1.key }) {
                if let property = properties[key] {
                    check(item, against: property, at: "\(path).\(key)", into: &problems)
                } else if let additional = schema["additionalProperties"] {
                    if case .bool(false) = additional {
                        problems.append("\(path): '\(key)' is not in the schema")
                    } else if case .object = additional {
                        check(item, against: additional, at: "\(path).\(key)", into: &problems)
                    }
                }
            }
        }
        if case .array(let array) = value {
            if let minimum = schema["minItems"]?.double, Double(array.count) < minimum {
                problems.append("\(path): fewer than \(Int(minimum)) items")
            }
            if let items = schema["items"] {
                for (index, item) in array.enumerated() { check(item, against: items, at: "\(path)[\(index)]", into: &problems) }
            }
        }
    }

    static func isOfType(_ value: JSONValue, _ type: String) -> Bool {
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
    subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    var double: Double? {
        switch self {
        case .integer(let number): Double(number)
        case .number(let number): number
        default: nil
        }
    }
}
