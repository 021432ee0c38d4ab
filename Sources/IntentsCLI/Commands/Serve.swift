import ArgumentParser
import Dispatch
import Foundation
import IntentEngine
import IntentRequests
import IntentServer
import Logging

/// `intents serve`: the HTTP API (docs/serving.md). A subcommand rather than a separate program:
/// it shares `--intents` and `--store` with every other command, and `users add` writes the file it reads.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Answer over HTTP: JSON under /v1/, a bearer token per user (see 'intents users').",
        discussion: """
            Each user's data is kept in their own store, <store folder>/users/<name>/store.sqlite (with
            --store postgres://…, their own schema of that database, shared by every instance); the local
            user's store (--store) is not served. The OpenAPI document is at /v1/openapi.json, Prometheus
            metrics at /metrics, and one log line per request goes to standard error. SIGINT or SIGTERM stops it.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port, printed).")
    var port = 8080

    @Option(help: "Requests per second per user (sustained).")
    var rate: Double = Limits.default.ratePerSecond

    @Option(help: "Requests a user may send at once above the rate.")
    var burst: Double = Limits.default.burst

    @Option(help: "Requests answered at once; more wait their turn.")
    var maxConcurrent = Limits.default.maxConcurrentRequests

    @Option(help: "Users whose engine stays open (least recently used closed first).")
    var maxEngines = 32

    @Option(help: "Engines per user on PostgreSQL, each with its own connection (1 on SQLite).")
    var enginesPerUser = 2

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard rate > 0, burst >= 1 else { throw ValidationError("--rate must be above 0 and --burst at least 1") }
        guard maxConcurrent >= 1, maxEngines >= 1 else {
            throw ValidationError("--max-concurrent and --max-engines must be at least 1")
        }
        guard (1...16).contains(enginesPerUser) else {
            throw ValidationError("--engines-per-user must be from 1 to 16")
        }
    }

    func run() throws {
        // Before any task starts: the handlers run on the loops that read the requests.
        IntentServer.runTasksOnEventLoops()
        // The definitions are checked (and their compiled cache written) before the first request.
        _ = try global.loadGraph(directory: nil)
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var limits = Limits.default
        limits.ratePerSecond = rate
        limits.burst = burst
        limits.maxConcurrentRequests = maxConcurrent
        let engines = PerUserEngines(
            definitions: global.intentsDirectory, store: storeOptions.path, capacity: maxEngines,
            clock: try global.clock(),
            enginesPerUser: enginesPerUser)
        try Self.warm(engines)
        let users = UserDirectory(path: UserDirectory.path(forStore: storeOptions.path))
        let server = IntentServer(.init(host: host, port: port, limits: limits), engines: engines, users: users)
        let host = host
        try Self.block {
            try await server.application(onListening: { port in
                FileHandle.standardOutput.write(
                    Data("intents: listening on http://\(host):\(port) (users: \(users.path))\n".utf8))
            }).runService()
        }
    }

    /// Trains (or reads) the learned stage into the shared cache before the port opens, so the
    /// first sentence no phrase says does not wait seconds for it: a throwaway engine over a
    /// temporary store answers one such sentence, dry.
    static func warm(_ engines: PerUserEngines) throws {
        let folder = NSTemporaryDirectory() + "intents-serve-warm-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        do {
            let engine = try IntentEngine(
                .init(
                    definitions: engines.definitions, store: folder + "/store.sqlite",
                    cacheDirectory: engines.cacheDirectory))
            _ = engine.respond(to: "blorp flibber wibble", EngineRequest(conversation: .make(), dryRun: true))
        } catch {
            Terminal.standardError("error: \(error)\n")
            throw ExitCode(1)
        }
    }

    /// Runs `body` to its end from a synchronous command.
    static func block(_ body: @escaping @Sendable () async throws -> Void) throws {
        let done = DispatchSemaphore(value: 0)
        let failure = FailureBox()
        Task {
            do { try await body() } catch { failure.set(error) }
            done.signal()
        }
        done.wait()
        if let error = failure.error {
            Terminal.standardError("error: \(error)\n")
            throw ExitCode(1)
        }
    }

    final class FailureBox: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: (any Error)?
        var error: (any Error)? { lock.withLock { stored } }
        func set(_ error: any Error) { lock.withLock { stored = error } }
    }
}

/// `intents users add|list|remove`: who may use the server, each with a bearer token.
struct Users: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Add, list or remove the users of 'intents serve'.",
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a user and print their bearer token (shown this once; only its SHA-256 is kept).")
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The user's name: lowercase letters, digits, '-' or '_'.") var name: String

        func run() throws {
            let token = try Users.attempt { try Users.directory(storeOptions).add(name) }
            print(token)
            Terminal.standardError("added \(name); keep the token: it is not shown again\n")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the users (names and when they were added).")
        @OptionGroup var storeOptions: StoreOptions

        func run() throws {
            for entry in try Users.attempt({ try Users.directory(storeOptions).entries() }) {
                print("\(entry.name)\t\(ISO8601DateFormatter().string(from: entry.created))")
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a user's token (their store stays, under users/NAME/ beside the store).")
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The user's name.") var name: String

        func run() throws {
            try Users.attempt { try Users.directory(storeOptions).remove(name) }
            Terminal.standardError("removed \(name)\n")
        }
    }

    static func directory(_ options: StoreOptions) -> UserDirectory {
        UserDirectory(path: UserDirectory.path(forStore: options.path))
    }

    static func attempt<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as UserDirectory.Failure {
            Terminal.standardError("error: \(error.description)\n")
            if case .unreadable = error { throw ExitCode(1) }
            throw ExitCode(2)
        }
    }
}
