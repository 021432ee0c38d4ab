import IntentModel
import ModelStore
import PhraseMatching

extension LinkRouter {
    /// The record `text` names in `store`, as a link finds it: its id, else exactly its name; several
    /// by that name are the text itself (for the asker to choose). None is an error: a link never guesses.
    static func record(named text: String, entity: QualifiedName, store: Store) -> Result<Datum, LinkError> {
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
