import IntentModel
import ModelStore

extension Conversation {
    /// Runs the offer's intent once per item, in one transaction: every item lands, or, when one
    /// fails, none does. A question (a missing value, a confirmation) stops the run at that item;
    /// answer it with `respond(to:)` as after a phrase.
    public func share(_ items: [ShareItem], with offer: ShareRouter.Offer) -> [Answer] {
        struct RolledBack: Error {}
        var answers: [Answer] = []
        do {
            try session.store.atomically {
                for item in items {
                    let answer: Answer
                    do throws(RuntimeError) {
                        answer = perform(offer.intent, arguments: try arguments(for: item, offer))
                    } catch {
                        answer = Answer(
                            status: .error, app: offer.app, intent: offer.intent.name, dialog: error.description,
                            failure: .failed(error.description))
                    }
                    answers.append(answer)
                    if answer.status == .error { throw RolledBack() }
                    if answer.isQuestion { break }
                }
            }
        } catch {
            // Rolled back: the names of records made before the failure are gone again.
            var namesUnread: (any Error)?
            do { try session.reloadNames() } catch { namesUnread = error }
            var failed =
                answers.last
                ?? Answer(status: .error, app: offer.app, intent: offer.intent.name, dialog: "\(error)")
            let storeFailed = !(error is RolledBack)
            if storeFailed {
                failed.dialog = "\(error)"
                failed.status = .error
            }
            if items.count > 1 { failed.dialog += " Nothing was shared." }
            let message = failed.failure?.message ?? failed.dialog
            failed.failure = storeFailed ? .store(message) : failed.failure ?? .failed(message)
            if let namesUnread, !failed.storeFailure {
                failed.failure = .store(message + " (the names could not be read again: \(namesUnread))")
            }
            return [failed]
        }
        return answers
    }

    /// The intent's arguments for one item: `with:` values, and parameters named like a share variable.
    private func arguments(for item: ShareItem, _ offer: ShareRouter.Offer) throws(RuntimeError) -> [String: Datum] {
        let evaluator = session.evaluator(app: offer.app, store: nil, clock: session.clock.frozen())
        let scope = Self.scope(of: item)
        var arguments: [String: Datum] = [:]
        for parameter in offer.intent.parameters {
            if let value = scope[parameter.name], !value.isNull { arguments[parameter.name] = value }
        }
        for assignment in offer.route.arguments {
            arguments[assignment.name] = try evaluator.value(of: assignment.value, in: scope)
        }
        return arguments
    }

    /// The names a share route's `with:` reads (`IntentGraph.ShareRoute.variables`), for one item.
    static func scope(of item: ShareItem) -> Evaluator.Scope {
        [
            "url": item.url.map(Datum.url) ?? .null,
            "text": .string(item.text),
            "title": .string(item.title),
            "path": item.path.map(Datum.string) ?? .null,
            "name": item.name.map(Datum.string) ?? .null,
            "type": item.type.map(Datum.string) ?? .null,
            "size": item.size.map(Datum.integer) ?? .null,
            "kind": .string(item.kind.rawValue),
        ]
    }
}
