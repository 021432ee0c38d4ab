import Foundation
import HTTPTypes
import Hummingbird
import IntentEngine
import IntentRequests
import Logging

/// The outermost step: a request id on the response, one log line per request (never the token),
/// the metrics, and every error turned into the JSON refusal it stands for.
struct ObserveMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let server: IntentServer

    func handle(
        _ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        var response: Response
        do {
            response = try await RequestNote.$current.withValue(context.note) { try await next(request, context) }
        } catch let error as APIError {
            response = try error.response(from: request, context: context)
        } catch let error as HTTPError {
            let code =
                error.status == .notFound
                ? "not_found" : error.status == .methodNotAllowed ? "method_not_allowed" : "http"
            let message =
                error.status == .notFound
                ? "no such path: \(request.method) \(request.uri.path)"
                : (error.body ?? error.status.reasonPhrase)
            response = try APIError(error.status.code, code, message).response(from: request, context: context)
        } catch is CancellationError {
            response = try APIError(503, "cancelled", "the request was cancelled")
                .response(from: request, context: context)
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(error)"])
            response = try APIError(500, "internal", "the server could not answer; see its log")
                .response(from: request, context: context)
        }
        response.headers[.init("X-Request-ID")!] = context.id
        // A refusal before the body was read: the connection is closed, the rest is never read.
        if response.status.code >= 400, Self.hasBody(request), !context.note.bodyRead {
            response.headers[.connection] = "close"
        }
        let duration = ContinuousClock.now - start
        let route = Self.route(request.uri.path)
        server.metrics.request(
            route: route, method: request.method.rawValue, status: response.status.code, duration: duration)
        var metadata: Logger.Metadata = [
            "method": "\(request.method)", "path": "\(route)", "status": "\(response.status.code)",
            "ms": "\((duration / .microseconds(1)).rounded() / 1_000)",
        ]
        if let user = context.user { metadata["user"] = "\(user.id)" }
        context.logger.info("request", metadata: metadata)
        return response
    }

    /// Whether the request announced a body (a length above 0, or chunks).
    static func hasBody(_ request: Request) -> Bool {
        if request.headers[.transferEncoding] != nil { return true }
        return (request.headers[.contentLength].flatMap { Int($0) } ?? 0) > 0
    }

    /// The route a path belongs to, for metrics and logs (a control's name is not a label).
    static func route(_ path: String) -> String {
        if path.hasPrefix("/v1/controls/") { return "/v1/controls/{name}" }
        return IntentServer.knownPaths.contains(path) ? path : "other"
    }
}

/// Who may go on, and when: the token (401), the user's rate (429), a free slot (503 when none
/// comes in time). Health, metrics and the OpenAPI document need no token.
struct GateMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let server: IntentServer

    func handle(
        _ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response
    ) async throws -> Response {
        let limits = server.configuration.limits
        // What can be refused from the head alone is refused before the token is looked at.
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limits.maxBodyBytes {
            throw APIError.tooLarge(limits.maxBodyBytes)
        }
        if request.method == .get || request.method == .head, ObserveMiddleware.hasBody(request) {
            throw APIError(400, "bad_request", "a \(request.method) request carries no body", closes: true)
        }
        if IntentServer.openPaths.contains(request.uri.path) { return try await next(request, context) }
        guard let user = server.authenticator.user(authorization: request.headers[.authorization]) else {
            throw APIError.unauthorized
        }
        context.user = user
        if let wait = server.rate.take(user.id) {
            throw APIError(
                429, "rate_limited",
                "more than \(Self.number(server.configuration.limits.ratePerSecond)) requests per second; wait \(wait) s",
                retryAfter: wait)
        }
        switch await server.slots.acquire(timeout: limits.requestTimeout, maxWaiting: limits.maxQueuedRequests) {
        case .acquired: break
        case .full: throw APIError(503, "busy", "the server is busy; try again", retryAfter: 1)
        case .timedOut:
            throw APIError(503, "timeout", "no free slot to answer in time; try again", retryAfter: 1)
        }
        defer { server.slots.release() }
        return try await next(request, context)
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

extension IntentServer {
    /// The console's page, script and style carry no data: the page asks for the token itself.
    static let openPaths: Set<String> = [
        "/healthz", "/metrics", "/v1/openapi.json", "/", ConsolePage.scriptPath, ConsolePage.stylePath,
    ]
    static let knownPaths: Set<String> = openPaths.union([
        "/v1/say", "/v1/open", "/v1/share", "/v1/search", "/v1/suggest", "/v1/widgets", "/v1/controls",
        "/v1/activities", "/v1/undo", "/v1/continuations", "/v1/continue", "/v1/events", "/v1/widgets/press", "/v1/tip",
    ])
}
