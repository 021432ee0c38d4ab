public import IntentModel
import IntentRuntime
public import ModelStore

extension IntentEngine {
    /// Opens the store at `path` for `graph` as the engine does: with the search indexer that renders
    /// each entity's `searchable:` declaration, so every write keeps the search index current. The
    /// engine is the one place that hands the store its indexer; commands that read or fill a store
    /// without answering phrases (`store list`, `export`, `import`) open it here too.
    public static func openStore(
        path: String, graph: IntentGraph, clock: Clock, readOnly: Bool = false
    ) throws(StoreError) -> Store {
        try Store(
            path: path, graph: graph, clock: clock, readOnly: readOnly,
            indexer: SearchDocumentBuilder(graph: graph, clock: clock))
    }
}
