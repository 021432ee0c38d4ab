/// A refusal: its HTTP status, a stable code and a message a person can act on, sent as
/// `{"error": {"code": …, "message": …}}`. Nothing in it names another user or their data.
public struct APIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status code (400, 401, 404, 413, 429, …).
    public let statusCode: Int
    public let code: String
    public let message: String
    /// Seconds to wait, for 429 and 503.
    public var retryAfter: Int?
    /// The connection is closed after this response (its request's body was not read to the end).
    public var closes: Bool

    public init(_ statusCode: Int, _ code: String, _ message: String, retryAfter: Int? = nil, closes: Bool = false) {
        self.statusCode = statusCode
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
        self.closes = closes
    }

    public var description: String { "\(statusCode) \(code): \(message)" }

    public static let unauthorized = APIError(
        401, "unauthorized", "a valid bearer token is required (Authorization: Bearer …)")
    public static func badRequest(_ message: String) -> APIError { APIError(400, "bad_request", message) }
    public static func notFound(_ message: String) -> APIError { APIError(404, "not_found", message) }
    public static func tooLarge(_ limit: Int) -> APIError {
        APIError(413, "body_too_large", "the request body is over \(limit) bytes", closes: true)
    }
}
