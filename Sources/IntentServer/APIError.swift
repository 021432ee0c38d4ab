import Foundation
public import HTTPTypes
public import Hummingbird
public import IntentRequests

/// A refusal as Hummingbird sends it: the JSON error object, with Retry-After, WWW-Authenticate
/// or Connection: close where they apply.
extension APIError: HTTPResponseError {
    public var status: HTTPResponse.Status { HTTPResponse.Status(code: statusCode) }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        if statusCode == 401 { headers[.wwwAuthenticate] = "Bearer" }
        if closes { headers[.connection] = "close" }
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
