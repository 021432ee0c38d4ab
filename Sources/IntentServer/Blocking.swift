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
