import Foundation

/// What one request may ask of the server. Each is checked where it is cheapest: the body's size
/// as its bytes arrive, the rate and the number of requests before any work.
public struct Limits: Sendable {
    /// The largest request body, in bytes (refused with 413 as soon as more arrives).
    public var maxBodyBytes: Int
    /// The longest phrase (`text`), in UTF-8 bytes.
    public var maxPhraseBytes: Int
    /// Requests per second per user (per token), sustained.
    public var ratePerSecond: Double
    /// How many requests a user may send at once above the sustained rate.
    public var burst: Double
    /// How long a request may wait for its turn (a slot, its conversation) and read its body,
    /// before 503. An intent that has started runs to its end: it is never cut halfway.
    public var requestTimeout: Duration
    /// Requests answered at once; more wait (up to `requestTimeout`).
    public var maxConcurrentRequests: Int
    /// Requests waiting for a slot; more are refused at once with 503.
    public var maxQueuedRequests: Int
    /// The request line and headers together, in bytes (431 past it; no header may be longer).
    public var maxHeaderBytes: Int
    /// Headers in one request (431 past it).
    public var maxHeaderCount: Int
    /// Connections open at once (each a file descriptor); one more is answered 503 and closed.
    public var maxConnections: Int
    /// Event streams (`GET /v1/events`) open at once, of all users (each user has at most 8).
    public var maxEventStreams: Int

    public init(
        maxBodyBytes: Int = 64 * 1024, maxPhraseBytes: Int = 2_000, ratePerSecond: Double = 50, burst: Double = 100,
        requestTimeout: Duration = .seconds(10), maxConcurrentRequests: Int = 64, maxQueuedRequests: Int = 256,
        maxHeaderBytes: Int = 16 * 1024, maxHeaderCount: Int = 100, maxConnections: Int = 512, maxEventStreams: Int = 64
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.maxPhraseBytes = maxPhraseBytes
        self.ratePerSecond = ratePerSecond
        self.burst = burst
        self.requestTimeout = requestTimeout
        self.maxConcurrentRequests = maxConcurrentRequests
        self.maxQueuedRequests = maxQueuedRequests
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxConnections = maxConnections
        self.maxEventStreams = maxEventStreams
    }

    public static let `default` = Limits()
}
