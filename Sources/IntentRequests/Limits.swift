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

    public init(
        maxBodyBytes: Int = 64 * 1024, maxPhraseBytes: Int = 2_000, ratePerSecond: Double = 50, burst: Double = 100,
        requestTimeout: Duration = .seconds(10), maxConcurrentRequests: Int = 64, maxQueuedRequests: Int = 256
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.maxPhraseBytes = maxPhraseBytes
        self.ratePerSecond = ratePerSecond
        self.burst = burst
        self.requestTimeout = requestTimeout
        self.maxConcurrentRequests = maxConcurrentRequests
        self.maxQueuedRequests = maxQueuedRequests
    }

    public static let `default` = Limits()
}
