import Foundation
import GRDB
import IntentModel

extension StoreTransaction {
    /// A JSON column of one of the store's own tables, read back. Another program may have changed
    /// it: anything but the JSON `intents` writes there (other text, a number, NULL) is
    /// `StoreError.damaged` naming the file, the table, the row and the column — never a
    /// `DecodingError`, never a trap.
    func storedJSON<T: Decodable>(
        _ type: T.Type, _ row: SQLRow, _ column: String, table: String, key: String = "id", expected: String
    ) throws -> T {
        let value = row.value(column) ?? .null
        let keyValue = row.value(key) ?? .null
        let place = "\(table) row \(keyValue.description), column \(column)"
        guard case .string(let text) = value.storage else {
            throw StoreError.damaged(
                path: store.path, place: place, reason: "holds \(value.description), not \(expected)")
        }
        do {
            return try JSONText.decode(type, from: text)
        } catch {
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            throw StoreError.damaged(
                path: store.path, place: place, reason: "holds \(shown.debugDescription), not \(expected)")
        }
    }
}
