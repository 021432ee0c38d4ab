public import Foundation
import GRDB
public import IntentModel

/// A configurable widget as it was added (WidgetKit's `AppIntentConfiguration`): the widget, the
/// values chosen for its parameters, and the family it was added in.
public struct StoredWidgetInstance: Sendable, Hashable {
    public let id: Int64
    /// `App.Name`.
    public let widget: String
    /// The family it was added in; nil: the widget's first.
    public let family: String?
    /// Parameter → value as the store keeps it (an entity by its id).
    public let parameters: [String: JSONValue]
    public let addedAt: Date
}

extension StoreTransaction {
    /// Keeps an added widget; its number is what `widget remove N` takes.
    @discardableResult
    public func addWidgetInstance(
        _ widget: String, family: String?, parameters: [String: JSONValue], at now: Date
    ) throws -> Int64 {
        try db.insert(
            sql: "INSERT INTO _widget_instances (widget, family, parameters, added_at) VALUES (?, ?, ?, ?)",
            arguments: [widget, family, JSONText.compact(.object(parameters)), ISODate.format(now)], returning: "id")
    }

    /// Every added widget, in the order they were added.
    public func widgetInstances() throws -> [StoredWidgetInstance] {
        try db.fetchAll(sql: "SELECT * FROM _widget_instances ORDER BY id").map { row in
            StoredWidgetInstance(
                id: row["id"], widget: row["widget"], family: row["family"],
                parameters: try storedJSON(
                    [String: JSONValue].self, row, "parameters", table: "_widget_instances", expected: "a JSON object"),
                addedAt: ISODate.parse(row["added_at"], timeZone: TimeZone(identifier: "UTC")!)
                    ?? Date(timeIntervalSince1970: 0))
        }
    }

    /// Removes added widget `id`; false when there is none of that number.
    public func removeWidgetInstance(_ id: Int64) throws -> Bool {
        try db.execute(sql: "DELETE FROM _widget_instances WHERE id = ?", arguments: [id]) > 0
    }
}

extension Store {
    /// The added widgets' table (created with the others).
    static func createWidgetInstanceTables(_ db: any SQLExecutor) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS _widget_instances (
                    id INTEGER PRIMARY KEY AUTOINCREMENT, widget TEXT NOT NULL, family TEXT,
                    parameters TEXT NOT NULL, added_at TEXT NOT NULL);
                """)
    }
}
