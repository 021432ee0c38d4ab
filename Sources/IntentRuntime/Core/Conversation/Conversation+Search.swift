import IntentModel
import PhraseMatching

/// "search for milk", "find my notes about stamps", "look up taxes in focusblox", "suche nach
/// milch": a request to search that no app's phrase reads is answered from the store's search
/// index, as `intents search` and Spotlight do — records only, at most five, with their type and
/// app; a type's noun or an app named narrows the hits to it. The search itself is the session's
/// `recordSearch`, which the search surface installs: the core does not know it.
extension Conversation {
    struct SearchRequest {
        var query: String
        /// The type's name (`Note`) when the sentence named one ("my notes about …").
        var type: String?
        var app: String?
        var language: String
    }

    /// At most so many hits are said.
    static let searchHitsSaid = 5

    /// `text` read as a request to search, or nil (also when the session cannot search).
    func searchRequest(_ text: String) -> SearchRequest? {
        guard session.recordSearch != nil else { return nil }
        let words = Normalizer.foldedWords(text).split(separator: " ")
        for (language, vocabulary) in ConversationWords.byLanguage.sorted(by: { $0.key < $1.key }) {
            for lead in vocabulary.search.leads where words.count > lead.count && words.starts(with: lead) {
                var rest = words.dropFirst(lead.count)
                var app: String?
                if let at = rest.lastIndex(where: { $0 == "in" || $0 == "im" }), at > rest.startIndex,
                    let named = appNames()[rest[(at + 1)...].joined(separator: " ")]
                {
                    app = named
                    rest = rest[..<at]
                }
                var body = rest
                while let first = body.first, Matcher.determiners.contains(String(first)) || first == "all",
                    body.count > 1
                {
                    body = body.dropFirst()
                }
                var type: String?
                for entity in session.graph.entities where app == nil || entity.name.app == app {
                    for noun in ([entity.plural, entity.noun] + entity.synonyms).map({
                        Normalizer.foldedWords($0).split(separator: " ")
                    })
                    where body.count > noun.count + 1 && body.starts(with: noun)
                        && vocabulary.search.about.contains(body[body.startIndex + noun.count])
                    {
                        type = entity.name.name
                        rest = body.dropFirst(noun.count + 1)
                    }
                    if type != nil { break }
                }
                guard !rest.isEmpty else { return nil }
                return SearchRequest(query: rest.joined(separator: " "), type: type, app: app, language: language)
            }
        }
        return nil
    }

    /// The hits for `request`, said in its language (or the one asked for); nil when the session
    /// cannot search.
    func search(_ request: SearchRequest) -> Answer? {
        guard let recordSearch = session.recordSearch else { return nil }
        let language = options.language ?? request.language
        do {
            let hits = try recordSearch(request.query, 50).filter { hit in
                (request.type == nil || hit.type == request.type) && (request.app == nil || hit.app == request.app)
            }.prefix(Self.searchHitsSaid)
            // The type named in the answer's language: its `title:` in it ("Aufgabe"), else its noun.
            let graph = session.graph
            let dialog = Phrasebook.of(language).found(
                request.query,
                hits.map { hit in
                    let entity = graph.entity(QualifiedName(app: hit.app, name: hit.type))
                    return (title: hit.title, type: entity?.noun(in: language) ?? hit.type, app: hit.app)
                })
            let found: [JSONValue] = hits.map { hit in
                var object: [String: JSONValue] = [
                    "type": .string("\(hit.app).\(hit.type)"), "title": .string(hit.title),
                ]
                if let id = hit.id { object["id"] = .string(id) }
                return .object(object)
            }
            return Answer(status: .done, app: request.app, dialog: dialog, result: .array(found))
        } catch {
            let message = Self.unreadable(error)
            return Answer(status: .error, dialog: message, failure: .store(message))
        }
    }
}
