import IntentModel
import ModelStore
import PhraseMatching

extension Conversation {
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
                switch lookup(text, entity: entity) {
                case .success(let datum): arguments[name] = datum
                case .failure(let error): return .failure(error)
                }
            } else {
                arguments[name] = values.datum(value, as: parameter.type)
            }
        }
        return .success(perform(intent, arguments: arguments))
    }

    /// The record `text` names: its id, else exactly its name (several by that name: the
    /// conversation asks which). None is an error: a link never guesses.
    private func lookup(_ text: String, entity: QualifiedName) -> Result<Datum, LinkError> {
        Self.lookup(text, entity: entity, store: session.store)
    }

    /// The record `text` names in `store`, as a link finds it: its id, else exactly its name; several
    /// by that name are the text itself (for the asker to choose).
    static func lookup(_ text: String, entity: QualifiedName, store: Store) -> Result<Datum, LinkError> {
        let kind = entity.name.lowercased()
        do {
            let found = try store.read { transaction -> [Record] in
                if let record = try transaction.record(entity, id: text) { return [record] }
                let folded = Normalizer.foldedWords(text)
                return try transaction.search(entity, text: text, limit: 20)
                    .filter { Normalizer.foldedWords($0.name) == folded }.map(\.record)
            }
            switch found.count {
            case 0:
                return .failure(LinkError(.noSuchEntity, "no \(kind) has the id or name “\(text)”"))
            case 1:
                return .success(.entity(found[0]))
            default:
                return .success(.string(text))
            }
        } catch {
            return .failure(LinkError(.noSuchEntity, "cannot look up the \(kind) “\(text)”: \(error)"))
        }
    }
}
