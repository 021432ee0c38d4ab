import IntentModel
import ModelStore
import PhraseMatching

/// Words that point back instead of naming a record: "complete it" after "add water the plants",
/// "delete that task", "what's new on the radar". Such a value is the record of the slot's type
/// that the last request made or ran with, within `ConversationState.followUpWindow`; with none,
/// the slot counts as unsaid and its question is asked plainly — not "I couldn't find a task
/// called “it”". A record really named so ("the task") is still found by its name.
extension Conversation {
    /// What a slot's words point back to.
    enum Reference {
        /// The record of the last request.
        case record(Datum)
        /// Nothing to point to: ask for the value.
        case unsaid
    }

    /// Pronouns and their companions that point back at a record, folded, in every language.
    static let referenceWords: Set<String> = [
        "it", "that", "this", "one", "same", "them", "those", "these",
        "es", "das", "dies", "diese", "dieser", "dieses", "diesen", "ihn", "sie", "selbe", "gleiche",
    ]

    /// `raw` for an entity parameter read as a reference, or nil when it names a record (or could).
    func reference(_ raw: Value, for parameter: IntentGraph.Parameter, clock: Clock) -> Reference? {
        guard case .entity(let name) = parameter.type, case .string(let text) = raw else { return nil }
        let folded = Normalizer.foldedWords(text)
        let words = folded.split(separator: " ").map(String.init)
        let rest = words.filter { !Self.referenceWords.contains($0) && !Matcher.determiners.contains($0) }
        if !rest.isEmpty {
            // Only the type's own noun may remain ("the task", "that radar", "radar").
            guard let entity = session.graph.entity(name) else { return nil }
            let noun = rest.joined(separator: " ")
            guard noun == Normalizer.foldedWords(entity.noun) || noun == Normalizer.foldedWords(entity.plural) else {
                return nil
            }
        }
        // A store that cannot be read is no reference: the lookup that follows says what failed.
        let named =
            (try? session.store.read { transaction in
                try transaction.exactNameMatches(name, text: text) { Normalizer.foldedWords($0) == folded }
            }) ?? []
        guard named.isEmpty else { return nil }
        return referent(of: name, clock: clock).map(Reference.record) ?? .unsaid
    }

    /// The record of type `entity` the last request made, else the first it ran with (by parameter
    /// name), while a follow-up may still refer to it.
    private func referent(of entity: QualifiedName, clock: Clock) -> Datum? {
        guard let last, clock.now >= last.at, clock.now.timeIntervalSince(last.at) <= ConversationState.followUpWindow
        else { return nil }
        let saved = (last.result.map { [$0] } ?? []) + last.values.sorted { $0.key < $1.key }.map(\.value)
        for json in saved {
            guard let datum = try? decode(datum: json) else { continue }
            switch datum {
            case .entity(let record) where record.entity == entity:
                return datum
            case .list(let items) where items.count == 1:
                if case .entity(let record) = items[0], record.entity == entity { return items[0] }
            default:
                continue
            }
        }
        return nil
    }
}
