import Foundation
public import IntentEngine
public import IntentModel

/// Where the server gets the engine that answers a user. The HTTP layer knows nothing else of the
/// store: a provider over one shared database (every row keyed by its user) can take this one's place.
public protocol EngineProvider: Sendable {
    /// The engine holding `user`'s data and only theirs (opened, or created empty, on first use).
    func engine(for user: User) async throws -> IntentEngine

    /// The engine for a request of `conversation`: always the same one for one conversation
    /// (a dry run's conversation is held in its engine's memory).
    func engine(for user: User, conversation: ConversationID) async throws -> IntentEngine
}

extension EngineProvider {
    public func engine(for user: User, conversation: ConversationID) async throws -> IntentEngine {
        try await engine(for: user)
    }
}

/// One SQLite store per user, `<store folder>/users/<name>/store.sqlite`: no query, search hit,
/// link, undo, widget, suggestion or handoff of one user can reach another's rows, because they are
/// in another file. Engines are kept open for the users seen last (at most `capacity`); the
/// compiled phrase index and learned model are cached once, in the main store's folder, for all.
///
/// On PostgreSQL a user has `enginesPerUser` engines, each with its own connection, handed out in
/// turn: an engine answers one request at a time and waits for each statement's round trip, so
/// one engine per user left the user's requests queueing behind those waits. A conversation's
/// requests all go to one of them (by its id's hash): a dry run's conversation is in that engine's
/// memory. They share the
/// user's schema as two instances of the server do (a conversation's requests still take turns,
/// and writers still take the schema's lock one at a time). On SQLite a user has one engine: the
/// file's one writer at a time would make a second wait, or fail busy.
public final class PerUserEngines: EngineProvider, @unchecked Sendable {
    public let layout: StoreLayout
    public let definitions: String
    public let capacity: Int
    /// Engines per user on PostgreSQL (1 on SQLite).
    public let enginesPerUser: Int
    /// Where the compiled phrase index and learned model are cached, for every user's engine.
    public let cacheDirectory: String
    let clock: Clock
    private let lock = NSLock()
    /// Open engines, least recently used user first, with the one to hand out next.
    private var open: [(user: User, engines: [IntentEngine], next: UInt)] = []
    /// Users whose engines are being opened, with the task opening them (one open per user at a time).
    private var opening: [User: Task<[IntentEngine], any Error>] = [:]

    public init(
        definitions: String, store: String, capacity: Int = 32, clock: Clock = Clock(), cacheDirectory: String? = nil,
        enginesPerUser: Int = 2
    ) {
        self.layout = StoreLayout(store: store)
        self.cacheDirectory = cacheDirectory ?? layout.folder
        self.definitions = definitions
        self.capacity = max(1, capacity)
        self.clock = clock
        self.enginesPerUser = IntentEngine.Configuration.isPostgres(store) ? max(1, enginesPerUser) : 1
    }

    /// How many users' engines are open now.
    public var openCount: Int { lock.withLock { open.count } }

    public func engine(for user: User) async throws -> IntentEngine {
        try await engine(for: user, pick: nil)
    }

    public func engine(for user: User, conversation: ConversationID) async throws -> IntentEngine {
        // FNV-1a: the same on every run (Swift's `hashValue` is seeded per process).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in conversation.rawValue.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return try await engine(for: user, pick: Int(hash % UInt64(enginesPerUser)))
    }

    /// The user's engine number `pick`, or the next in turn.
    private func engine(for user: User, pick: Int?) async throws -> IntentEngine {
        enum Lookup {
            case open(IntentEngine)
            case opening(Task<[IntentEngine], any Error>)
        }
        let lookup: Lookup = lock.withLock {
            if let index = open.firstIndex(where: { $0.user == user }) {
                var entry = open.remove(at: index)
                // Unsigned and taken modulo the count: the turn wraps, never to a negative index.
                let turn = pick ?? Int(entry.next % UInt(entry.engines.count))
                let engine = entry.engines[turn]
                if pick == nil { entry.next = (entry.next + 1) % UInt(entry.engines.count) }
                open.append(entry)
                return .open(engine)
            }
            if let pending = opening[user] { return .opening(pending) }
            let configuration = IntentEngine.Configuration(
                definitions: definitions, store: layout.store(of: user), clock: clock, cacheDirectory: cacheDirectory)
            let count = enginesPerUser
            let task = Task { try await Blocking.run { try (0..<count).map { _ in try IntentEngine(configuration) } } }
            opening[user] = task
            return .opening(task)
        }
        let task: Task<[IntentEngine], any Error>
        switch lookup {
        case .open(let engine): return engine
        case .opening(let pending): task = pending
        }
        do {
            let engines = try await task.value
            lock.withLock {
                if opening.removeValue(forKey: user) != nil {
                    open.append((user, engines, 1))
                    if open.count > capacity { open.removeFirst(open.count - capacity) }
                }
            }
            return engines[(pick ?? 0) % engines.count]
        } catch {
            _ = lock.withLock { opening.removeValue(forKey: user) }
            throw error
        }
    }
}
