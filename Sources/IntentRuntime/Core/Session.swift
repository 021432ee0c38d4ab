import Foundation
public import IntentModel
public import ModelStore
public import PhraseMatching

/// The loaded definitions, their phrase index and the store: what conversations share.
public final class Session {
    public let graph: IntentGraph
    public let index: PhraseIndex
    public let store: Store
    /// The store's entity names, for matching: read from the store's on-disk name index as a
    /// phrase needs them (kept current by the writes themselves); held in memory only for a store
    /// opened read-only before any process built that index.
    public private(set) var names: any EntityNameLookup = EntityNameIndex()
    /// The second, learned stage, asked when the exact matcher finds nothing (trained on first use;
    /// the command line gives it a cache beside the store).
    public var learned: LearnedStage?
    /// Finds records in the store's search index, best first ("search for milk" said to a
    /// conversation); the search surface installs it (`IntentEngine` does). Nil: a conversation
    /// cannot search, and such a sentence is answered as any other.
    public var recordSearch: ((_ text: String, _ limit: Int) throws -> [FoundRecord])?
    /// What the surfaces build from the graph once per session (the link router), by type.
    private var built: [ObjectIdentifier: Any] = [:]
    /// Where "now" and the time zone come from: the store's clock, so stamps and dialogs agree.
    public var clock: Clock { store.clock }

    public init(graph: IntentGraph, store: Store, index: PhraseIndex? = nil) throws {
        self.graph = graph
        self.index = index ?? PhraseIndex(graph: graph)
        self.store = store
        self.learned = LearnedStage(
            index: self.index, thresholds: LearnedStage.thresholds(of: graph),
            training: LearnedStage.trainingSentences(of: graph))
        try reloadNames()
    }

    /// Reads the entity names from the store again (after a rolled-back `--atomic` run).
    public func reloadNames() throws {
        if store.hasNameIndex {
            names = StoredEntityNames(store: store)
            return
        }
        var loaded = EntityNameIndex()
        let stored = try store.read { try $0.names() }
        for (entity, group) in Dictionary(grouping: stored, by: \.entity) {
            loaded.add(group.map(\.name), for: entity)
        }
        names = loaded
    }

    /// The `T` built from the graph by `make` on first use, and kept: the surfaces' per-session
    /// caches, without the session knowing them.
    func once<T>(_ make: (IntentGraph) -> T) -> T {
        if let value = built[ObjectIdentifier(T.self)] as? T { return value }
        let value = make(graph)
        built[ObjectIdentifier(T.self)] = value
        return value
    }

    public func matcher(clock: Clock) -> Matcher {
        Matcher(index: index, entities: names, clock: clock)
    }

    func evaluator(app: String?, store transaction: StoreTransaction?, clock: Clock) -> Evaluator {
        Evaluator(graph: graph, clock: clock, app: app, store: transaction)
    }

    /// Keeps the name index in step with what a transaction changed.
    func noteChanges(_ changes: [(entity: QualifiedName, id: String, before: Record?, after: Record?)]) {
        guard var names = names as? EntityNameIndex else { return }
        defer { self.names = names }
        for change in changes {
            guard let entity = graph.entity(change.entity), !entity.matchBy.isEmpty else { continue }
            names.remove(Self.names(of: change.before, entity), for: change.entity)
            names.add(Self.names(of: change.after, entity), for: change.entity)
        }
    }

    private static func names(of record: Record?, _ entity: IntentGraph.Entity) -> [String] {
        entity.matchBy.compactMap { property in
            if case .string(let name)? = record?[property] { return name }
            return nil
        }
    }

    /// Reverts the last executed intent that changed something.
    /// `language`: the answer's language (`de`, else English).
    public func undo(language: String? = nil) throws -> String {
        let (undone, changes) = try store.write { transaction in
            (try transaction.undoLast(), transaction.changes)
        }
        noteChanges(changes)
        let words = Phrasebook.of(language)
        guard let undone else { return words.nothingToUndo }
        let title = graph.intents(named: undone.intent).first?.title ?? undone.intent
        return words.undid(title, undone.dialog, undone.changes)
    }
}

/// A record a search found, as a conversation names it.
public struct FoundRecord: Sendable, Hashable {
    public var app: String
    /// The entity's name without its app (`Task`).
    public var type: String
    public var title: String
    public var id: String?

    public init(app: String, type: String, title: String, id: String?) {
        self.app = app
        self.type = type
        self.title = title
        self.id = id
    }
}
