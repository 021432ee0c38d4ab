import Foundation
public import IntentModel
public import ModelStore

/// Which Siri tips to show, once per placement: a tip shown or dismissed is remembered in the store
/// (`_tips`), and `:tips off` turns them all off.
public struct TipBoard: Sendable {
    let graph: IntentGraph

    public init(graph: IntentGraph) {
        self.graph = graph
    }

    /// Every tip with its state: shown when, dismissed.
    public struct Entry: Sendable {
        public let tip: IntentGraph.Tip
        public let shown: Date?
        public let dismissed: Bool
    }

    public func entries(store: Store) throws -> (entries: [Entry], off: Bool) {
        try store.read { transaction in
            let states = try transaction.tipStates()
            let entries = graph.apps.flatMap(\.tips).map { tip in
                Entry(tip: tip, shown: states[tip.key]?.shown, dismissed: states[tip.key]?.dismissed ?? false)
            }
            return (entries, try transaction.tipsOff())
        }
    }

    /// The next tip for `placement` (of `intent` or `app` when given) in `language`, not yet shown
    /// there and whose `when` holds; marked shown in the store. Nil when tips are off.
    public func take(
        _ placement: IntentGraph.TipPlacement, intent: QualifiedName? = nil, app: String? = nil, language: String?,
        store: Store
    ) throws -> IntentGraph.Tip? {
        let clock = store.clock
        return try store.write { transaction -> IntentGraph.Tip? in
            guard try !transaction.tipsOff() else { return nil }
            let states = try transaction.tipStates()
            for candidate in graph.apps.flatMap(\.tips) where candidate.placement == placement {
                if let intent, candidate.intent != intent { continue }
                if let app, candidate.app != app { continue }
                let wanted = language ?? graph.app(named: candidate.app)?.language ?? "en"
                guard
                    candidate.language == wanted
                        || (candidate.language == graph.app(named: candidate.app)?.language
                            && !graph.apps.flatMap(\.tips).contains {
                                $0.key == candidate.key && $0.language == wanted
                            })
                else { continue }
                // Once per placement: per tip key, whatever the language.
                if let state = states[candidate.key], state.shown != nil || state.dismissed { continue }
                if let condition = candidate.condition {
                    let evaluator = Evaluator(graph: graph, clock: clock, app: candidate.app, store: transaction)
                    guard (try? evaluator.evaluate(condition, in: [:]))?.truthy == true else { continue }
                }
                try transaction.markTipShown(candidate.key, at: clock.now)
                return candidate
            }
            return nil
        }
    }
}
