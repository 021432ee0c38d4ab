import Foundation

/// One incoming JSON-RPC message: a request (with `id`), or a notification (without).
struct IncomingMessage: Decodable {
    var jsonrpc: String?
    var id: LSPValue?
    var method: String?
    var params: LSPValue?
}

/// A JSON-RPC error object with the protocol's codes.
struct ResponseError: Codable, Error {
    var code: Int
    var message: String

    static let parseError = -32700
    static let invalidRequest = -32600
    static let methodNotFound = -32601
    static let invalidParams = -32602
    static let serverNotInitialized = -32002
    /// A request that was understood but cannot be done (a rename to a name that is taken).
    static let requestFailed = -32803
}

/// One outgoing message: a response (`id` with `result` or `error`) or a notification (`method`, `params`).
struct OutgoingMessage: Encodable {
    var id: LSPValue?
    var result: LSPValue?
    var error: ResponseError?
    var method: String?
    var params: LSPValue?

    static func response(id: LSPValue, result: LSPValue) -> Self { Self(id: id, result: result) }
    static func failure(id: LSPValue?, _ error: ResponseError) -> Self { Self(id: id ?? .null, error: error) }
    static func notification(_ method: String, _ params: LSPValue) -> Self { Self(method: method, params: params) }

    enum CodingKeys: String, CodingKey { case jsonrpc, id, result, error, method, params }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("2.0", forKey: .jsonrpc)
        if let method {
            try container.encode(method, forKey: .method)
            try container.encode(params ?? .null, forKey: .params)
            return
        }
        try container.encode(id ?? .null, forKey: .id)
        if let error {
            try container.encode(error, forKey: .error)
        } else {
            try container.encode(result ?? .null, forKey: .result)
        }
    }
}

struct LSPPosition: Codable, Hashable {
    var line: Int
    var character: Int
}

struct LSPRange: Codable, Hashable {
    var start: LSPPosition
    var end: LSPPosition
}

struct LSPLocation: Codable {
    var uri: String
    var range: LSPRange
}

struct TextDocumentIdentifier: Codable {
    var uri: String
}

struct TextDocumentPositionParams: Codable {
    var textDocument: TextDocumentIdentifier
    var position: LSPPosition
}

struct LSPDiagnostic: Codable {
    var range: LSPRange
    var severity: Int
    var source = "intents"
    var message: String
    var relatedInformation: [RelatedInformation]?

    struct RelatedInformation: Codable {
        var location: LSPLocation
        var message: String
    }
}

struct CompletionItem: Codable {
    var label: String
    var kind: Int
    var detail: String?

    static let keyword = 14, typeKind = 7, enumMember = 20, variable = 6, function = 3
    static let property = 10, constant = 21, rule = 18
}

struct TextEdit: Codable {
    var range: LSPRange
    var newText: String
}

struct CodeAction: Codable {
    var title: String
    var kind = "quickfix"
    var edit: WorkspaceEdit

    struct WorkspaceEdit: Codable {
        var changes: [String: [TextEdit]]
    }
}

struct DocumentSymbol: Codable {
    var name: String
    var detail: String?
    var kind: Int
    var range: LSPRange
    var selectionRange: LSPRange
    var children: [DocumentSymbol]?
}
