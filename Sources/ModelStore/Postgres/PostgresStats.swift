import Foundation
import GRDB

/// `intents store stats` and `intents store vacuum` on PostgreSQL: the store is its schema, so
/// its size is the sum of its tables' (each with its indexes and TOAST), as the server counts them.
extension Store {
    /// The schema's tables and their sizes, by name.
    private func schemaTables(_ db: any SQLExecutor) throws -> [String: Int] {
        var sizes: [String: Int] = [:]
        for row in try db.fetchAll(
            sql: """
                SELECT c.relname::text AS name, pg_total_relation_size(c.oid)::bigint AS bytes FROM pg_class c
                WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
                """)
        {
            sizes[row["name"]] = row["bytes"]
        }
        return sizes
    }

    func postgresStats() throws -> StoreStats {
        try read { transaction in
            let db = transaction.db
            let tables = try schemaTables(db)
            // Each index of the schema: its table, its definition, its bytes, whether it is a key's own.
            let indexRows = try db.fetchAll(
                sql: """
                    SELECT i.relname::text AS name, t.relname::text AS tbl, pg_get_indexdef(i.oid) AS definition,
                        pg_relation_size(i.oid)::bigint AS bytes, x.indisprimary AS is_key
                    FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
                    WHERE t.relnamespace = current_schema()::regnamespace ORDER BY i.relname
                    """)
            var entities: [StoreStats.Entity] = []
            for table in self.tables.values.sorted(by: { $0.name < $1.name }) {
                guard tables[table.name] != nil else {
                    entities.append(
                        StoreStats.Entity(name: table.name, records: 0, tableBytes: 0, indexes: 0, indexBytes: 0))
                    continue
                }
                let records = try db.fetchValue(Int.self, sql: "SELECT count(*) FROM \(table.quoted)") ?? 0
                let tableBytes =
                    try db.fetchValue(
                        Int.self, sql: "SELECT pg_table_size(?::regclass)::bigint", arguments: [table.quoted])
                    ?? 0
                let own = indexRows.filter { ($0["tbl"] as String) == table.name }
                var entity = StoreStats.Entity(
                    name: table.name, records: records, tableBytes: tableBytes, indexes: own.count,
                    indexBytes: own.reduce(0) { $0 + ($1["bytes"] as Int) })
                entity.indexDetails = own.map { row in
                    // `CREATE INDEX … ON … USING btree (terms)`: the terms; nil for the key's own.
                    let definition: String = row["definition"]
                    let isKey: Bool = row["is_key"]
                    let terms =
                        isKey
                        ? nil
                        : definition.range(of: " (").map { String(definition[$0.upperBound...].dropLast()) }
                    return (row["name"] as String, terms, row["bytes"] as Int)
                }
                entities.append(entity)
            }
            var parts: [StoreStats.Part] = []
            for part in Self.internalParts {
                let present = part.tables.filter { tables[$0] != nil }
                let rows =
                    tables[part.counted] != nil
                    ? try db.fetchValue(Int.self, sql: "SELECT count(*) FROM \(dialect.quote(part.counted))") ?? 0 : 0
                parts.append(
                    StoreStats.Part(
                        name: part.name, purpose: part.purpose, rows: rows,
                        bytes: present.reduce(0) { $0 + (tables[$1] ?? 0) }))
            }
            return StoreStats(
                path: shownPath, fileBytes: tables.values.reduce(0, +), walBytes: 0, freeBytes: 0, entities: entities,
                parts: parts)
        }
    }

    /// `VACUUM (FULL, ANALYZE)` of each of the schema's tables: rewritten without dead rows, the
    /// space given back to the system, statistics made again. Outside a transaction (PostgreSQL
    /// runs VACUUM in none); each table is locked while it is rewritten. Returns the schema's
    /// bytes before and after.
    func postgresVacuum() throws -> (before: Int, after: Int) {
        guard let postgres else { return (0, 0) }
        do {
            let db = postgres.executor
            let before = try schemaTables(db)
            let schema = dialect.quote(postgres.location.schema)
            for name in before.keys.sorted() {
                try db.execute(sql: "VACUUM (FULL, ANALYZE) \(schema).\(dialect.quote(name))", arguments: [])
            }
            return (before.values.reduce(0, +), try schemaTables(db).values.reduce(0, +))
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.writeFailed(PostgresSession.reason(error))
        }
    }
}
