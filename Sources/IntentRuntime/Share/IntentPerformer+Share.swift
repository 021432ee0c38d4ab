import IntentModel
import ModelStore

extension IntentPerformer {
    /// Runs the offer's intent once per item, in one transaction: every item lands, or, when one
    /// fails, none does. A question (a missing value, a confirmation) stops the run at that item;
    /// answer it with `respond(to:)` as after a phrase.
    public func share(_ items: [ShareItem], with offer: ShareRouter.Offer) -> [Answer] {
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
                    if answer.status == .error { throw ShareRolledBack() }
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
            let storeFailed = !(error is ShareRolledBack)
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
        let scope = item.scope
        var arguments: [String: Datum] = [:]
        for parameter in offer.intent.parameters {
            if let value = scope[parameter.name], !value.isNull { arguments[parameter.name] = value }
        }
        for assignment in offer.route.arguments {
            arguments[assignment.name] = try evaluator.value(of: assignment.value, in: scope)
        }
        return arguments
    }
}

extension ShareItem {
    /// The names a share route's `with:` reads (`IntentGraph.ShareRoute.variables`), for this item.
    fileprivate var scope: Evaluator.Scope {
        [
            "url": url.map(Datum.url) ?? .null,
            "text": .string(text),
            "title": .string(title),
            "path": path.map(Datum.string) ?? .null,
            "name": name.map(Datum.string) ?? .null,
            "type": type.map(Datum.string) ?? .null,
            "size": size.map(Datum.integer) ?? .null,
            "kind": .string(kind.rawValue),
        ]
    }
}

/// Thrown inside the share's transaction when an item fails, so none lands.
private struct ShareRolledBack: Error {}
