import NIOPosix

/// The engine's calls block (its lock, SQLite): they run on NIO's thread pool, never on the
/// threads that serve connections or run Swift's tasks.
enum Blocking {
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive(body)
    }
}
