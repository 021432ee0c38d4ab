import Foundation
import IntentModel
import TestSupport

/// Checks a response against the OpenAPI document's schema for its path, method and status, with
/// the tests' one JSON Schema validator (`JSONSchemaValidator` in TestSupport).
struct OpenAPIValidator {
    let schemas: JSONSchemaValidator
    var document: JSONValue { schemas.document }

    init(json: String) throws {
        schemas = try JSONSchemaValidator(json: json)
    }

    /// The problems with `reply` as an answer to `method path` (empty: it matches).
    func problems(method: String, path: String, reply: HTTPReply) -> [String] {
        let bare = String(path.split(separator: "?", maxSplits: 1).first ?? "")
        guard case .object(let paths)? = document["paths"] else { return ["no paths"] }
        let template = paths.keys.sorted().first { Self.matches(template: $0, path: bare) }
        guard let template, let operation = paths[template]?[method.lowercased()] else {
            // A path or method the document does not list is refused the documented way.
            return schemaProblems(
                reply, schema: .object(["$ref": .string("#/components/schemas/Error")]), at: "\(method) \(bare)")
        }
        guard let responses = operation["responses"],
            var response = responses[String(reply.status)] ?? responses["default"]
        else { return ["\(method) \(template): status \(reply.status) is not documented"] }
        if case .string(let reference)? = response["$ref"], let resolved = schemas.resolve(reference) {
            response = resolved
        }
        guard let content = response["content"] else { return [] }
        let type =
            (reply.headers["content-type"] ?? "").split(separator: ";").first.map {
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
        return schemas.problems(value, against: schema).map { "\(place): \($0)" }
    }

    static func matches(template: String, path: String) -> Bool {
        let a = template.split(separator: "/")
        let b = path.split(separator: "/")
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
    }
}
