import Foundation
import IntentRequests

/// First come, first served: `acquire` waits for one of `width` places in arrival order.
/// The server has one for requests in flight (width = the concurrency limit) and one of width 1 per
/// conversation, so two requests of one conversation are taken in the order they came, never
/// interleaved, while other conversations go on.
final class WaitQueue: @unchecked Sendable {
    private let width: Int
    private let lock = NSLock()
    private var busy = 0
    private var waiting: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    private var nextID: UInt64 = 0

    init(width: Int) {
        self.width = max(1, width)
    }

    enum Outcome { case acquired, full, timedOut }

    /// Takes a place, waiting behind at most `maxWaiting` others (else `full` at once) for at most
    /// `timeout` (else `timedOut`); only `acquired` holds a place.
    func acquire(timeout: Duration, maxWaiting: Int = .max) async -> Outcome {
        let id: UInt64? = lock.withLock {
            if busy < width && waiting.isEmpty {
                busy += 1
                return nil
            }
            if waiting.count >= maxWaiting { return 0 }
            nextID += 1
            return nextID
        }
        guard let id else { return .acquired }
        if id == 0 { return .full }
        let got = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            lock.withLock { waiting.append((id, continuation)) }
            Task {
                try? await Task.sleep(for: timeout)
                let expired: CheckedContinuation<Bool, Never>? = self.lock.withLock {
                    guard let index = self.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                    return self.waiting.remove(at: index).continuation
                }
                expired?.resume(returning: false)
            }
        }
        return got ? .acquired : .timedOut
    }

    /// Gives the place to the first waiting, or frees it.
    func release() {
        let next: CheckedContinuation<Bool, Never>? = lock.withLock {
            if waiting.isEmpty {
                busy -= 1
                return nil
            }
            return waiting.removeFirst().continuation
        }
        next?.resume(returning: true)
    }
}

/// One `WaitQueue` of width 1 per conversation, dropped when idle.
final class ConversationQueues: @unchecked Sendable {
    private let lock = NSLock()
    private var queues: [String: (queue: WaitQueue, users: Int)] = [:]

    func run<T>(_ key: String, timeout: Duration, _ body: () async throws -> T) async throws -> T {
        let queue = lock.withLock {
            var entry = queues[key] ?? (WaitQueue(width: 1), 0)
            entry.users += 1
            queues[key] = entry
            return entry.queue
        }
        defer {
            lock.withLock {
                if var entry = queues[key] {
                    entry.users -= 1
                    queues[key] = entry.users == 0 ? nil : entry
                }
            }
        }
        guard await queue.acquire(timeout: timeout) == .acquired else {
            throw APIError(
                503, "timeout", "the conversation is busy with an earlier request; try again",
                retryAfter: 1)
        }
        defer { queue.release() }
        return try await body()
    }
}

/// A result settled once, by whichever comes first (the body read or its time up; the port bound
/// or the start failed), and handed to the one waiting for it; later outcomes are dropped.
final class FirstOutcome<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var outcome: Result<Value, any Error>?
    private var waiter: CheckedContinuation<Value, any Error>?

    func finish(_ result: Result<Value, any Error>) {
        let waiting: CheckedContinuation<Value, any Error>? = lock.withLock {
            guard outcome == nil else { return nil }
            outcome = result
            defer { waiter = nil }
            return waiter
        }
        waiting?.resume(with: result)
    }

    func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<Value, any Error>? = lock.withLock {
                if let outcome { return outcome }
                waiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
