public import Foundation
import GRDB
public import IntentModel

/// The journal: executed intents with the changes each made (for `undo`), and donations.
/// Parameters and records are kept as JSON text (`JSONText`).
extension StoreTransaction {
    /// Records an executed intent with the changes made so far in this transaction, and its donation.
    /// Returns the execution's number.
    @discardableResult
    public func journal(
        intent: QualifiedName, parameters: [String: JSONValue], dialog: String, donation: [String: JSONValue]?,
        now: Date? = nil
    ) throws -> Int64 {
        let at = ISODate.format(now ?? store.clock.now)
        let head: [(any DatabaseValueConvertible)?] = [
            intent.description, JSONText.compact(.object(parameters)), dialog, at,
        ]
        let execution: Int64
        if db.isPostgres, !changes.isEmpty, changes.count <= 1_000 {
            // PostgreSQL: the execution and its changes in one round trip.
            let (rows, arguments) = try changeRows(after: head)
            guard
                let id = try db.fetchValue(
                    Int64.self,
                    sql: """
                        WITH e AS (INSERT INTO _executions (intent, parameters, dialog, at) VALUES (?, ?, ?, ?) RETURNING id),
                        c AS (INSERT INTO _changes (execution, seq, entity, record, before, after)
                            SELECT e.id, v.seq, v.entity, v.record, v.before, v.after
                            FROM e, (VALUES \(rows)) AS v(seq, entity, record, before, after))
                        SELECT id FROM e
                        """,
                    arguments: arguments)
            else { throw StoreError.writeFailed("an insert returned no id") }
            execution = id
        } else {
            execution = try db.insert(
                sql: "INSERT INTO _executions (intent, parameters, dialog, at) VALUES (?, ?, ?, ?)", arguments: head,
                returning: "id")
        }
        for (seq, change) in changes.enumerated() where !(db.isPostgres && changes.count <= 1_000) {
            let before = try change.before.map { JSONText.compact(.object(try json($0))) }
            let after = try change.after.map { JSONText.compact(.object(try json($0))) }
            try db.execute(
                sql: "INSERT INTO _changes (execution, seq, entity, record, before, after) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [execution, seq, change.entity.description, change.id, before, after])
        }
        if let donation {
            try db.execute(
                sql: "INSERT INTO _donations (intent, parameters, at) VALUES (?, ?, ?)",
                arguments: [intent.description, JSONText.compact(.object(donation)), at])
        }
        changes.removeAll()
        try claimLiveActivities(for: execution)
        return execution
    }

    /// Records the intent this transaction executed, with the changes made so far, and its
    /// donation when it makes one (`donate`, of this execution): `journal` and `donate` in one, for
    /// the runtime. On PostgreSQL nothing of it is read back (the donation names its execution by
    /// the sequence's last value in this session), so all of it is held with the transaction's
    /// other writes: no round trip of its own.
    public func journal(
        intent: QualifiedName, parameters: [String: JSONValue], dialog: String, at now: Date,
        donating donation: (parameters: [String: JSONValue], via: Invocation, records: [String])?
    ) throws {
        guard db.isPostgres, startedLiveActivities.isEmpty, changes.count <= 1_000 else {
            // The activities the intent started are marked with the execution's number: read back.
            let execution = try journal(intent: intent, parameters: parameters, dialog: dialog, donation: nil, now: now)
            if let donation {
                try donate(
                    intent: intent, parameters: donation.parameters, via: donation.via, records: donation.records,
                    at: now, execution: execution)
            }
            return
        }
        let head: [(any DatabaseValueConvertible)?] = [
            intent.description, JSONText.compact(.object(parameters)), dialog, ISODate.format(now),
        ]
        if changes.isEmpty {
            try db.executeLater(
                sql: "INSERT INTO _executions (intent, parameters, dialog, at) VALUES (?, ?, ?, ?)", arguments: head)
        } else {
            let (rows, arguments) = try changeRows(after: head)
            try db.executeLater(
                sql: """
                    WITH e AS (INSERT INTO _executions (intent, parameters, dialog, at) VALUES (?, ?, ?, ?) RETURNING id)
                    INSERT INTO _changes (execution, seq, entity, record, before, after)
                    SELECT e.id, v.seq, v.entity, v.record, v.before, v.after
                    FROM e, (VALUES \(rows)) AS v(seq, entity, record, before, after)
                    """,
                arguments: arguments)
        }
        changes.removeAll()
        if let donation {
            try donate(
                intent: intent, parameters: donation.parameters, via: donation.via, records: donation.records, at: now,
                of: .journaledLast)
        }
    }

    /// The changes made so far as the rows of a PostgreSQL `VALUES` list (`seq, entity, record,
    /// before, after`, the first row typed), and their arguments after `head`, the execution's own.
    /// Only when there are changes.
    private func changeRows(after head: [(any DatabaseValueConvertible)?]) throws -> (
        rows: String, arguments: [(any DatabaseValueConvertible)?]
    ) {
        var arguments = head
        for (seq, change) in changes.enumerated() {
            arguments += [
                Int64(seq), change.entity.description, change.id,
                try change.before.map { JSONText.compact(.object(try json($0))) },
                try change.after.map { JSONText.compact(.object(try json($0))) },
            ]
        }
        let rows =
            "(?::bigint, ?::text, ?::text, ?::text, ?::text)"
            + String(repeating: ", (?, ?, ?, ?, ?)", count: changes.count - 1)
        return (rows, arguments)
    }

    /// Reverts the most recent execution that changed something and is not undone yet.
    /// Returns what was undone (intent and its answer), or nil when there is nothing to undo.
    public func undoLast() throws -> (intent: String, dialog: String, changes: Int)? {
        guard
            let row = try db.fetchOne(
                sql: """
                    SELECT id, intent, dialog FROM _executions e
                    WHERE undone = 0 AND EXISTS (SELECT 1 FROM _changes c WHERE c.execution = e.id)
                    ORDER BY id DESC LIMIT 1
                    """)
        else { return nil }
        let execution: Int64 = row["id"]
        let changeRows = try db.fetchAll(
            sql:
                "SELECT execution, seq, entity, record, before, after FROM _changes WHERE execution = ? ORDER BY seq DESC",
            arguments: [execution])
        for change in changeRows {
            let entityName: String = change["entity"]
            guard let table = store.tables.values.first(where: { $0.name == entityName }) else {
                throw StoreError.invalidData("cannot undo: \(entityName) is no longer defined")
            }
            let id: String = change["record"]
            let current = try record(table.entity.name, id: id)
            if let before = change.value("before"), !before.isNull {
                let fields = try storedJSON(
                    [String: JSONValue].self, change, "before", table: "_changes", key: "seq",
                    expected: "a record as JSON")
                let record = try self.record(fromJSON: fields, entity: table.entity.name)
                try write(record, table, replacing: true)
                changes.append((table.entity.name, id, current, record))
            } else {
                try db.execute(sql: "DELETE FROM \(table.quoted) WHERE id = ?", arguments: [id])
                try forgetNames(id, table)
                try forgetSearch(id, table)
                changes.append((table.entity.name, id, current, nil))
            }
        }
        try endLiveActivities(startedBy: execution)
        try forgetDonations(ofExecution: execution)
        try db.execute(sql: "UPDATE _executions SET undone = 1 WHERE id = ?", arguments: [execution])
        return (row["intent"], row["dialog"], changeRows.count)
    }

    /// Recent executions, newest first: (number, intent, parameters JSON, dialog, at, undone).
    public func executions(
        limit: Int = 20
    ) throws -> [(id: Int64, intent: String, parameters: String, dialog: String, at: String, undone: Bool)] {
        try db.fetchAll(sql: "SELECT * FROM _executions ORDER BY id DESC LIMIT ?", arguments: [limit]).map {
            ($0["id"], $0["intent"], $0["parameters"], $0["dialog"], $0["at"], $0["undone"])
        }
    }

    /// Donations, newest first: (intent, parameters JSON, at).
    public func donations(limit: Int = 50) throws -> [(intent: String, parameters: String, at: String)] {
        try db.fetchAll(sql: "SELECT * FROM _donations ORDER BY id DESC LIMIT ?", arguments: [limit]).map {
            ($0["intent"], $0["parameters"], $0["at"])
        }
    }
}
