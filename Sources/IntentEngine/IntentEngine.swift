public import Foundation
public import IntentModel
public import IntentProject
package import IntentRuntime
import ModelStore
import PhraseMatching

/// The front door: loads the definitions (with their phrase index and learned stage, cached by the
/// definitions' bytes), opens the store with its search indexer, keeps the clock, and answers
/// requests in conversations kept in the store under their id. The command line, the REPL (and
/// later the server) use only this.
///
/// ```swift
/// let engine = try IntentEngine(.init(definitions: "Intents", store: ".intents/store.sqlite"))
/// let request = EngineRequest(conversation: .make())
/// print(engine.respond(to: "how compatible are leo and virgo", request).dialog)
/// ```
///
/// `Sendable`: every call takes the engine's lock, so one engine answers one request at a time
/// (the session's caches are built on first use); conversations live in the store, so several
/// engines — in one process or in several — carry the same conversations on.
public final class IntentEngine: @unchecked Sendable {
    /// Where the definitions and the store are, and how the engine behaves.
    public struct Configuration: Sendable {
        /// The definitions folder (one folder per app).
        public var definitions: String
        /// The store's file (created with its folder when missing).
        public var store: String
        /// Where "now" and the time zone come from.
        public var clock: Clock
        /// Where the compiled phrase index and the learned model are cached; nil: the store's folder.
        public var cacheDirectory: String?
        /// Shortcut files to compile against the definitions (for `run`).
        public var shortcuts: Project.Shortcuts
        /// `run:` steps may read shortcut files anywhere.
        public var runAnywhere: Bool
        /// Match sampled sentences of every phrase against the other intents while loading.
        public var sampleConflicts: Bool
        /// Save questions left open, so `continue` (in any process) can carry them on.
        public var handoff: Bool
        /// How long a conversation waits for its next request before it is forgotten.
        public var conversationLifetime: TimeInterval
        /// Open the store read-only: for dry runs, which then cannot change a byte of it (not even
        /// by checkpointing another process's write-ahead log on close). Every write fails.
        public var readOnly: Bool
        /// On PostgreSQL, let requests that reach the engine while it is busy share one
        /// transaction and one commit, each in a savepoint of its own (`CommitGroups`).
        public var groupCommits: Bool

        public init(
            definitions: String = "Intents", store: String = ".intents/store.sqlite", clock: Clock = Clock(),
            cacheDirectory: String? = nil, shortcuts: Project.Shortcuts = .none, runAnywhere: Bool = false,
            sampleConflicts: Bool = false, handoff: Bool = true, conversationLifetime: TimeInterval = 30 * 60,
            readOnly: Bool = false, groupCommits: Bool = true
        ) {
            self.definitions = definitions
            self.store = store
            self.clock = clock
            self.cacheDirectory = cacheDirectory
            self.shortcuts = shortcuts
            self.runAnywhere = runAnywhere
            self.sampleConflicts = sampleConflicts
            self.handoff = handoff
            self.conversationLifetime = conversationLifetime
            self.readOnly = readOnly
            self.groupCommits = groupCommits
        }

        /// The cache folder used: the one given, else the store's (`./.intents` for PostgreSQL).
        public var cacheFolder: String {
            if let cacheDirectory { return cacheDirectory }
            return Self.folder(ofStore: store)
        }

        /// The folder beside a store (a SQLite file's, or `./.intents` for a `postgres://` store).
        public static func folder(ofStore store: String) -> String { StoreLocation.folder(of: store) }

        /// A server user's own store beside `store`: a file under its folder's `users/`, or the
        /// user's schema of the same PostgreSQL database.
        public static func store(ofUser user: String, besides store: String) -> String {
            StoreLocation.store(of: user, besides: store)
        }

        /// Whether `store` is a PostgreSQL database (`postgres://…`) rather than a SQLite file.
        public static func isPostgres(_ store: String) -> Bool { StoreLocation.isPostgres(store) }
    }

    public let configuration: Configuration
    /// What was loaded: the graph, the compiled shortcut files, every diagnostic (warnings included).
    public let project: Project
    public let graph: IntentGraph
    /// The definitions, the store and the phrase index as the runtime uses them: for the command
    /// line's listings and the shortcut runner, not for library users.
    package let session: Session
    /// The store's clock (the configuration's).
    public var clock: Clock { session.clock }

    let lock = NSRecursiveLock()
    /// The open group of requests sharing a commit, on PostgreSQL (`CommitGroups`).
    let groups = CommitGroups()
    /// Conversations whose last request was a dry run, or that are not kept: here, never in the store;
    /// each with when it was last used. Bounded (`memoryConversationLimit`, and the conversation
    /// lifetime), so a client that makes up a new id for every dry run cannot grow the process.
    var memoryConversations: [ConversationKey: (state: ConversationState, touched: Date, use: UInt64)] = [:]
    /// Counts uses of conversations held in memory: which was used least recently (the clock may
    /// stand still, as in tests).
    var memoryUses: UInt64 = 0
    /// How many conversations are held in memory at most.
    package static let memoryConversationLimit = 1_024
    /// The last state read or written per conversation, with its bytes: a row that did not change is not decoded again.
    var decodedConversations: [ConversationKey: (bytes: Data, state: ConversationState)] = [:]

    struct ConversationKey: Hashable {
        var user: User
        var conversation: ConversationID
    }

    /// Loads the definitions and opens the store. Throws when the definitions cannot be read or have
    /// errors, or the store cannot be used.
    public init(_ configuration: Configuration) throws(EngineError) {
        self.configuration = configuration
        let project: Project
        do {
            project = try Project.load(
                intents: configuration.definitions, shortcuts: configuration.shortcuts, clock: configuration.clock,
                sampleConflicts: configuration.sampleConflicts, runAnywhere: configuration.runAnywhere,
                indexCache: configuration.cacheFolder)
        } catch {
            throw .unreadable(error.description)
        }
        guard let graph = project.graph, let index = project.index else { throw .invalid(project) }
        self.project = project
        self.graph = graph
        do {
            let store = try Self.openStore(
                path: configuration.store, graph: graph, clock: configuration.clock, readOnly: configuration.readOnly)
            session = try Session(graph: graph, store: store, index: index)
            // Built at the first search said: reading every intent's phrases for the search engine's
            // actions cost a cold `say` 35 M instructions (+37 %) when it was built here.
            var search: SearchEngine?
            session.recordSearch = { text, limit in
                let engine = search ?? SearchEngine(graph: graph)
                search = engine
                let hits = try engine.search(text, store: store, now: store.clock.now, limit: limit).hits
                return hits.compactMap { hit in
                    hit.kind == .action
                        ? nil : FoundRecord(app: hit.app, type: hit.type, title: hit.title, id: hit.record)
                }
            }
        } catch let error as StoreError {
            throw .store(error.description)
        } catch {
            throw .store("\(error)")
        }
        session.learned = LearnedStage(
            index: index, cacheDirectory: configuration.cacheFolder,
            definitionsHash: LearnedStage.definitionsHash(digest: project.definitionsDigest),
            thresholds: LearnedStage.thresholds(of: graph), training: LearnedStage.trainingSentences(of: graph))
        session.learned?.compiled = project.compiled
    }

    /// Runs `body` holding the engine's lock, after committing the open group of requests (it
    /// sees only committed data, and no group waits for it).
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        if !groups.answering { commitOpenGroup() }
        return try body()
    }

    /// Records of entities the definitions no longer declare, by entity (they are kept).
    public func orphanedRecords() throws(EngineError) -> [String: Int] {
        do { return try locked { try session.store.orphanedRecords() } } catch { throw .store("\(error)") }
    }
}
