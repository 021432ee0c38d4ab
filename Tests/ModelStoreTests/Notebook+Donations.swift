import IntentModel
import ModelStore
import TestSupport
import Testing

extension Notebook {
    /// The Notebook's `Pin`.
    static let pin = QualifiedName(app: "Notebook", name: "Pin")

    /// What running `Pin` on page p2 from a phrase leaves: the page pinned and journaled (so undo
    /// can take it back), then a donation tied to that execution.
    static func pinAndDonate(in store: Store) throws {
        let execution = try store.write { transaction in
            let page = try #require(try transaction.record(Notebook.page, id: "p2"))
            try transaction.update(page, set: ["pinned": .boolean(true)])
            return try transaction.journal(intent: pin, parameters: ["page": "p2"], dialog: "Pinned.", donation: nil)
        }
        try store.write { transaction in
            try transaction.donate(
                intent: pin, parameters: ["page": "p2"], via: .phrase, records: ["p2"], at: Bundled.now,
                execution: execution)
        }
    }
}
