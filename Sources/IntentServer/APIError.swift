import Foundation
public import HTTPTypes
public import Hummingbird

/// A refusal: its status, a stable code and a message a person can act on, sent as
/// `{"error": {"code": …, "message": …}}`. Nothing in it names another user or their data.
public struct APIError: HTTPResponseError, Sendable, Equatable {
    public let status: HTTPResponse.Status
    public let code: String
    public let message: String
    /// Seconds to wait, for 429 and 503.
    public var retryAfter: Int?
    /// The connection is closed after this response (its request's body was not read to the end).
    public var closes: Bool

    public init(
        _ status: HTTPResponse.Status, _ code: String, _ message: String, retryAfter: Int? = nil, closes: Bool = false
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
        self.closes = closes
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        if closes || status == .contentTooLarge { headers[.connection] = "close" }
        let body = JSONBody.encode(Body(error: .init(code: code, message: message)))
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    struct Body: Encodable {
        struct Detail: Encodable {
            var code: String
            var message: String
        }
        var error: Detail
    }
}

extension APIError {
    static let unauthorized = APIError(
        .unauthorized, "unauthorized", "a valid bearer token is required (Authorization: Bearer …)")
    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, "bad_request", message) }
    static func notFound(_ message: String) -> APIError { APIError(.notFound, "not_found", message) }
    static let tooLarge = APIError(
        .contentTooLarge, "body_too_large", "the request body is over \(Limits.default.maxBodyBytes) bytes")
    static func tooLarge(_ limit: Int) -> APIError {
        APIError(.contentTooLarge, "body_too_large", "the request body is over \(limit) bytes")
    }
}

/// JSON out: keys sorted, so the same answer is the same bytes.
enum JSONBody {
    static func encode(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        // Every value sent is a plain struct or a JSONValue, which cannot fail to encode.
        return (try? Array(encoder.encode(value))) ?? Array(#"{"error":{"code":"internal","message":"encoding"}}"#.utf8)
    }

    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: encode(value))))
    }
}
