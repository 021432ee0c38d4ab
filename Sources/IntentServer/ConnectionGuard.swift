import Foundation
import HTTPTypes
import IntentRequests
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Limits of a connection, below the routes, in each connection's pipeline:
/// - at most `Limits.maxConnections` open at once (each holds a file descriptor): one more is
///   answered 503 with `Retry-After` and closed at once, unread;
/// - a request head over `Limits.maxHeaderBytes` (request line and headers) or
///   `Limits.maxHeaderCount` headers is answered 431 and the connection closed;
/// - a response sent with `Connection: close` (a refusal whose body was not read to its end: 413,
///   408) closes the connection once written, so the rest of that body is never read.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let counter: ConnectionCounter
    private var counted = false
    private var refusing = false
    private var closeAfterResponse = false

    init(counter: ConnectionCounter) {
        self.counter = counter
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    /// Counts the connection, or refuses it when as many are open as may be.
    private func start(_ context: ChannelHandlerContext) {
        guard !counted, !refusing else { return }
        guard counter.open() else {
            refusing = true
            refuse(
                context, status: .serviceUnavailable,
                APIError(503, "busy", "the server has as many connections open as it takes; try again", retryAfter: 1))
            return
        }
        counted = true
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release()
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    private func release() {
        if counted {
            counted = false
            counter.close()
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A refused connection reads nothing.
        if refusing { return }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if case .headerOverflow? = error as? HTTPParserError, !refusing {
            refusing = true
            refuse(
                context, status: .requestHeaderFieldsTooLarge,
                APIError(431, "headers_too_large", "the request line and headers are over the server's limit"))
            return
        }
        context.fireErrorCaught(error)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            if head.headerFields[.connection]?.lowercased() == "close" { closeAfterResponse = true }
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            guard closeAfterResponse else {
                context.write(data, promise: promise)
                return
            }
            context.writeAndFlush(data, promise: promise)
            hangUp(context)
        }
    }

    /// Ends the connection once what was written has gone: the sending side at once (the client
    /// reads the response, then the end), the rest a second later. What arrives in between is
    /// dropped unread; closing at once could reset the connection and lose the response.
    private func hangUp(_ context: ChannelHandlerContext) {
        refusing = true
        context.close(mode: .output, promise: nil)
        context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(1)) { context.close(promise: nil) }
    }

    /// Writes the refusal as a whole response and closes the connection.
    private func refuse(_ context: ChannelHandlerContext, status: HTTPResponse.Status, _ error: APIError) {
        let body = JSONBody.encode(APIError.Body(error: .init(code: error.code, message: error.message)))
        var fields: HTTPFields = [
            .contentType: "application/json; charset=utf-8", .contentLength: String(body.count), .connection: "close",
        ]
        if let retryAfter = error.retryAfter { fields[.retryAfter] = String(retryAfter) }
        let head = HTTPResponse(status: status, headerFields: fields)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        hangUp(context)
    }
}

/// How many connections are open, of at most `maximum`.
final class ConnectionCounter: @unchecked Sendable {
    let maximum: Int
    private let lock = NSLock()
    private var count = 0

    init(maximum: Int) {
        self.maximum = maximum
    }

    func open() -> Bool {
        lock.withLock {
            guard count < maximum else { return false }
            count += 1
            return true
        }
    }

    func close() { lock.withLock { count -= 1 } }

    var openNow: Int { lock.withLock { count } }
}
