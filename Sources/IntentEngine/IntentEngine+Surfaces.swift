public import Foundation
public import IntentModel
public import IntentRuntime

/// The system around the intents, read from the store: search, suggestions, widgets, controls,
/// live activities. Each call names its user (today every user sees the one store).
extension IntentEngine {
    /// Entities and actions matching `text`, best first.
    public func search(_ text: String, user: User = .local, limit: Int = 10) throws(EngineError) -> SearchResult {
        try surface { try SearchEngine(graph: graph).search(text, store: session.store, now: clock.now, limit: limit) }
    }

    /// Rebuilds the search index from the store's records; how many items it holds.
    public func reindexSearch(user: User = .local) throws(EngineError) -> Int {
        try surface { try session.store.write { try $0.reindexSearch() } }
    }

    /// What the user may want to do at `moment` (default: now), from their donations.
    public func suggestions(user: User = .local, at moment: Date? = nil, limit: Int = 3) throws(EngineError)
        -> [Suggestion]
    {
        try surface {
            try SuggestionModel(graph: graph).suggest(store: session.store, now: moment ?? clock.now, limit: limit)
        }
    }

    /// The Smart Stack: every widget (of `family`, when given) at `moment`, most relevant first.
    public func widgets(
        user: User = .local, family: IntentGraph.WidgetFamily? = nil, at moment: Date? = nil
    ) throws(EngineError) -> [WidgetSnapshot] {
        try surface { try WidgetCenter(graph: graph, store: session.store).stack(family: family, at: moment) }
    }

    /// One widget at `moment`.
    public func widget(_ widget: IntentGraph.Widget, user: User = .local, at moment: Date? = nil) throws(EngineError)
        -> WidgetSnapshot
    {
        try surface { try WidgetCenter(graph: graph, store: session.store).snapshot(widget, at: moment) }
    }

    /// Presses button `number` of `widget`; nil when it has no such button.
    public func press(_ number: Int, on widget: IntentGraph.Widget, _ request: EngineRequest) throws(EngineError)
        -> Answer?
    {
        try surface {
            try WidgetCenter(graph: graph, store: session.store).press(
                number, on: widget, session: session, options: options(request))
        }
    }

    /// Every control with its state (on, off, or nil for a button).
    public func controls(user: User = .local) throws(EngineError) -> [ControlCenter.State] {
        try surface { try ControlCenter(session: session).states() }
    }

    /// Turns a control on or off, toggles or presses it.
    public func control(
        _ control: IntentGraph.Control, _ action: ControlCenter.Request, _ request: EngineRequest
    ) throws -> Answer {
        try locked { try ControlCenter(session: session).perform(action, on: control, options: options(request)) }
    }

    /// The live activities at `moment` (default: now).
    public func activities(user: User = .local, at moment: Date? = nil, dismissed: Bool = false) throws(EngineError)
        -> [LiveActivitySnapshot]
    {
        try surface {
            try LiveActivityCenter(graph: graph, store: session.store).current(at: moment, dismissed: dismissed)
        }
    }

    /// Runs `body` under the lock; any error is the store's.
    private func surface<T>(_ body: () throws -> T) throws(EngineError) -> T {
        do {
            return try locked(body)
        } catch let error as EngineError {
            throw error
        } catch {
            throw .store("\(error)")
        }
    }
}
