import Foundation
import IntentEngine
import IntentModel
import IntentRequests
import IntentServer
import TestSupport
import Testing

/// A server on a free loopback port over the bundled definitions, a fresh store folder and two
/// users, `ann` and `bob`. Every response it receives is checked against the OpenAPI document.
final class ServerHarness: Sendable {
    let directory: String
    let tokens: [String: String]
    let limits: Limits
    let running: RunningServer
    let validator: OpenAPIValidator
    let checked = Counter()

    /// The main store: the folder's SQLite file, or a PostgreSQL database every user's schema is in.
    let store: String
    var port: Int { running.port }

    private init(
        directory: String, store: String, tokens: [String: String], limits: Limits, running: RunningServer
    ) throws {
        self.directory = directory
        self.store = store
        self.tokens = tokens
        self.limits = limits
        self.running = running
        self.validator = try OpenAPIValidator(json: OpenAPIDocument.json)
    }

    /// Starts a server; `directory` reuses another's folder (a restart), else a new one is made.
    /// Limits for tests: the same as the server's, but waits long enough for a machine running
    /// many tests at once (a request's turn never times out because the machine is slow).
    static let patient = Limits(requestTimeout: .seconds(300))

    static func start(
        limits: Limits = patient, directory: String? = nil, tokens: [String: String]? = nil, store: String? = nil,
        clock: Clock = Bundled.clock, idleTimeout: Duration = .seconds(60)
    ) async throws -> ServerHarness {
        let folder = directory ?? NSTemporaryDirectory() + "intents-server-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // The users file stays in the folder (instances over one PostgreSQL share the folder's).
        let users = UserDirectory(path: UserDirectory.path(forStore: folder + "/store.sqlite"))
        let store = store ?? folder + "/store.sqlite"
        var known = tokens ?? [:]
        if tokens == nil {
            for name in ["ann", "bob"] { known[name] = try users.add(name) }
        }
        let engines = PerUserEngines(
            definitions: Bundled.root + "/Intents", store: store, capacity: 4, clock: clock,
            cacheDirectory: sharedCache)
        let server = IntentServer(
            .init(host: "127.0.0.1", port: 0, limits: limits, idleTimeout: idleTimeout), engines: engines, users: users)
        let running = try await server.start()
        return try ServerHarness(directory: folder, store: store, tokens: known, limits: limits, running: running)
    }

    /// The compiled index and the learned model, built once for every test's server (training the
    /// learned stage takes seconds; every server in this run reads the same files).
    static let sharedCache: String = {
        let folder = NSTemporaryDirectory() + "intents-server-tests-cache-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let engine = try? IntentEngine(
            .init(
                definitions: Bundled.root + "/Intents", store: folder + "/warm.sqlite", clock: Bundled.clock,
                cacheDirectory: folder))
        // A sentence no phrase says: the learned stage is trained (and cached) for it.
        _ = engine?.respond(to: "blorp flibber wibble", EngineRequest(conversation: .make(), dryRun: true))
        return folder
    }()

    /// Runs `body` with a started server, and stops it (and removes its folder) after.
    static func with<T>(
        limits: Limits = patient, store: String? = nil, idleTimeout: Duration = .seconds(60),
        _ body: (ServerHarness) async throws -> T
    ) async throws -> T {
        let harness = try await start(limits: limits, store: store, idleTimeout: idleTimeout)
        do {
            let result = try await body(harness)
            await harness.stop(remove: true)
            return result
        } catch {
            await harness.stop(remove: true)
            throw error
        }
    }

    func stop(remove: Bool) async {
        await running.stop()
        if remove { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// Sends a request as `user` (nil: no token) with a JSON body, checks the reply against the document.
    func send(
        _ method: String, _ path: String, _ json: String? = nil, as user: String? = "ann",
        headers: [(String, String)] = [], chunks: Int = 1, pause: Duration = .zero, declaredLength: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> HTTPReply {
        try await send(
            method, path, bytes: json.map { Array($0.utf8) }, as: user, headers: headers, chunks: chunks, pause: pause,
            declaredLength: declaredLength, sourceLocation: sourceLocation)
    }

    func send(
        _ method: String, _ path: String, bytes: [UInt8]?, as user: String? = "ann", headers: [(String, String)] = [],
        chunks: Int = 1, pause: Duration = .zero, declaredLength: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> HTTPReply {
        var all = headers
        if let user { all.append(("Authorization", "Bearer \(tokens[user] ?? user)")) }
        if bytes != nil { all.append(("Content-Type", "application/json")) }
        let reply = try await HTTPTestClient.send(
            port: port, method: method, path: path, headers: all, body: bytes, chunks: chunks, pause: pause,
            declaredLength: declaredLength)
        for problem in validator.problems(method: method, path: path, reply: reply) {
            Issue.record("the response does not match the OpenAPI document: \(problem)", sourceLocation: sourceLocation)
        }
        checked.increment()
        return reply
    }

    /// `POST /v1/say` in `conversation` (nil: a new one).
    func say(
        _ text: String, conversation: String? = nil, as user: String = "ann", dryRun: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> HTTPReply {
        var object: [String: JSONValue] = ["text": .string(text)]
        if let conversation { object["conversation"] = .string(conversation) }
        if dryRun { object["dryRun"] = .bool(true) }
        return try await send(
            "POST", "/v1/say", JSONText.compact(.object(object)), as: user, sourceLocation: sourceLocation)
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
