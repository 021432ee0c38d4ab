import IntentModel
import ModelStore

extension IntentPerformer {
    /// Opens a deep link: routes it, finds the entities it names (by id, else by name), then runs the
    /// intent like a phrase would, asking for what is missing and confirming what deletes. A link
    /// that does not route, or names a record that does not exist, is an error and changes nothing.
    public func open(_ url: String, router: LinkRouter? = nil) -> Result<Answer, LinkError> {
        let router = router ?? session.linkRouter
        let match: LinkRouter.Match
        switch router.route(url) {
        case .success(let found): match = found
        case .failure(let error): return .failure(error)
        }
        guard let intent = session.graph.intent(match.intent) else {
            return .failure(LinkError(.unknownRoute, "the intent \(match.intent) is not loaded"))
        }
        let clock = session.clock.frozen()
        let values = Values(graph: session.graph, clock: clock)
        var arguments: [String: Datum] = [:]
        for (name, value) in match.values {
            guard let parameter = intent.parameter(name) else { continue }
            if case .entity(let entity) = parameter.type, case .string(let text) = value {
                switch LinkRouter.record(named: text, entity: entity, store: session.store) {
                case .success(let datum): arguments[name] = datum
                case .failure(let error): return .failure(error)
                }
            } else {
                arguments[name] = values.datum(value, as: parameter.type)
            }
        }
        return .success(perform(intent, arguments: arguments))
    }
}
