public import Foundation
import GRDB
public import IntentModel
import PostgresNIO

/// The file-backed store: one SQLite file, a table per entity of the graph, a full-text index of
/// the entities' `matchBy` names, and the journal of executed intents (for `undo`) and donations.
///
/// Opening the store brings its tables in line with the definitions: additive changes migrate by
/// themselves, destructive ones are refused before anything is written.
public final class Store: Sendable {
    public let path: String
    /// SQLite's connection; nil for a PostgreSQL store.
    let sqlite: DatabaseQueue?
    /// PostgreSQL's connection; nil for a SQLite store.
    let postgres: PostgresSession?
    /// Whether the store is a PostgreSQL database (`postgres://…`) rather than a SQLite file.
    public var isPostgres: Bool { postgres != nil }
    let tables: [QualifiedName: Table]
    /// Indexes on the tables: declared `indexed:` and derived from the definitions' own queries.
    let indexes: [PlannedIndex]
    /// Seconds a writer waits for another process's lock.
    public let busyTimeout: TimeInterval
    /// What stamps `createdAt`/`updatedAt` and the journal, and resolves relative default dates.
    public let clock: Clock

    /// How queries are written as SQL text: SQLite's or PostgreSQL's.
    let dialect: any SQLDialect
    /// Renders records for the search index; nil: nothing is indexed.
    public let indexer: (any SearchIndexing)?
    /// The name index held in memory between phrases while the file is unchanged.
    let nameCache = NameCache()

    struct Table: Sendable {
        let entity: IntentGraph.Entity
        let name: String
        /// The table's name as an identifier in SQL text.
        let quoted: String
        /// Declared properties (not the built-in ones), in order.
        let columns: [(name: String, type: ValueType)]
        /// Case identifiers in declared order, for sorting enum columns by meaning, not spelling.
        let enumOrder: [String: [String]]
        /// Enum properties' cases (titles and synonyms too), for checking imported values.
        var enumCases: [String: [IntentGraph.Enumeration.Case]] = [:]

        func type(of property: String) -> ValueType? {
            if let builtin = IntentGraph.BuiltinProperty(rawValue: property) { return builtin.type }
            return columns.first { $0.name == property }?.type
        }
    }

    /// Opens (creating when missing) the store at `path` for the entities of `graph`.
    /// `readOnly` opens without migrating or writing: for listing and exporting.
    public init(
        path: String, graph: IntentGraph, clock: Clock, readOnly: Bool = false, busyTimeout: TimeInterval = 5,
        indexer: (any SearchIndexing)? = nil
    ) throws(StoreError) {
        self.path = path
        self.indexer = indexer
        self.clock = clock
        self.busyTimeout = busyTimeout
        let isPostgres = PostgresLocation.isPostgres(path)
        let dialect: any SQLDialect = isPostgres ? PostgresDialect() : SQLiteDialect()
        self.dialect = dialect
        var tables: [QualifiedName: Table] = [:]
        for entity in graph.entities {
            var order: [String: [String]] = [:]
            for property in entity.properties {
                if let name = property.type.enumName, let enumeration = graph.enumeration(name) {
                    order[property.name] = enumeration.cases.map(\.id)
                }
            }
            tables[entity.name] = Table(
                entity: entity, name: entity.name.description, quoted: dialect.quote(entity.name.description),
                columns: entity.properties.filter { !$0.isBuiltin }.map { ($0.name, $0.type) },
                enumOrder: order)
            for property in entity.properties {
                if let name = property.type.enumName, let enumeration = graph.enumeration(name) {
                    tables[entity.name]?.enumCases[property.name] = enumeration.cases
                }
            }
        }
        self.tables = tables
        self.indexes = Self.plannedIndexes(graph: graph, tables: tables, dialect: dialect, clock: clock)

        if isPostgres {
            let location = try PostgresLocation(path)
            sqlite = nil
            postgres = try PostgresSession(location, readOnly: readOnly)
            if readOnly, (try? postgres?.executor.tableExists("_schema")) != true {
                throw .unusable(
                    path: location.description,
                    reason: "there is no store yet (it is created by the first intent that runs)")
            }
            // Opening migrates (under the schema's lock, so two instances opening at once take turns).
            if !readOnly { try migrate() }
            if !readOnly { try reindexIfDeclarationsChanged() }
            return
        }
        postgres = nil
        let fileManager = FileManager.default
        if let problem = Self.pathProblem(path) { throw .unusable(path: path, reason: problem) }
        let exists = fileManager.fileExists(atPath: path)
        if !exists {
            guard !readOnly else {
                throw .unusable(
                    path: path, reason: "there is no store yet (it is created by the first intent that runs)")
            }
            let directory = PathText.deletingLastComponent(path)
            if !directory.isEmpty {
                do { try fileManager.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
                    throw .unusable(
                        path: path, reason: "cannot create the directory \(directory): \(error.localizedDescription)")
                }
            }
        } else if !readOnly, !Self.isWritable(path) {
            throw .unusable(
                path: path,
                reason: "the file is read-only (open it for reading with 'intents store list', or make it writable)")
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.readonly = readOnly
        // A store already in WAL mode stays so: asking for it again makes GRDB write (to create a
        // non-empty -wal file), which waits for another process's write lock.
        if !readOnly, !Self.isInWALMode(path) { configuration.journalMode = .wal }
        // In WAL mode NORMAL never corrupts and loses nothing when a process dies; only a power cut
        // may drop the last commits. FULL would sync every intent to disk.
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            db.add(function: Store.foldFunction)
        }
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            sqlite = queue
            // Reading the schema is the first thing SQLite checks the header on.
            _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
        } catch {
            throw .unusable(path: path, reason: Self.reason(error, waited: busyTimeout))
        }
        if !readOnly, needsMigration() { try migrate() }
        if !readOnly { try reindexIfDeclarationsChanged() }
    }

    /// Writable by this process and not marked read-only (root may write anything; its mode still says what the owner meant).
    static func isWritable(_ path: String) -> Bool {
        let permissions = (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0o644
        return FileManager.default.isWritableFile(atPath: path) && permissions & 0o222 != 0
    }

    /// The SQLite connection, for what only SQLite does; PostgreSQL refuses with a message.
    var queue: DatabaseQueue {
        get throws(StoreError) {
            guard let sqlite else { throw .invalidData("this is not supported on a PostgreSQL store yet") }
            return sqlite
        }
    }

    /// A short, human reason for a SQLite (or PostgreSQL) error.
    static func reason(_ error: any Error, waited: TimeInterval = 5) -> String {
        if let error = error as? StoreError { return error.description }
        guard let error = error as? DatabaseError else { return PostgresSession.reason(error) }
        switch error.resultCode {
        case .SQLITE_NOTADB: return "the file is not a SQLite database"
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return "another process holds the store's lock (waited \(String(format: "%g", waited)) s)"
        case .SQLITE_READONLY: return "the file is read-only"
        case .SQLITE_CANTOPEN: return "the file cannot be opened"
        case .SQLITE_CORRUPT:
            return
                "the file is damaged (\(error.message ?? "corrupt")); 'intents store export > backup.json' copies out what can still be read, and 'intents store import backup.json --store NEW' loads it into a new store"
        case .SQLITE_FULL: return "the disk is full"
        default: return error.message ?? "\(error)"
        }
    }

    public func table(_ entity: QualifiedName) -> IntentGraph.Entity? { tables[entity]?.entity }

    // MARK: Transactions
    //
    // `Store` is `Sendable` because it holds no mutable state of its own. Its one connection is a
    // GRDB `DatabaseQueue`, which runs one access at a time on its own serial queue. Accesses nest
    // through GRDB's reentrant entry points: a `write` or `read` called inside another (on that
    // queue) gets the connection of the access it runs in, and every other thread waits for the
    // queue. So the writes inside `atomically` become savepoints of its transaction, and no other
    // thread sees or uses that transaction's connection while it is open. (This replaces a
    // `nonisolated(unsafe)` variable that every thread could read while an atomic run was open.)

    /// Runs `body` as one transaction: every `write` inside it becomes a savepoint of this one, so
    /// the whole of it lands, or none of it does (`intents run --atomic`).
    public func atomically<T>(_ body: () throws -> T) throws -> T {
        try write { _ in try body() }
    }

    /// Runs `body` in one IMMEDIATE transaction: everything it writes lands, or nothing does.
    /// Inside another `write` (or `atomically`) it is a savepoint of that transaction.
    public func write<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        if let postgres {
            do {
                return try postgres.transaction(write: true) { try body(StoreTransaction(db: $0, store: self)) }
            } catch  where PostgresSession.isDatabaseError(error) {
                throw StoreError.writeFailed(PostgresSession.reason(error))
            }
        }
        do {
            return try queue.unsafeReentrantWrite { db in
                var result: T?
                if db.isInsideTransaction {
                    try db.inSavepoint {
                        result = try body(StoreTransaction(db: SQLiteExecutor(db), store: self))
                        return .commit
                    }
                } else {
                    try db.inTransaction(.immediate) {
                        result = try body(StoreTransaction(db: SQLiteExecutor(db), store: self))
                        return .commit
                    }
                }
                return result!
            }
        } catch let error as DatabaseError {
            // A damaged file is named, with what to do, whichever access found it.
            if error.resultCode == .SQLITE_CORRUPT { throw StoreError.unusable(path: path, reason: Self.reason(error)) }
            throw StoreError.writeFailed(Self.reason(error, waited: busyTimeout))
        }
    }

    /// Runs `body` with a consistent view of the store, where nothing can be written. Inside a
    /// `write` it sees what that write has written so far.
    ///
    /// `indexed` is for a hot path that reads scattered pages of a large index (search), whose
    /// `body` only reads: on SQLite it leaves prepared statements prepared (otherwise the read sets
    /// `PRAGMA query_only` around its body, and that expires every prepared statement, so each
    /// search prepared its statements again) and reads the file through a memory map
    /// (`PRAGMA mmap_size`, this connection from now on) rather than copying each page from the
    /// OS's cache with `pread`, which was a third of a search's CPU at 1,000,000 tasks.
    public func read<T>(indexed: Bool = false, _ body: (StoreTransaction) throws -> T) throws -> T {
        if let postgres {
            do {
                return try postgres.transaction(write: false) { try body(StoreTransaction(db: $0, store: self)) }
            } catch  where PostgresSession.isDatabaseError(error) {
                throw StoreError.unusable(path: shownPath, reason: PostgresSession.reason(error))
            }
        }
        do {
            return try queue.unsafeReentrantRead { db in
                let executor = SQLiteExecutor(db)
                func run() throws -> T {
                    if db.isInsideTransaction { return try body(StoreTransaction(db: executor, store: self)) }
                    if indexed {
                        // The same value again changes nothing (SQLite remaps only when the size changes).
                        try db.cachedStatement(sql: "PRAGMA mmap_size = \(Self.indexedMapSize)").execute()
                    }
                    var result: T?
                    try db.inTransaction(.deferred) {
                        result = try body(StoreTransaction(db: executor, store: self))
                        return .commit
                    }
                    return result!
                }
                return indexed ? try run() : try db.readOnly(run)
            }
        } catch let error as DatabaseError {
            throw StoreError.unusable(path: path, reason: Self.reason(error))
        }
    }

    /// How much of the file an `indexed` read maps: SQLite's own ceiling on Linux (2 GB); pages past it
    /// are read as before.
    static let indexedMapSize = 0x7FFF_0000

    // MARK: Migration

    /// Creates what is missing and applies additive changes; refuses destructive ones.
    private func migrate() throws(StoreError) {
        do {
            if let postgres {
                try postgres.transaction(write: true) { db in try migrate(db) }
            } else {
                try queue.inTransaction(.immediate) { db in
                    try migrate(SQLiteExecutor(db))
                    return .commit
                }
            }
        } catch let refused as MigrationRefused {
            throw .destructiveChange(path: shownPath, reasons: refused.reasons)
        } catch {
            throw .unusable(path: shownPath, reason: Self.reason(error, waited: busyTimeout))
        }
    }

    /// The store as messages name it: the path, or the PostgreSQL URL without its password.
    var shownPath: String { postgres?.location.description ?? path }

    /// The migration's statements, in its transaction.
    private func migrate(_ db: any SQLExecutor) throws {
        if db.isPostgres {
            try Self.createPostgresTables(db)
        } else {
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS _schema (entity TEXT NOT NULL, property TEXT NOT NULL, type TEXT NOT NULL, PRIMARY KEY (entity, property));
                    CREATE TABLE IF NOT EXISTS _executions (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, intent TEXT NOT NULL, parameters TEXT NOT NULL,
                        dialog TEXT NOT NULL, at TEXT NOT NULL, undone INTEGER NOT NULL DEFAULT 0);
                    CREATE TABLE IF NOT EXISTS _changes (
                        execution INTEGER NOT NULL REFERENCES _executions(id), seq INTEGER NOT NULL,
                        entity TEXT NOT NULL, record TEXT NOT NULL, before TEXT, after TEXT, PRIMARY KEY (execution, seq));
                    CREATE TABLE IF NOT EXISTS _donations (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, intent TEXT NOT NULL, parameters TEXT NOT NULL, at TEXT NOT NULL);
                    CREATE VIRTUAL TABLE IF NOT EXISTS _names USING fts5(
                        entity UNINDEXED, record UNINDEXED, name, tokenize = 'unicode61 remove_diacritics 2');
                    -- Which full-text rows belong to a record: FTS5 cannot index its UNINDEXED columns.
                    CREATE TABLE IF NOT EXISTS _name_rows (
                        entity TEXT NOT NULL, record TEXT NOT NULL, name_row INTEGER NOT NULL, PRIMARY KEY (entity, record, name_row)) WITHOUT ROWID;
                    """)
            try Self.createHandoffTables(db)
            try Self.createConversationTable(db)
            try Self.createLiveActivityTables(db)
            try Self.createWidgetInstanceTables(db)
        }
        var refusals: [String] = []
        for table in tables.values.sorted(by: { $0.name < $1.name }) {
            refusals += try migrate(table, db)
        }
        if !refusals.isEmpty { throw MigrationRefused(reasons: refusals) }
        try migratePresence(db)
        for table in tables.values { try noteCaseSignature(table, db) }
        try Self.migrateNameIndex(db)
        if db.isPostgres { try Self.ensurePostgresNameGeneration(db) }
        try migrateIndexes(db)
        try Self.noteInternalSchema(db)
    }

    private struct MigrationRefused: Error { let reasons: [String] }

    private func migrate(_ table: Table, _ db: any SQLExecutor) throws -> [String] {
        let entity = table.entity.name
        var stored: [String: String] = [:]
        for row in try db.fetchAll(
            sql: "SELECT property, type FROM _schema WHERE entity = ?", arguments: [table.name])
        {
            stored[row["property"]] = row["type"]
        }
        func record(_ property: String, _ type: ValueType) throws {
            try db.execute(
                sql: db.isPostgres
                    ? "INSERT INTO _schema (entity, property, type) VALUES (?, ?, ?) ON CONFLICT (entity, property) DO UPDATE SET type = excluded.type"
                    : "INSERT OR REPLACE INTO _schema (entity, property, type) VALUES (?, ?, ?)",
                arguments: [table.name, property, Columns.key(type)])
        }
        guard try db.tableExists(table.name) else {
            let builtins = IntentGraph.BuiltinProperty.allCases.map { builtin in
                let key = builtin == .id ? " PRIMARY KEY" : ""
                return "\(dialect.quote(builtin.rawValue)) \(dialect.columnType(builtin.type))\(key) NOT NULL"
            }
            // PostgreSQL has no rowid: `_row` keeps the order records were written in.
            let order = db.isPostgres ? ["\"_row\" BIGSERIAL"] : []
            let columns =
                builtins + table.columns.map { "\(dialect.quote($0.name)) \(dialect.columnType($0.type))" } + order
            try db.execute(sql: "CREATE TABLE \(table.quoted) (\(columns.joined(separator: ", ")))")
            try db.execute(sql: "DELETE FROM _schema WHERE entity = ?", arguments: [table.name])
            for column in table.columns { try record(column.name, column.type) }
            return []
        }
        func addColumn(_ column: (name: String, type: ValueType)) throws {
            let definition = "\(dialect.quote(column.name)) \(dialect.columnType(column.type))"
            try db.execute(sql: "ALTER TABLE \(table.quoted) ADD COLUMN \(definition)")
        }
        func fill(_ column: (name: String, type: ValueType), with value: Value) throws {
            try db.execute(
                sql: "UPDATE \(table.quoted) SET \(dialect.quote(column.name)) = ?",
                arguments: [Columns.encode(value, as: column.type, clock: clock)])
        }
        var refusals: [String] = []
        let rows = try db.fetchValue(Int.self, sql: "SELECT count(*) FROM \(table.quoted)") ?? 0
        func holdingData(_ column: String) throws -> Int {
            let sql = "SELECT count(*) FROM \(table.quoted) WHERE \(dialect.quote(column)) IS NOT NULL"
            return try db.fetchValue(Int.self, sql: sql) ?? 0
        }
        for column in table.columns {
            let property = table.entity.property(column.name)
            if let storedType = stored[column.name] {
                guard storedType != Columns.key(column.type) else { continue }
                let holding = try holdingData(column.name)
                if holding > 0 {
                    refusals.append(
                        "\(entity.name).\(column.name) changed type from \(Self.spell(storedType)) to \(column.type), and \(holding) record\(holding == 1 ? "" : "s") hold\(holding == 1 ? "s" : "") a value"
                    )
                } else {
                    // Empty: the column is made again with the new type's affinity (a TEXT column
                    // would keep integers as text).
                    try db.execute(sql: "ALTER TABLE \(table.quoted) DROP COLUMN \(dialect.quote(column.name))")
                    try addColumn(column)
                    if let value = property?.defaultValue, rows > 0 {
                        try fill(column, with: value)
                    }
                    try record(column.name, column.type)
                }
            } else {
                // A new property: optional or defaulted ones are added; a required one only to an empty table.
                if rows > 0, property?.isOptional == false, property?.defaultValue == nil {
                    refusals.append(
                        "\(entity.name).\(column.name) is new and required, but the \(rows) stored record\(rows == 1 ? "" : "s") have no value for it (give it a default or make it optional)"
                    )
                    continue
                }
                try addColumn(column)
                if let value = property?.defaultValue, rows > 0 {
                    try fill(column, with: value)
                }
                try record(column.name, column.type)
            }
        }
        refusals += try removedCasesInUse(table, db)
        let declared = Set(table.columns.map(\.name))
        for (property, type) in stored.sorted(by: { $0.key < $1.key }) where !declared.contains(property) {
            let holding = try holdingData(property)
            if holding > 0 {
                refusals.append(
                    "\(entity.name).\(property) (\(Self.spell(type))) was removed, but \(holding) record\(holding == 1 ? "" : "s") hold\(holding == 1 ? "s" : "") a value"
                )
            } else {
                try db.execute(sql: "ALTER TABLE \(table.quoted) DROP COLUMN \(dialect.quote(property))")
                try db.execute(
                    sql: "DELETE FROM _schema WHERE entity = ? AND property = ?", arguments: [table.name, property])
            }
        }
        return refusals
    }

    /// `enum:Radar.RadarPosition` → `RadarPosition`, for messages.
    private static func spell(_ key: String) -> String {
        key.replacingOccurrences(of: "enum:", with: "").replacingOccurrences(of: "entity:", with: "")
            .split(separator: ".").last.map(String.init) ?? key
    }
}
