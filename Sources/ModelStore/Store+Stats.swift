import Foundation
import GRDB
import IntentModel

/// How big a store is and where its bytes are: `intents store stats`; and `intents store vacuum`.
public struct StoreStats: Sendable {
    public struct Entity: Sendable {
        public var name: String
        public var records: Int
        /// Bytes of its table, and of its indexes (nil when SQLite cannot say: no `dbstat`).
        public var tableBytes: Int?
        public var indexes: Int
        public var indexBytes: Int?
        /// Each index: its name, what it holds (the SQL terms; nil for the key's own), its bytes.
        public var indexDetails: [(name: String, terms: String?, bytes: Int?)] = []
    }

    /// One of the store's own indexes or logs, with what it is for.
    public struct Part: Sendable {
        public var name: String
        public var purpose: String
        public var rows: Int
        public var bytes: Int?
    }

    public var path: String
    public var fileBytes: Int
    /// The write-ahead log beside the file (`-wal`), folded into the file at checkpoints.
    public var walBytes: Int
    /// Pages SQLite keeps for reuse: what `vacuum` gives back.
    public var freeBytes: Int
    public var entities: [Entity]
    public var parts: [Part]
}

extension Store {
    /// The store's own tables, grouped by what they are for (prefixes of their names).
    static let internalParts: [(name: String, purpose: String, tables: [String], counted: String)] = [
        ("names", "entity names as phrases look them up", ["_name_keys", "_name_words"], "_name_keys"),
        ("full-text names", "entity names for search and exact look-ups", ["_names", "_name_rows"], "_name_rows"),
        (
            "search", "what intents search finds",
            ["_search", "_search_items", "_search_pending", "_search_dead", "_search_vocab"], "_search_items"
        ),
        ("journal", "executed intents and their changes, for undo", ["_executions", "_changes"], "_changes"),
        (
            "donations", "donations and suggestion statistics",
            ["_donations", "_donation_refs", "_suggest_stats", "_tips"], "_donations"
        ),
        (
            "activities", "activities, handoffs, questions and conversations",
            ["_activities", "_questions", "_conversations"], "_activities"
        ),
    ]

    public func stats() throws -> StoreStats {
        if isPostgres { return try postgresStats() }
        do {
            return try queue.read { db in
                let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
                let free = (try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0) * pageSize
                // Bytes by table or index, when SQLite is built with dbstat.
                var bytes: [String: Int]?
                if let rows = try? Row.fetchAll(
                    db, sql: "SELECT name, SUM(pgsize) AS bytes FROM dbstat WHERE aggregate = 1 GROUP BY name")
                {
                    bytes = Dictionary(rows.map { ($0["name"] as String, $0["bytes"] as Int) }, uniquingKeysWith: +)
                }
                let master = try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master")
                func objects(of table: String) -> [String] {
                    // A table's own indexes, and an FTS5 table's shadow tables (`_names_data`, …).
                    master.filter { row in
                        let name: String = row["name"]
                        return (row["tbl_name"] as String) == table
                            || (name.hasPrefix(table + "_") && row["type"] == "table")
                    }.map { $0["name"] as String }
                }
                var entities: [StoreStats.Entity] = []
                for table in self.tables.values.sorted(by: { $0.name < $1.name }) {
                    let records = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.quoted)") ?? 0
                    let indexRows = master.filter {
                        ($0["type"] as String) == "index" && ($0["tbl_name"] as String) == table.name
                    }
                    let indexes = indexRows.map { $0["name"] as String }
                    var entity = StoreStats.Entity(
                        name: table.name, records: records, tableBytes: bytes?[table.name] ?? (bytes == nil ? nil : 0),
                        indexes: indexes.count,
                        indexBytes: bytes.map { sizes in indexes.reduce(0) { $0 + (sizes[$1] ?? 0) } })
                    entity.indexDetails = indexRows.map { row in
                        let name: String = row["name"]
                        // `CREATE INDEX "…" ON "…" (terms)`: the terms.
                        let sql: String? = row["sql"]
                        let terms = sql.flatMap { text in
                            text.range(of: "\" (").map { String(text[$0.upperBound...].dropLast()) }
                        }
                        return (name, terms, bytes?[name])
                    }
                    entities.append(entity)
                }
                var parts: [StoreStats.Part] = []
                let existing = Set(master.map { $0["name"] as String })
                for part in Self.internalParts {
                    let names = part.tables.filter(existing.contains).flatMap { [$0] + objects(of: $0) }
                    let rows =
                        existing.contains(part.counted)
                        ? try Int.fetchOne(db, sql: "SELECT count(*) FROM \(dialect.quote(part.counted))") ?? 0 : 0
                    parts.append(
                        StoreStats.Part(
                            name: part.name, purpose: part.purpose, rows: rows,
                            bytes: bytes.map { sizes in Set(names).reduce(0) { $0 + (sizes[$1] ?? 0) } }))
                }
                return StoreStats(
                    path: path, fileBytes: Self.fileSize(path), walBytes: Self.fileSize(path + "-wal"), freeBytes: free,
                    entities: entities, parts: parts)
            }
        } catch let error as DatabaseError {
            throw StoreError.unusable(path: path, reason: Self.reason(error, waited: busyTimeout))
        }
    }

    /// Rewrites the file without its free pages and merges the full-text indexes' segments.
    /// Returns the file's size before and after (the write-ahead log folded in).
    public func vacuum() throws -> (before: Int, after: Int) {
        if isPostgres { return try postgresVacuum() }
        let before = Self.fileSize(path) + Self.fileSize(path + "-wal")
        do {
            try queue.inDatabase { db in
                for table in ["_names", "_search"] where try db.tableExists(table) {
                    try db.execute(sql: "INSERT INTO \(table)(\(table)) VALUES ('optimize')")
                }
                try db.execute(sql: "VACUUM")
                try db.execute(sql: "PRAGMA optimize")
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            }
        } catch let error as DatabaseError {
            throw StoreError.writeFailed(Self.reason(error, waited: busyTimeout))
        }
        return (before, Self.fileSize(path) + Self.fileSize(path + "-wal"))
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
