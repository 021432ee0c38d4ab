import Foundation
import GRDB
import GRDBSQLite

/// The one connection a transaction runs its statements on, SQLite's or PostgreSQL's: the store's
/// logic (records, journal, names, search, donations, handoff, conversations) is written once over
/// it. Statements are written with `?` placeholders; values are bound, never written into the text.
/// A backend's own SQL (full-text search, schema questions) asks `isPostgres`.
protocol SQLExecutor: AnyObject {
    /// Whether the statements go to PostgreSQL (else SQLite).
    var isPostgres: Bool { get }
    /// Runs a statement (or, without arguments, several separated by `;`); returns how many rows it changed.
    @discardableResult
    func execute(sql: String, arguments: [(any DatabaseValueConvertible)?]) throws -> Int
    /// Runs a write whose row count nobody reads. PostgreSQL may hold it, inside a write
    /// transaction, and send it with the next ones in one round trip: before the next statement
    /// whose result is read, the next savepoint or the commit, where its failure is thrown (the
    /// transaction or savepoint then rolls back as for any failed write). SQLite runs it now.
    func executeLater(sql: String, arguments: [(any DatabaseValueConvertible)?]) throws
    /// The rows a query gives, read whole.
    func fetchAll(sql: String, arguments: [(any DatabaseValueConvertible)?]) throws -> [SQLRow]
    /// Calls `body` with each row in turn (SQLite: one row in memory at a time).
    func forEachRow(sql: String, arguments: [(any DatabaseValueConvertible)?], _ body: (SQLRow) throws -> Void) throws
    /// Runs an INSERT and returns the new row's `column` (its integer key).
    func insert(sql: String, arguments: [(any DatabaseValueConvertible)?], returning column: String) throws -> Int64
    /// Whether a table of that name exists (in the user's schema on PostgreSQL).
    func tableExists(_ name: String) throws -> Bool
    /// A table's column names.
    func columns(in table: String) throws -> [String]
}

extension SQLExecutor {
    @discardableResult
    func execute(sql: String) throws -> Int { try execute(sql: sql, arguments: []) }

    func executeLater(sql: String, arguments: [(any DatabaseValueConvertible)?]) throws {
        try execute(sql: sql, arguments: arguments)
    }

    func fetchAll(sql: String) throws -> [SQLRow] { try fetchAll(sql: sql, arguments: []) }

    func fetchOne(sql: String, arguments: [(any DatabaseValueConvertible)?] = []) throws -> SQLRow? {
        try fetchAll(sql: sql, arguments: arguments).first
    }

    /// The first column of the first row, as `T`; nil without a row or for NULL.
    func fetchValue<T: DatabaseValueConvertible>(
        _ type: T.Type, sql: String, arguments: [(any DatabaseValueConvertible)?] = []
    ) throws -> T? {
        guard let row = try fetchAll(sql: sql, arguments: arguments).first, let value = row.values.first else {
            return nil
        }
        return T.fromDatabaseValue(value)
    }

    /// The first column of every row, as `T` (NULLs left out).
    func fetchValues<T: DatabaseValueConvertible>(
        _ type: T.Type, sql: String, arguments: [(any DatabaseValueConvertible)?] = []
    ) throws -> [T] {
        try fetchAll(sql: sql, arguments: arguments).compactMap { $0.values.first.flatMap(T.fromDatabaseValue) }
    }
}

/// The column names of a result, shared by its rows.
final class SQLColumns: @unchecked Sendable {
    let names: [String]
    let index: [String: Int]

    init(_ names: [String]) {
        self.names = names
        var index: [String: Int] = [:]
        for (position, name) in names.enumerated() where index[name] == nil { index[name] = position }
        self.index = index
    }
}

/// One row of a result: its values by position or by column name, as GRDB's `Row` gives them.
struct SQLRow {
    let columns: SQLColumns
    let values: [DatabaseValue]

    var columnNames: [String] { columns.names }

    /// The value of a column as stored; nil when the row has no such column.
    func value(_ name: String) -> DatabaseValue? {
        columns.index[name].map { values[$0] }
    }

    /// A column's value as `T` (an optional type reads NULL and a missing column as nil), as
    /// GRDB's `Row` reads it.
    subscript<T: DatabaseValueConvertible>(_ name: String) -> T {
        guard let position = columns.index[name] else {
            guard let missing = T.fromMissingColumn() else { fatalError("no column \(name) in the row") }
            return missing
        }
        return Self.convert(values[position], name)
    }

    subscript<T: DatabaseValueConvertible>(_ position: Int) -> T {
        Self.convert(values[position], "#\(position)")
    }

    private static func convert<T: DatabaseValueConvertible>(_ value: DatabaseValue, _ column: String) -> T {
        guard let converted = T.fromDatabaseValue(value) else {
            fatalError("column \(column) holds \(value), not a \(T.self)")
        }
        return converted
    }
}

/// The statements as arguments GRDB binds. Given to GRDB as they are: mapped to `[DatabaseValue]`
/// first, they took GRDB's `some Sequence<some DatabaseValueConvertible>` initializer, which is not
/// specialized across modules and builds a key path on every call (`swift_getKeyPath`, about 15,000
/// instructions a statement: `store import` of 10,000 tasks +41 % in `make bench-check`). SQLite's
/// statements do not go through here at all (`SQLiteExecutor.bound`); PostgreSQL's binding is its own.
func statementArguments(_ values: [(any DatabaseValueConvertible)?]) -> StatementArguments {
    StatementArguments(values)
}

/// SQLite through GRDB: statements are prepared once per connection (GRDB's statement cache), and
/// their arguments bound by type straight into SQLite's statement: GRDB's generic `StatementArguments`
/// initializers are not specialized across modules and cost about 5,700 instructions a statement,
/// 12 % of a `store import` (BENCHMARKS.md, 2026-11-26). GRDB still runs every statement (its
/// transaction bookkeeping, its statement cache dropping a statement that failed).
final class SQLiteExecutor: SQLExecutor {
    let db: Database

    init(_ db: Database) { self.db = db }

    var isPostgres: Bool { false }

    /// The statements GRDB was told once that their arguments are bound (`setUncheckedArguments`,
    /// which costs thousands of instructions a call), with their result's column names once read:
    /// held, so that none is freed and another made at its address while it is here.
    private var bindsItself: [ObjectIdentifier: (statement: Statement, columns: SQLColumns?)] = [:]

    /// The column names of a cached statement's rows, read from SQLite once (again if their number
    /// changed: SQLite prepares a statement anew after a change of the schema).
    private func columns(of statement: Statement) -> SQLColumns {
        let key = ObjectIdentifier(statement)
        if let columns = bindsItself[key]?.columns, columns.names.count == statement.columnCount { return columns }
        let columns = SQLColumns(statement.columnNames)
        if bindsItself[key] != nil { bindsItself[key]?.columns = columns }
        return columns
    }

    /// `statement` with `arguments` bound (strings and blobs copied by SQLite), ready to run; nil when
    /// they are not one value per `?` of the statement, for GRDB to refuse with its own message.
    /// `cached`: GRDB's cached statement, used again (else one made for this call alone).
    private func bound(_ statement: Statement, _ arguments: [(any DatabaseValueConvertible)?], cached: Bool = true)
        throws -> Statement?
    {
        let handle = statement.sqliteStatement
        guard Int(sqlite3_bind_parameter_count(handle)) == arguments.count else { return nil }
        // Reset here, where a failure can be thrown: GRDB's `setUncheckedArguments` resets again and
        // traps on an error (a statement whose last step failed; GRDB drops those from its cache).
        let reset = sqlite3_reset(handle)
        guard reset == SQLITE_OK else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: reset), message: db.lastErrorMessage, sql: statement.sql)
        }
        if !cached || bindsItself[ObjectIdentifier(statement)] == nil {
            if cached { bindsItself[ObjectIdentifier(statement)] = (statement, nil) }
            // No arguments of GRDB's: from now on it runs the statement with the bindings set below.
            // (Only this executor binds arguments to its cached statements.)
            statement.setUncheckedArguments(StatementArguments())
        }
        for (position, argument) in arguments.enumerated() {
            let index = CInt(position + 1)
            // Through the value's own `databaseValue` (a protocol requirement), never a dynamic cast.
            let code =
                if let argument { Self.bind(argument.databaseValue, to: handle, at: index) } else {
                    sqlite3_bind_null(handle, index)
                }
            guard code == SQLITE_OK else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: statement.sql)
            }
        }
        return statement
    }

    /// SQLite's "copy the bytes now" destructor.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// Binds one value. Text goes in as its UTF-8 bytes in place, with their length: GRDB's own
    /// `bind` makes a C string of it first (`utf8CString`, an allocation and a release a string: 6 %
    /// of a `store import`, BENCHMARKS.md 2026-11-26, `speed5`).
    private static func bind(_ value: DatabaseValue, to handle: OpaquePointer?, at index: CInt) -> CInt {
        switch value.storage {
        case .null: return sqlite3_bind_null(handle, index)
        case .int64(let number): return sqlite3_bind_int64(handle, index, number)
        case .double(let number): return sqlite3_bind_double(handle, index, number)
        case .string(var text):
            return text.withUTF8 { bytes in
                // An empty buffer may have no address, and a null pointer would bind NULL.
                guard let base = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_bind_text(handle, index, "", 0, transient)
                }
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text(handle, index, $0, CInt(bytes.count), transient)
                }
            }
        case .blob: return handle.map { value.bind(to: $0, at: index) } ?? SQLITE_MISUSE
        }
    }

    /// The rows of a statement whose arguments are bound, each read whole from SQLite's columns.
    private func rows(_ statement: Statement, columns: SQLColumns, _ body: (SQLRow) throws -> Void) throws {
        let handle = statement.sqliteStatement
        let count = CInt(statement.columnCount)
        let cursor = try Row.fetchCursor(statement)
        while try cursor.next() != nil {
            var values: [DatabaseValue] = []
            values.reserveCapacity(Int(count))
            for column in 0..<count { values.append(DatabaseValue(sqliteStatement: handle, index: column)) }
            try body(SQLRow(columns: columns, values: values))
        }
    }

    @discardableResult
    func execute(sql: String, arguments: [(any DatabaseValueConvertible)?]) throws -> Int {
        if arguments.isEmpty {
            try db.execute(sql: sql)
        } else {
            let statement = try db.cachedStatement(sql: sql)
            if let statement = try bound(statement, arguments) {
                try statement.execute()
            } else {
                try statement.execute(arguments: statementArguments(arguments))
            }
        }
        return db.changesCount
    }

    func fetchAll(sql: String, arguments: [(any DatabaseValueConvertible)?]) throws -> [SQLRow] {
        let statement = try db.cachedStatement(sql: sql)
        guard let statement = try bound(statement, arguments) else {
            let columns = SQLColumns(statement.columnNames)
            return try Row.fetchAll(statement, arguments: statementArguments(arguments)).map {
                SQLRow(columns: columns, values: Array($0.databaseValues))
            }
        }
        var result: [SQLRow] = []
        try rows(statement, columns: columns(of: statement)) { result.append($0) }
        return result
    }

    func forEachRow(sql: String, arguments: [(any DatabaseValueConvertible)?], _ body: (SQLRow) throws -> Void) throws {
        // A statement of its own (not the cache's): `body` may run other statements, this one among them.
        let statement = try db.makeStatement(sql: sql)
        guard let statement = try bound(statement, arguments, cached: false) else {
            let columns = SQLColumns(statement.columnNames)
            let cursor = try Row.fetchCursor(statement, arguments: statementArguments(arguments))
            while let row = try cursor.next() { try body(SQLRow(columns: columns, values: Array(row.databaseValues))) }
            return
        }
        try rows(statement, columns: SQLColumns(statement.columnNames), body)
    }

    func insert(sql: String, arguments: [(any DatabaseValueConvertible)?], returning column: String) throws -> Int64 {
        try execute(sql: sql, arguments: arguments)
        return db.lastInsertedRowID
    }

    /// Asked of `sqlite_master` directly: GRDB's `tableExists` reads and caches the whole schema
    /// first, 3 M instructions of a cold `say` that asks about one table (the store creates no
    /// temporary tables, whose names GRDB would also look at).
    func tableExists(_ name: String) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE)",
            arguments: [name]) ?? false
    }

    func columns(in table: String) throws -> [String] { try db.columns(in: table).map(\.name) }
}
