import Foundation
import IntentModel
import IntentServer
import TestSupport
import Testing

/// `POST /v1/say` answers with the object `say --json` puts in its envelope's `result`, plus the
/// conversation's id: the two schemas say so, property for property (docs/json.md).
@Suite("The server's answer is the command line's")
struct AnswerSchemaTests {
    @Test("docs/json.schema.json's answer is the OpenAPI Answer without conversation")
    func theAnswerSchemasAgree() throws {
        let openAPI = try OpenAPIValidator(json: OpenAPIDocument.json).document
        let cli = try JSONDecoder().decode(
            JSONValue.self, from: Data(contentsOf: URL(fileURLWithPath: Bundled.root + "/docs/json.schema.json")))
        guard case .object(var server)? = openAPI["components"]?["schemas"]?["Answer"]?["properties"],
            case .object(let command)? = cli["$defs"]?["answer"]?["properties"],
            case .array(var serverRequired)? = openAPI["components"]?["schemas"]?["Answer"]?["required"],
            case .array(let commandRequired)? = cli["$defs"]?["answer"]?["required"]
        else {
            Issue.record("an answer schema is missing")
            return
        }
        #expect(server.removeValue(forKey: "conversation") != nil)
        serverRequired.removeAll { $0 == "conversation" }
        #expect(Set(server.keys) == Set(command.keys))
        for (key, schema) in server {
            #expect(schema == command[key], "\(key)")
        }
        #expect(serverRequired == commandRequired)
    }
}
