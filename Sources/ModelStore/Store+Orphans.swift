import Foundation
import GRDB
import IntentModel

/// Data the definitions no longer describe. A removed enum case that records still hold is
/// refused like a removed property with data; the rows of an entity that was renamed or whose
/// app was removed are kept, reported (`orphanedRecords`) and exported as stored.
extension Store {
    /// For each enum property, the stored values that are no longer a case, with their counts.
    func removedCasesInUse(_ table: Table, _ db: any SQLExecutor) throws -> [String] {
        var refusals: [String] = []
        for column in table.columns {
            guard let cases = table.enumOrder[column.name], let enumName = column.type.enumName else { continue }
            let placeholders = Array(repeating: "?", count: cases.count).joined(separator: ", ")
            let quoted = dialect.quote(column.name)
            let filter = cases.isEmpty ? "" : " AND \(quoted) NOT IN (\(placeholders))"
            // An enum column is text on PostgreSQL; on SQLite another program may have stored a number.
            let isText = db.isPostgres ? "" : " AND typeof(\(quoted)) = 'text'"
            let sql = """
                SELECT \(quoted) AS value, count(*) AS n FROM \(table.quoted)
                WHERE \(quoted) IS NOT NULL\(isText)\(filter) GROUP BY \(quoted) ORDER BY \(quoted)
                """
            for row in try db.fetchAll(sql: sql, arguments: cases) {
                let value: String = row["value"]
                let count: Int = row["n"]
                refusals.append(
                    "\(table.entity.name.name).\(column.name) holds the case '\(value)' in \(count) record\(count == 1 ? "" : "s"), but \(enumName.name) no longer declares it"
                )
            }
        }
        return refusals
    }

    /// Tables of entities the definitions no longer declare (renamed, or their app removed) that
    /// still hold records: their names (`App.Entity`) and how many records each holds.
    public func orphanedRecords() throws -> [String: Int] {
        do {
            return try read { transaction in try orphanedTables(transaction.db) }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.unusable(path: path, reason: Self.reason(error, waited: busyTimeout))
        }
    }

    func orphanedTables(_ db: any SQLExecutor) throws -> [String: Int] {
        guard try db.tableExists("_schema") else { return [:] }
        let declared = Set(tables.values.map(\.name))
        var orphans: [String: Int] = [:]
        for name in try db.fetchValues(String.self, sql: "SELECT DISTINCT entity FROM _schema ORDER BY entity")
        where !declared.contains(name) {
            guard try db.tableExists(name) else { continue }
            let count = try db.fetchValue(Int.self, sql: "SELECT count(*) FROM \(dialect.quote(name))") ?? 0
            if count > 0 { orphans[name] = count }
        }
        return orphans
    }
}

extension Store {
    /// The declared cases of a table's enum properties, as one text: what was last checked against
    /// the cases its records hold.
    static func caseSignature(_ table: Table) -> String {
        table.enumOrder.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.joined(separator: ","))" }
            .joined(separator: ";")
    }

    func caseSignatureChanged(_ table: Table, _ db: any SQLExecutor) throws -> Bool {
        guard !table.enumOrder.isEmpty else { return false }
        let stored = try db.fetchValue(
            String.self, sql: "SELECT value FROM _meta WHERE key = ?", arguments: ["cases." + table.name])
        return stored != Self.caseSignature(table)
    }

    /// After a migration found no record holding a removed case.
    func noteCaseSignature(_ table: Table, _ db: any SQLExecutor) throws {
        guard !table.enumOrder.isEmpty else { return }
        try db.execute(
            sql: "INSERT INTO _meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            arguments: ["cases." + table.name, Self.caseSignature(table)])
    }
}
