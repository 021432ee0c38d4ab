import Foundation
public import Hummingbird
import HummingbirdCore
import IntentEngine
public import IntentRequests
public import Logging
import NIOCore
import ServiceLifecycle

/// `intents serve`: the front door over HTTP. JSON in and out under `/v1/`, a bearer token per user,
/// each user's data in their own store (through an `EngineProvider`), limits checked before work.
///
/// ```swift
/// let server = IntentServer(.init(port: 8080), engines: PerUserEngines(definitions: "Intents", store: ".intents/store.sqlite"),
///                           users: UserDirectory(path: ".intents/users.json"))
/// try await server.run()
/// ```
public struct IntentServer: Sendable {
    public struct Configuration: Sendable {
        public var host: String
        /// 0: any free port (see `onListening`).
        public var port: Int
        public var limits: Limits
        /// How long a connection may stay silent before it is closed.
        public var idleTimeout: Duration

        public init(
            host: String = "127.0.0.1", port: Int = 8080, limits: Limits = .default,
            idleTimeout: Duration = .seconds(60)
        ) {
            self.host = host
            self.port = port
            self.limits = limits
            self.idleTimeout = idleTimeout
        }
    }

    public let configuration: Configuration
    let engines: any EngineProvider
    let authenticator: Authenticator
    let metrics = ServerMetrics()
    let rate: RateLimiter
    let slots: WaitQueue
    let conversations = ConversationQueues()
    /// The console's open event streams, counted per user and in all (`GET /v1/events`).
    let streams: EventStreams
    /// The connections open now, of at most `Limits.maxConnections`.
    let connections: ConnectionCounter
    let logger: Logger

    public init(
        _ configuration: Configuration, engines: any EngineProvider, users: UserDirectory, logger: Logger? = nil
    ) {
        self.configuration = configuration
        self.engines = engines
        self.authenticator = Authenticator(directory: users)
        self.rate = RateLimiter(rate: configuration.limits.ratePerSecond, burst: configuration.limits.burst)
        self.slots = WaitQueue(width: configuration.limits.maxConcurrentRequests)
        self.streams = EventStreams(maximum: configuration.limits.maxEventStreams)
        self.connections = ConnectionCounter(maximum: configuration.limits.maxConnections)
        self.logger = logger ?? Logger(label: "intents.server")
    }

    /// The Hummingbird application: call `runService()` (signals stop it) or run it in a `ServiceGroup`.
    /// `onListening` gets the port actually bound.
    public func application(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol
    {
        let router = Router(context: ServerContext.self)
        router.add(middleware: ObserveMiddleware(server: self))
        router.add(middleware: GateMiddleware(server: self))
        addRoutes(to: router)
        let seconds = configuration.idleTimeout.components.seconds
        let limits = configuration.limits
        let decoder = HTTP1Channel.Configuration.DecoderConfiguration(
            maxHeaderFieldSize: limits.maxHeaderBytes, maxHeaderListSize: limits.maxHeaderBytes,
            maxHeaderFieldCount: limits.maxHeaderCount)
        let counter = connections
        return Application(
            router: router,
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [ConnectionGuard(counter: counter)], idleTimeout: .seconds(seconds),
                    httpDecoderConfiguration: decoder)),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "intents"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
    }

    /// Serves until SIGINT or SIGTERM.
    public func run() async throws {
        try await application(onListening: { [logger] port in
            logger.info("listening", metadata: ["host": "\(configuration.host)", "port": "\(port)"])
        }).runService()
    }
}

/// What the server knows about a request as it goes through: its user, once the token was checked.
public struct ServerContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var user: User? {
        get { note.user }
        nonmutating set { note.user = newValue }
    }
    /// Shared by every copy of the context, so the outermost middleware logs the user the gate found.
    let note = RequestNote()

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    /// Bodies are read with the server's own limit (`Limits.maxBodyBytes`), never more.
    public var maxUploadSize: Int { Limits.default.maxBodyBytes }
}

/// A server started in this process (tests, benchmarks): its port, and how to stop it.
public final class RunningServer: Sendable {
    public let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    init(port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        self.group = group
        self.task = task
    }

    /// Stops accepting connections, lets the requests in flight finish, and waits until it is down.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}

extension IntentServer {
    /// Starts serving in the background; returns once the port is bound (or throws why not).
    public func start() async throws -> RunningServer {
        let started = FirstOutcome<Int>()
        let application = self.application(onListening: { port in started.finish(.success(port)) })
        let group = ServiceGroup(configuration: .init(services: [application], logger: logger))
        let task = Task {
            do {
                try await group.run()
            } catch {
                started.finish(.failure(error))
                throw error
            }
            started.finish(.failure(CancellationError()))
        }
        let port = try await started.value()
        return RunningServer(port: port, group: group, task: task)
    }
}

/// What one request learned on its way in (its user), readable by the middleware around it.
final class RequestNote: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: User?
    private var read = false

    /// The note of the request this task is answering (set by the outermost middleware).
    @TaskLocal static var current: RequestNote?

    /// Whether the request's body was read to its end (else a refusal closes the connection,
    /// rather than reading the rest of it).
    var bodyRead: Bool {
        get { lock.withLock { read } }
        set { lock.withLock { read = newValue } }
    }

    var user: User? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
