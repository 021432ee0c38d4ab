import Foundation
import IntentModel
import ModelStore

/// Donations (IntentDonationManager): what the user did, kept so suggestions can learn from it.
enum Donation {
    /// Records a donation for an intent that declares `donate:`, with only those parameters, in the
    /// transaction that ran it (so a failed intent donates nothing). The records among the donated
    /// values are remembered: deleting one deletes the donation.
    static func record(
        _ intent: IntentGraph.Intent, parameters: [String: JSONValue], via: Invocation,
        in transaction: StoreTransaction,
        at moment: Date, execution: Int64? = nil
    ) throws {
        // An activity eligible for prediction is learned from like a donation (NSUserActivity's
        // isEligibleForPrediction): with the declared `donate:` parameters, else every stable one.
        let predicted = intent.activity?.eligible.contains(.prediction) == true
        guard !intent.donate.isEmpty || predicted else { return }
        let names =
            intent.donate.isEmpty
            ? intent.parameters.filter { ![.date, .duration].contains($0.type) }.map(\.name) : intent.donate
        let donated = parameters.filter { names.contains($0.key) }
        try transaction.donate(
            intent: intent.name, parameters: donated, via: via, records: donated.values.flatMap(recordIDs), at: moment,
            execution: execution)
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
