import NIOCore
import NIOPosix

/// The engine's calls block (its lock, SQLite, a PostgreSQL round trip): they run on a pool of
/// threads of the server's own, never on the threads that serve connections or run Swift's tasks.
///
/// A call on PostgreSQL spends most of its time waiting for the database, not computing, so the
/// pool is as wide as the requests answered at once by default (`Limits.maxConcurrentRequests`),
/// not as the machine's cores: NIO's shared pool (one thread per core, two here) let at most two
/// requests wait on the database at once, so no more than two users' commits could share a disk
/// flush, and a third user's dry run waited behind two commits.
enum Blocking {
    static let threads = 64
    static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        return pool
    }()

    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive(body)
    }
}

extension IntentServer {
    /// Makes the event loops that serve connections Swift's global executor too, so that a
    /// request's handler runs on the thread that read it, not on a thread of Swift's own pool that
    /// hands the reply back to the loop (two thread switches a request saved; `intents serve`
    /// calls it). Once, from the main thread, before any task has started: false when it could
    /// not. Only calls that never block may then run outside `Blocking.run` — an event loop thread
    /// must never wait (NIO stops the process when one waits for a future).
    @discardableResult
    public static func runTasksOnEventLoops() -> Bool {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
