public import Foundation
import GRDB
public import IntentModel

/// Reads and writes inside one `Store.read` or `Store.write`. Every change is remembered, so the
/// execution that made it can be journaled and undone.
public final class StoreTransaction {
    let db: any SQLExecutor
    let store: Store
    /// Changes so far, in order: (entity, id, before, after); nil before means created, nil after deleted.
    public internal(set) var changes: [(entity: QualifiedName, id: String, before: Record?, after: Record?)] = []
    /// Live activities started so far in this transaction: an undo of the intent ends them.
    var startedLiveActivities: [Int64] = []

    private var preparedWrites: [String: (insert: String, replace: String)] = [:]

    init(db: any SQLExecutor, store: Store) {
        self.db = db
        self.store = store
    }

    /// The GRDB connection, for what only SQLite does (the bulk import); PostgreSQL refuses it.
    var sqliteDatabase: Database {
        get throws {
            guard let executor = db as? SQLiteExecutor else {
                throw StoreError.invalidData("this is not supported on a PostgreSQL store yet")
            }
            return executor.db
        }
    }

    func table(_ entity: QualifiedName) throws -> Store.Table {
        guard let table = store.tables[entity] else { throw StoreError.invalidData("unknown entity \(entity)") }
        return table
    }

    // MARK: Reading

    /// The records a query wants, in its order.
    public func fetch(_ query: RecordQuery) throws -> [Record] {
        let table = try table(query.entity)
        let statement = try QueryLowering.select(query, from: table, store: store)
        let rows = try db.fetchAll(sql: statement.sql, arguments: statement.arguments)
        return try rows.map { try record(from: $0, table) }
    }

    /// How many records a query wants.
    public func count(_ query: RecordQuery) throws -> Int {
        let statement =
            if let limit = query.limit {
                try QueryLowering.count(query, upTo: limit, in: try table(query.entity), store: store)
            } else {
                try QueryLowering.count(query, in: try table(query.entity), store: store)
            }
        return try db.fetchValue(Int.self, sql: statement.sql, arguments: statement.arguments) ?? 0
    }

    public func record(_ entity: QualifiedName, id: String) throws -> Record? {
        let table = try table(entity)
        return try db.fetchOne(sql: "SELECT * FROM \(table.quoted) WHERE id = ?", arguments: [id]).map {
            try record(from: $0, table)
        }
    }

    /// Records of `entity` whose `matchBy` names contain every word of `text` (words as prefixes),
    /// through the full-text index; with the name that matched.
    public func search(_ entity: QualifiedName, text: String, limit: Int = 20) throws -> [(
        record: Record, name: String
    )] {
        let rows: [SQLRow]
        if db.isPostgres {
            guard let query = PostgresText.prefixQuery(text) else { return [] }
            rows = try db.fetchAll(
                sql: """
                    SELECT record, name FROM _names WHERE words @@ to_tsquery('simple', ?) AND entity = ?
                    ORDER BY ts_rank(words, to_tsquery('simple', ?)) DESC, id LIMIT ?
                    """,
                arguments: [query, entity.description, query, limit])
        } else {
            let words = text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map {
                "\"" + $0.replacingOccurrences(of: "\"", with: "") + "\"*"
            }
            guard !words.isEmpty else { return [] }
            rows = try db.fetchAll(
                sql: "SELECT record, name FROM _names WHERE _names MATCH ? AND entity = ? ORDER BY rank LIMIT ?",
                arguments: ["name: (" + words.joined(separator: " ") + ")", entity.description, limit])
        }
        var seen: Set<String> = []
        var results: [(Record, String)] = []
        for row in rows {
            let id: String = row["record"]
            guard seen.insert(id).inserted, let record = try record(entity, id: id) else { continue }
            results.append((record, row["name"]))
        }
        return results
    }

    /// Every `matchBy` name in the store, for the phrase matcher's entity index.
    public func names() throws -> [(entity: QualifiedName, name: String)] {
        var byName: [String: QualifiedName] = [:]
        for table in store.tables.values { byName[table.name] = table.entity.name }
        return try db.fetchAll(sql: "SELECT entity, name FROM _names").compactMap { row in
            guard let entity = byName[row["entity"]] else { return nil }
            return (entity, row["name"])
        }
    }

    /// A row as a record; a column holding a value its type cannot read throws, naming the
    /// record and the column (never a trap, never a value read as something else).
    func record(from row: SQLRow, _ table: Store.Table) throws -> Record {
        try record(from: row, table) { column, mismatch in
            throw StoreError.unreadable(
                entity: table.entity.name, id: Self.id(of: row), column: column, stored: mismatch.stored,
                type: mismatch.type)
        }
    }

    /// A row as a record; `unreadable` decides what a value its column's type cannot read
    /// becomes (throw, or leave the property out and report it).
    func record(
        from row: SQLRow, _ table: Store.Table, unreadable: (String, Columns.Mismatch) throws -> Void
    ) rethrows -> Record {
        var values: [String: Value] = [:]
        for column in table.columns {
            do {
                if let value = try Columns.decode(row.value(column.name) ?? .null, as: column.type) {
                    values[column.name] = value
                }
            } catch {
                try unreadable(column.name, error)
            }
        }
        return Record(
            entity: table.entity.name, id: Self.id(of: row),
            createdAt: Self.moment(row[IntentGraph.BuiltinProperty.createdAt.rawValue]),
            updatedAt: Self.moment(row[IntentGraph.BuiltinProperty.updatedAt.rawValue]), values: values)
    }

    /// A row's id as text, whatever the column holds.
    static func id(of row: SQLRow) -> String {
        let stored = row.value(IntentGraph.BuiltinProperty.id.rawValue) ?? .null
        switch stored.storage {
        case .string(let text): return text
        case .int64(let number): return String(number)
        case .double(let number): return String(number)
        case .null, .blob: return ""
        }
    }

    /// A stamp as stored (UTC, `Z`).
    private static func moment(_ text: String?) -> Date {
        text.flatMap { ISODate.parse($0, timeZone: .gmt) } ?? Date(timeIntervalSince1970: 0)
    }

    // MARK: Writing

    /// Inserts a record; properties not given take their defaults. Required ones must be given.
    @discardableResult
    public func insert(_ entity: QualifiedName, values: [String: Value], id: String? = nil, now: Date? = nil) throws
        -> Record
    {
        let now = now ?? store.clock.now
        let table = try table(entity)
        var complete: [String: Value] = [:]
        for column in table.columns {
            let property = table.entity.property(column.name)
            if let value = values[column.name] {
                try Self.checkStorable(value, as: column.type, what: "\(entity.name).\(column.name)")
                complete[column.name] = value
            } else if let value = property?.defaultValue {
                complete[column.name] = store.clock.resolve(value, at: now)
            } else if property?.isOptional == false {
                throw StoreError.invalidData("\(entity.name).\(column.name) needs a value")
            }
        }
        let record = Record(
            entity: entity, id: id ?? UUID().uuidString.lowercased(), createdAt: now, updatedAt: now, values: complete)
        try write(record, table, replacing: false)
        changes.append((entity, record.id, nil, record))
        return record
    }

    /// Writes new values of some properties (nil clears one) and stamps `updatedAt`.
    @discardableResult
    public func update(_ record: Record, set values: [String: Value?], now: Date? = nil) throws -> Record {
        let table = try table(record.entity)
        guard let before = try self.record(record.entity, id: record.id) else {
            throw StoreError.missingRecord(record.entity, record.id)
        }
        var after = before
        for (name, value) in values {
            guard let type = table.type(of: name), IntentGraph.BuiltinProperty(rawValue: name) == nil else { continue }
            if let value { try Self.checkStorable(value, as: type, what: "\(record.entity.name).\(name)") }
            if let value { after.values[name] = value } else { after.values[name] = nil }
        }
        after.updatedAt = now ?? store.clock.now
        try write(after, table, replacing: true)
        changes.append((record.entity, record.id, before, after))
        return after
    }

    public func delete(_ record: Record) throws {
        let table = try table(record.entity)
        guard let before = try self.record(record.entity, id: record.id) else {
            throw StoreError.missingRecord(record.entity, record.id)
        }
        try db.executeLater(sql: "DELETE FROM \(table.quoted) WHERE id = ?", arguments: [record.id])
        try forgetNames(record.id, table)
        try forgetSearch(record.id, table)
        try forgetDonations(referencing: record.id)
        changes.append((record.entity, record.id, before, nil))
    }

    /// Refuses a value `store export` could not write so that `store import` reads it back as it
    /// was: text with a control character (a NUL would even cut it), a URL that is not one, a
    /// number that is not finite. Whatever an intent stores thus survives a backup and a restore.
    static func checkStorable(_ value: Value, as type: ValueType, what: String) throws {
        switch value {
        case .enumCase(let text):
            if let problem = ControlCharacters.problem(in: text, what: what) { throw StoreError.invalidData(problem) }
        case .string(let text), .url(let text):
            if let problem = ControlCharacters.problem(in: text, what: what) { throw StoreError.invalidData(problem) }
            if type == .url, let problem = ImportChecks.problem(withURL: text) {
                throw StoreError.invalidData("\(what): \(problem)")
            }
        case .number(let number):
            guard number.isFinite else {
                throw StoreError.invalidData("\(what) must be a finite number, not \(number)")
            }
        case .array(let items):
            for item in items { try checkStorable(item, as: type.element ?? type, what: what) }
        case .integer, .boolean, .date, .duration:
            break
        }
    }

    func write(_ record: Record, _ table: Store.Table, replacing: Bool) throws {
        try writeRow(record, table, replacing: replacing)
        if replacing { try forgetNames(record.id, table) }
        for property in table.entity.matchBy {
            if case .string(let name)? = record[property], !name.isEmpty {
                if db.isPostgres {
                    // The name and its row of the record in one statement (held: see `executeLater`).
                    try db.executeLater(
                        sql: """
                            WITH n AS (INSERT INTO _names (entity, record, name, words)
                                VALUES (?, ?, ?, to_tsvector('simple', ?)) RETURNING id, entity, record)
                            INSERT INTO _name_rows (entity, record, name_row) SELECT entity, record, id FROM n
                            """,
                        arguments: [table.name, record.id, name, SearchText.folded(name)])
                    try Store.addIndexedName(name, entity: table.name, db)
                    continue
                }
                let row = try db.insert(
                    sql: "INSERT INTO _names (entity, record, name) VALUES (?, ?, ?)",
                    arguments: [table.name, record.id, name], returning: "rowid")
                try db.execute(
                    sql: "INSERT INTO _name_rows (entity, record, name_row) VALUES (?, ?, ?)",
                    arguments: [table.name, record.id, row])
                try Store.addIndexedName(name, entity: table.name, db)
            }
        }
        try indexForSearch(record, table, replacing: replacing)
    }

    /// The record's row alone (no names, no search document).
    func writeRow(_ record: Record, _ table: Store.Table, replacing: Bool) throws {
        // The arguments made as the executor takes them (a `[DatabaseValue]` cast to them cost 8 %
        // of writing a row), the statement's column list only when it is first prepared.
        let builtins = IntentGraph.BuiltinProperty.allCases
        var values: [(any DatabaseValueConvertible)?] = []
        values.reserveCapacity(builtins.count + table.columns.count)
        for builtin in builtins { values.append(Columns.encode(builtin, of: record)) }
        for column in table.columns {
            values.append(Columns.encode(record.values[column.name], as: column.type, clock: store.clock))
        }
        let statements = writeStatements(table)
        if replacing, db.isPostgres {
            // As SQLite's INSERT OR REPLACE: the row goes and comes back last in insertion order.
            try db.executeLater(sql: "DELETE FROM \(table.quoted) WHERE id = ?", arguments: [record.id])
        }
        try db.executeLater(sql: replacing ? statements.replace : statements.insert, arguments: values)
    }

    /// The INSERT and INSERT OR REPLACE of a table's records, prepared once per transaction.
    private func writeStatements(_ table: Store.Table) -> (insert: String, replace: String) {
        if let prepared = preparedWrites[table.name] { return prepared }
        let columns = IntentGraph.BuiltinProperty.allCases.map(\.rawValue) + table.columns.map(\.name)
        let names = columns.map(store.dialect.quote).joined(separator: ", ")
        // `?` for both backends: the PostgreSQL connection numbers them.
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let insert = "INSERT INTO \(table.quoted) (\(names)) VALUES (\(placeholders))"
        let prepared = (
            insert,
            db.isPostgres ? insert : "INSERT OR REPLACE INTO \(table.quoted) (\(names)) VALUES (\(placeholders))"
        )
        preparedWrites[table.name] = prepared
        return prepared
    }

    /// Removes a record's names from the full-text index.
    func forgetNames(_ id: String, _ table: Store.Table) throws {
        if db.isPostgres {
            // The record's rows and names gone in one round trip, then each name's key.
            let names = try db.fetchValues(
                String.self,
                sql: """
                    WITH r AS (DELETE FROM _name_rows WHERE entity = ? AND record = ? RETURNING name_row)
                    DELETE FROM _names WHERE id IN (SELECT name_row FROM r) RETURNING name
                    """,
                arguments: [table.name, id])
            for name in names { try Store.removeIndexedName(name, entity: table.name, db) }
            return
        }
        let key = db.isPostgres ? "id" : "rowid"
        for name in try db.fetchValues(
            String.self,
            sql:
                "SELECT name FROM _names WHERE \(key) IN (SELECT name_row FROM _name_rows WHERE entity = ? AND record = ?)",
            arguments: [table.name, id])
        {
            try Store.removeIndexedName(name, entity: table.name, db)
        }
        try db.execute(
            sql: "DELETE FROM _names WHERE \(key) IN (SELECT name_row FROM _name_rows WHERE entity = ? AND record = ?)",
            arguments: [table.name, id])
        try db.execute(sql: "DELETE FROM _name_rows WHERE entity = ? AND record = ?", arguments: [table.name, id])
    }
}
