import Foundation
public import IntentEngine
public import IntentModel

/// Where the server gets the engine that answers a user. The HTTP layer knows nothing else of the
/// store: a provider over one shared database (every row keyed by its user) can take this one's place.
public protocol EngineProvider: Sendable {
    /// The engine holding `user`'s data and only theirs (opened, or created empty, on first use).
    func engine(for user: User) async throws -> IntentEngine
}

/// One SQLite store per user, `<store folder>/users/<name>/store.sqlite`: no query, search hit,
/// link, undo, widget, suggestion or handoff of one user can reach another's rows, because they are
/// in another file. Engines are kept open for the users seen last (at most `capacity`); the
/// compiled phrase index and learned model are cached once, in the main store's folder, for all.
public final class PerUserEngines: EngineProvider, @unchecked Sendable {
    public let layout: StoreLayout
    public let definitions: String
    public let capacity: Int
    /// Where the compiled phrase index and learned model are cached, for every user's engine.
    public let cacheDirectory: String
    let clock: Clock
    private let lock = NSLock()
    /// Open engines, least recently used first.
    private var open: [(user: User, engine: IntentEngine)] = []
    /// Users whose engine is being opened, with the task opening it (one open per user at a time).
    private var opening: [User: Task<IntentEngine, any Error>] = [:]

    public init(
        definitions: String, store: String, capacity: Int = 32, clock: Clock = Clock(), cacheDirectory: String? = nil
    ) {
        self.layout = StoreLayout(store: store)
        self.cacheDirectory = cacheDirectory ?? layout.folder
        self.definitions = definitions
        self.capacity = max(1, capacity)
        self.clock = clock
    }

    /// How many engines are open now.
    public var openCount: Int { lock.withLock { open.count } }

    public func engine(for user: User) async throws -> IntentEngine {
        enum Lookup {
            case open(IntentEngine)
            case opening(Task<IntentEngine, any Error>)
        }
        let lookup: Lookup = lock.withLock {
            if let index = open.firstIndex(where: { $0.user == user }) {
                let entry = open.remove(at: index)
                open.append(entry)
                return .open(entry.engine)
            }
            if let pending = opening[user] { return .opening(pending) }
            let configuration = IntentEngine.Configuration(
                definitions: definitions, store: layout.store(of: user), clock: clock, cacheDirectory: cacheDirectory)
            let task = Task { try await Blocking.run { try IntentEngine(configuration) } }
            opening[user] = task
            return .opening(task)
        }
        let task: Task<IntentEngine, any Error>
        switch lookup {
        case .open(let engine): return engine
        case .opening(let pending): task = pending
        }
        do {
            let engine = try await task.value
            lock.withLock {
                if opening.removeValue(forKey: user) != nil {
                    open.append((user, engine))
                    if open.count > capacity { open.removeFirst(open.count - capacity) }
                }
            }
            return engine
        } catch {
            _ = lock.withLock { opening.removeValue(forKey: user) }
            throw error
        }
    }
}
