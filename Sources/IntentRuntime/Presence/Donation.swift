import Foundation
import IntentModel
import ModelStore

/// Donations (IntentDonationManager): what the user did, kept so suggestions can learn from it.
enum Donation {
    /// Records a donation for an intent that declares `donate:`, with only those parameters, in the
    /// transaction that ran it (so a failed intent donates nothing). The records among the donated
    /// values are remembered: deleting one deletes the donation.
    static func record(
        _ intent: IntentGraph.Intent, parameters: [String: JSONValue], via: String, in transaction: StoreTransaction,
        at moment: Date
    ) throws {
        guard !intent.donate.isEmpty else { return }
        let donated = parameters.filter { intent.donate.contains($0.key) }
        try transaction.donate(
            intent: intent.name, parameters: donated, via: via, records: donated.values.flatMap(recordIDs), at: moment)
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
