import Foundation
import IntentModel
import ModelStore

/// Donations (IntentDonationManager): what the user did, kept so suggestions can learn from it.
enum Donation {
    /// What an executed intent donates, for `StoreTransaction.journal(…, donating:)`, which records
    /// it with the execution in the transaction that ran it (so a failed intent donates nothing):
    /// for an intent that declares `donate:`, only those parameters, and the records among their
    /// values (deleting one deletes the donation); nil when it donates nothing.
    static func donated(
        _ intent: IntentGraph.Intent, parameters: [String: JSONValue], via: Invocation
    ) -> (parameters: [String: JSONValue], via: Invocation, records: [String])? {
        // An activity eligible for prediction is learned from like a donation (NSUserActivity's
        // isEligibleForPrediction): with the declared `donate:` parameters, else every stable one.
        let predicted = intent.activity?.eligible.contains(.prediction) == true
        guard !intent.donate.isEmpty || predicted else { return nil }
        let names =
            intent.donate.isEmpty
            ? intent.parameters.filter { ![.date, .duration].contains($0.type) }.map(\.name) : intent.donate
        let donated = parameters.filter { names.contains($0.key) }
        return (donated, via, donated.values.flatMap(recordIDs))
    }

    /// The ids of entities in a JSON answer value: `{type, id, title}` objects, also inside lists.
    static func recordIDs(_ value: JSONValue) -> [String] {
        switch value {
        case .object(let fields):
            if case .string(let id)? = fields["id"], fields["type"] != nil { return [id] }
            return []
        case .array(let items): return items.flatMap(recordIDs)
        default: return []
        }
    }
}
