import Foundation

/// A token bucket per user: `burst` requests at once, refilled at `rate` per second. Time comes from
/// the caller, so tests need no clock.
final class RateLimiter: @unchecked Sendable {
    private let rate: Double
    private let burst: Double
    private let lock = NSLock()
    private var buckets: [String: (tokens: Double, at: ContinuousClock.Instant)] = [:]

    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = max(1, burst)
    }

    /// nil when the request may go on, else the whole seconds to wait.
    func take(_ key: String, now: ContinuousClock.Instant = .now) -> Int? {
        lock.withLock {
            var bucket = buckets[key] ?? (burst, now)
            let elapsed = now - bucket.at
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(burst, bucket.tokens + seconds * rate)
            bucket.at = now
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                buckets[key] = bucket
                return nil
            }
            buckets[key] = bucket
            return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up)))
        }
    }
}
