import IntentModel
import ModelStore
import PhraseMatching

/// Slot values made into data: entities by name through the store's search and the name index,
/// other types by coercion; and the records an entity's `suggested:` query offers as choices.
struct ParameterResolver {
    /// What became of a slot value.
    enum Resolution {
        case value(Datum)
        /// More than one record answers to the name: choose, with a message saying why.
        case choose([Record], String)
        /// Not a value of the parameter's kind, or no record by that name: the message says which.
        case problem(String)
    }

    let session: Session

    /// `raw` as a value of `parameter`.
    func resolve(
        _ raw: Value, for parameter: IntentGraph.Parameter, _ evaluator: Evaluator, language: String? = nil
    ) -> Resolution {
        switch parameter.type {
        case .entity(let name):
            guard case .string(let text) = raw else { return .problem("I need a name.") }
            return lookup(text, entity: name, parameter: parameter, language: language)
        case .array(.entity(let name)):
            guard case .array(let items) = raw else {
                return resolve(.array([raw]), for: parameter, evaluator, language: language)
            }
            var records: [Datum] = []
            for item in items {
                guard case .string(let text) = item else { continue }
                switch lookup(text, entity: name, parameter: parameter, language: language) {
                case .value(let datum): records.append(datum)
                case let other: return other
                }
            }
            return .value(.list(records))
        default:
            do {
                let datum = evaluator.values.datum(raw, as: parameter.type)
                return .value(try evaluator.values.coerce(datum, to: parameter.type))
            } catch {
                return .problem("\(error.description.prefix(1).uppercased() + error.description.dropFirst()).")
            }
        }
    }

    /// An entity by name: exactly, then by the words of its name, then within a typo. Names are
    /// compared as `Normalizer.foldedWords`, the key the entity name index holds them by.
    private func lookup(
        _ text: String, entity: QualifiedName, parameter: IntentGraph.Parameter, language: String?
    ) -> Resolution {
        let words = Phrasebook.of(language)
        let type = session.graph.entity(entity)
        let folded = Normalizer.foldedWords(text)
        do {
            let found = try session.store.read { transaction -> [Record] in
                // A record named exactly so wins over those whose names merely share the words.
                let named = try transaction.exactNameMatches(entity, text: text) {
                    Normalizer.foldedWords($0) == folded
                }
                if !named.isEmpty { return named.map(\.record) }
                let hits = try transaction.search(entity, text: text, limit: 20)
                let exact = hits.filter { Normalizer.foldedWords($0.name) == folded }.map(\.record)
                if !exact.isEmpty { return exact }
                if !hits.isEmpty { return hits.map(\.record) }
                // A typo: the names within reach, then their records.
                var records: [Record] = []
                for hit in session.names.lookup(folded, entity: entity).prefix(5) {
                    let key = Normalizer.foldedWords(hit.name)
                    records += try transaction.search(entity, text: hit.name, limit: 5)
                        .filter { Normalizer.foldedWords($0.name) == key }.map(\.record)
                }
                return records
            }
            switch found.count {
            case 0: return .problem(words.notFound(type, text))
            case 1: return .value(.entity(found[0]))
            default: return .choose(Array(found.prefix(9)), words.moreThanOne(type, text))
            }
        } catch {
            return .problem("I couldn't look up “\(text)”: \(error)")
        }
    }

    /// For an entity parameter whose entity has no records at all, what to say instead of asking
    /// (there is nothing to choose; asking would repeat for ever); nil otherwise.
    func nothingToChoose(for parameter: IntentGraph.Parameter, language: String? = nil) throws -> String? {
        guard let name = (parameter.type.element ?? parameter.type).entityName else { return nil }
        let count = try session.store.read { try $0.count(RecordQuery(entity: name, limit: 1)) }
        guard count == 0 else { return nil }
        return Phrasebook.of(language).nothingToChoose(session.graph.entity(name))
    }

    /// The entity's suggested records, offered as choices when asking for one.
    func suggestions(for parameter: IntentGraph.Parameter, _ evaluator: Evaluator) throws -> [Datum] {
        guard let name = parameter.type.entityName, let entity = session.graph.entity(name) else { return [] }
        let query =
            entity.suggested
            ?? IntentGraph.Query(
                entity: name, filter: nil,
                sort: [IntentGraph.SortKey(property: IntentGraph.BuiltinProperty.updatedAt.rawValue, descending: true)],
                limit: 5)
        let records = try session.store.read { transaction in
            try session.evaluator(app: name.app, store: transaction, clock: evaluator.values.clock)
                .query(query, in: [:])
        }
        return records.prefix(9).map(Datum.entity)
    }
}
