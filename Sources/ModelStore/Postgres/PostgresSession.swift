import Foundation
import GRDB
import IntentModel
import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// One connection to PostgreSQL for one store, used as GRDB's `DatabaseQueue` is used for SQLite:
/// one access at a time (a recursive lock), nested writes as savepoints of the outer transaction.
///
/// postgres-nio is asynchronous and the store's API is not: each statement is sent on the
/// connection's event loop (the stores' own, `group`) and the calling thread waits for its future. The calling thread is
/// never an event loop thread (the server runs the engine on NIO's blocking thread pool), and the
/// future completes on the event loop, so the wait needs nothing from the thread that waits.
///
/// Writers of one schema are serialized across processes by a transaction-level advisory lock,
/// as SQLite's write lock serializes them: two instances incrementing one record lose nothing.
///
/// Fewer round trips (postgres-nio sends one statement per round trip, and the extended protocol
/// takes one statement per message): inside a write transaction, writes whose row count nobody
/// reads (`PostgresExecutor.executeLater`: a record, its name, its search words, the counts, the
/// conversation) are held, and sent together as one call of `pg_temp.intents_run` (a function of
/// the connection's own that runs each with its values) just before the next statement whose result
/// is needed, the next savepoint or the commit; the schema's lock is the first of them. Each held
/// write is a statement the connection prepared (`PREPARE`) the first time it was held, so the
/// server parses and plans it once per connection, not once per request. Statements
/// whose result nobody reads (`BEGIN`, `SAVEPOINT`, a read-only `COMMIT`) are sent without waiting:
/// the connection sends each after the one before on its event loop, and the calling thread waits
/// once, at the next statement it needs, for all of them (the first failure is the one thrown). A
/// write's `COMMIT` is always waited for: a write returns only once it is committed.
final class PostgresSession: @unchecked Sendable {
    let location: PostgresLocation
    /// Every transaction read-only, the schema never created: a store opened for a dry run or a listing.
    let readOnly: Bool
    private let lock = NSRecursiveLock()
    private var connection: PostgresConnection?
    private var depth = 0
    private var savepoints = 0
    /// Whether the open transaction writes (its writes may be held).
    private var writing = false
    /// Statements sent whose results nobody has waited for yet, oldest first.
    private var inFlight: [EventLoopFuture<Void>] = []
    /// Writes held back in the open write transaction (the names of their prepared statements and
    /// how many values each takes), and those values as text, in order.
    private var held: [String] = []
    private var heldCounts: [Int32] = []
    private var heldValues: [PostgresData] = []
    /// The statements this connection has prepared for held writes (`PREPARE`), by their text and
    /// the types of their values: the name of each.
    private var prepared: [String: String] = [:]
    /// At most this many are prepared on a connection: then all are dropped and prepared again.
    static let preparedLimit = 500
    /// The reads this connection prepared (postgres-nio's `prepare(query:)`: a statement of the
    /// connection, parsed once, its plan kept by PostgreSQL), by their text and their values'
    /// kinds; and the reads it has run once, unprepared: a read is prepared when it comes again.
    private var reads: [String: PreparedQuery] = [:]
    private var readsSeen: Set<String> = []
    /// The held writes' call (`pg_temp.intents_run`), prepared when the connection is made.
    private var runHeld: PreparedQuery?
    /// How many statements this connection has prepared: each gets a name of its own.
    private var preparedNames = 0
    /// How many statements the store's transactions and reads have sent (what a request costs is
    /// mostly its round trips; for tests).
    private(set) var statementsSent = 0
    /// How many write transactions (or groups) this session has committed.
    private var commits = 0
    var committedWrites: Int { withLock { commits } }
    /// At most this many writes are held: then they are sent (still without waiting).
    static let heldLimit = 64
    private(set) lazy var executor = PostgresExecutor(session: self)
    static let logger = Logger(label: "intents.store.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    /// The stores' own event loop: statements are not queued behind the HTTP server's work on
    /// NIO's shared loops (one thread: each statement's work there is small).
    static let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    init(_ location: PostgresLocation, readOnly: Bool = false) throws(StoreError) {
        self.location = location
        self.readOnly = readOnly
        do {
            try withConnection { _ in }
        } catch {
            throw .unusable(path: location.description, reason: Self.reason(error))
        }
    }

    deinit {
        if let connection, !connection.isClosed {
            // No thread of any event loop may wait (a server's handlers run on its loops, and an
            // engine closed there closes its store): there the connection closes by itself.
            if MultiThreadedEventLoopGroup.currentEventLoop != nil {
                _ = connection.close() as EventLoopFuture<Void>
            } else {
                try? (connection.close() as EventLoopFuture<Void>).wait()
            }
        }
    }

    /// The open connection (made again when it was lost), with the schema as its search path.
    private func connected() throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        let configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: .disable)
        runHeld = nil
        let connection = try PostgresConnection.connect(
            on: Self.group.next(), configuration: configuration, id: 1,
            logger: Self.logger
        ).wait()
        do {
            let schema = "\"\(location.schema)\""
            // Two processes creating one schema at once: one waits for the other.
            if !readOnly {
                try Self.run(
                    """
                    BEGIN; SELECT pg_advisory_xact_lock(hashtext('intents.schema')); CREATE SCHEMA IF NOT EXISTS \(schema); COMMIT
                    """, on: connection)
            }
            try Self.run("SET search_path TO \(schema); SET TIME ZONE 'UTC'", on: connection)
            if !readOnly {
                try Self.run(Self.runFunction, on: connection)
                try Self.run(
                    "PREPARE intents_lock AS SELECT pg_advisory_xact_lock(hashtext(current_schema()))", on: connection)
                runHeld = try connection.prepare(query: Self.runHeldCall).wait()
            }
        } catch {
            try? connection.close().wait()
            throw error
        }
        // What was in flight on a lost connection failed with it: not the new one's concern.
        inFlight.removeAll()
        dropHeld()
        prepared.removeAll()
        preparedNames = 0
        reads.removeAll()
        readsSeen.removeAll()
        self.connection = connection
        return connection
    }

    /// The connection's own function that runs held writes: `names` are prepared statements of the
    /// connection, the one at `i` taking the next `counts[i]` of `arguments` (text, each quoted by
    /// the server's `quote_nullable` and read as the type the statement declared for it). A
    /// prepared statement keeps its plan: `EXECUTE` of one plans nothing again, where running each
    /// write's own text would parse and plan it on every request. In `pg_temp`: nothing is added to
    /// the store's schema, and it goes with the connection.
    static let runFunction = """
        CREATE OR REPLACE FUNCTION pg_temp.intents_run(names text[], counts int4[], arguments text[]) RETURNS void
        LANGUAGE plpgsql AS $$
        DECLARE
            i int4;
            j int4;
            k int4 := 0;
            statement text;
        BEGIN
            FOR i IN 1 .. coalesce(array_length(names, 1), 0) LOOP
                statement := 'EXECUTE ' || names[i];
                IF counts[i] > 0 THEN
                    statement := statement || '(';
                    FOR j IN 1 .. counts[i] LOOP
                        IF j > 1 THEN statement := statement || ', '; END IF;
                        statement := statement || quote_nullable(arguments[k + j]);
                    END LOOP;
                    statement := statement || ')';
                    k := k + counts[i];
                END IF;
                EXECUTE statement;
            END LOOP;
        END
        $$
        """

    /// The call that runs held writes, its values typed (a prepared statement takes no types from
    /// its first values).
    static let runHeldCall = "SELECT pg_temp.intents_run($1::text[], $2::int4[], $3::text[])"

    /// Runs `body` holding the session's lock.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// The connection: made again when lost between transactions; inside one, its loss is an
    /// error (a new connection would run the rest of it outside any transaction).
    private func current() throws -> PostgresConnection {
        guard depth > 0 else { return try connected() }
        guard let connection, !connection.isClosed else {
            throw StoreError.writeFailed("the connection to the server was lost during a transaction")
        }
        return connection
    }

    /// Runs `body` on the connection once everything sent before has settled.
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        let connection = try current()
        sendHeld(on: connection)
        try settle()
        return try body(connection)
    }

    /// Sends the held writes, then `sql`, and waits for all of it: `sql`'s result, or the first failure.
    func query(_ sql: String, _ binds: [PostgresData]) throws -> PostgresQueryResult {
        lock.lock()
        defer { lock.unlock() }
        let connection = try current()
        sendHeld(on: connection)
        statementsSent += 1
        let result = connection.query(sql, binds)
        inFlight.append(result.map { _ in })
        try settle()
        return try result.wait()
    }

    /// Sends the held writes, then the read `sql` (`?` placeholders) with `values`, and waits for
    /// all of it: the read's rows, or the first failure. A read the connection has run before is
    /// run as a statement the connection prepared for it (parsed once; PostgreSQL keeps its plan
    /// as it does for any prepared statement); `prepared` says so: its cells are in binary format
    /// though postgres-nio labels them text (it takes their formats from `Describe`, which cannot
    /// know them, and always asks for binary). `unprepared()` is the read's text for
    /// postgres-nio's unnamed statement, values `$1…` bound with their types.
    func fetch(
        _ sql: String, _ values: [DatabaseValue], unprepared: () -> String
    ) throws -> (rows: [PostgresRow], prepared: Bool) {
        lock.lock()
        defer { lock.unlock() }
        let connection = try current()
        sendHeld(on: connection)
        let key = Self.key(sql, values)
        if let statement = try reads[key]
            ?? (readsSeen.contains(key) ? prepareRead(sql, values, key, on: connection) : nil)
        {
            statementsSent += 1
            // NULLs are written into the prepared text.
            let result = statement.execute(values.compactMap { $0.isNull ? nil : PostgresExecutor.data($0) })
            inFlight.append(result.map { _ in })
            do {
                try settle()
                return (try result.wait(), true)
            } catch let error where depth == 0 && Self.isChangedResult(error) {
                // A column's type changed since it was prepared (another process migrated the
                // schema): prepared again from now on, and read once more unprepared. Inside a
                // transaction the failure is the transaction's, as any failed statement is.
                forgetReads()
            }
        } else if Self.isPreparable(sql) {
            if readsSeen.count >= Self.preparedLimit * 4 { readsSeen.removeAll() }
            readsSeen.insert(key)
        }
        statementsSent += 1
        let result = connection.query(unprepared(), values.map(PostgresExecutor.data))
        inFlight.append(result.map { _ in })
        try settle()
        return (try result.wait().rows, false)
    }

    /// Whether a read may be prepared: not one that selects `*` (`count(*)` aside). A prepared
    /// statement's columns may not change: after another process added a column to the table,
    /// PostgreSQL would refuse it, inside a transaction too, where it cannot be read again.
    static func isPreparable(_ sql: String) -> Bool {
        var previous: UInt8 = 0
        for byte in sql.utf8 {
            if byte == UInt8(ascii: "*"), previous != UInt8(ascii: "(") { return false }
            previous = byte
        }
        return true
    }

    /// A statement's key among those prepared: its text and its values' kinds.
    private static func key(_ sql: String, _ values: [DatabaseValue]) -> String {
        var key = sql
        key.append("\u{0}")
        for value in values { key.append(PostgresExecutor.kind(of: value)) }
        return key
    }

    /// Prepares a read for this connection and waits for it (and for what was in flight before it).
    private func prepareRead(
        _ sql: String, _ values: [DatabaseValue], _ key: String, on connection: PostgresConnection
    ) throws -> PreparedQuery {
        if reads.count >= Self.preparedLimit { forgetReads() }
        try settle()
        let statement = try connection.prepare(query: PostgresExecutor.preparing(sql, values, casting: true).text)
            .wait()
        statementsSent += 1
        reads[key] = statement
        readsSeen.remove(key)
        return statement
    }

    /// Deallocates every read this connection prepared (without waiting: they are closed in order,
    /// before anything sent after).
    private func forgetReads() {
        for statement in reads.values { _ = statement.deallocate() }
        reads.removeAll()
        readsSeen.removeAll()
    }

    /// Whether `error` is PostgreSQL refusing a prepared statement whose result's columns changed
    /// (`cached plan must not change result type`).
    static func isChangedResult(_ error: any Error) -> Bool {
        if case .server(let response)? = error as? PostgresError {
            return response.fields[.sqlState] == "0A000"
                && (response.fields[.message] ?? "").contains("cached plan must not change result type")
        }
        if let error = error as? PSQLError {
            return error.serverInfo?[.sqlState] == "0A000"
                && (error.serverInfo?[.message] ?? "").contains("cached plan must not change result type")
        }
        return false
    }

    /// Holds a write of the open write transaction, to be sent with the next ones; false (nothing
    /// held) outside a write transaction: the caller runs it now. The first time the connection
    /// holds a statement (with these types of values), it prepares it, and waits for that.
    func hold(_ sql: String, _ values: [DatabaseValue]) throws -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard depth > 0, writing, let connection else { return false }
        try holdPrepared(sql, values, on: connection)
        return true
    }

    /// Holds `sql` with `values` as a call of the connection's prepared statement for it.
    private func holdPrepared(_ sql: String, _ values: [DatabaseValue], on connection: PostgresConnection) throws {
        // The statement's name by the write's text and its values' kinds: the text is read for
        // its `?` only the first time.
        var key = sql
        key.append("\u{0}")
        var texts: [PostgresData] = []
        texts.reserveCapacity(values.count)
        for value in values {
            guard let (text, kind) = PostgresExecutor.text(of: value) else {
                key.append("n")
                continue
            }
            key.append(kind)
            texts.append(PostgresData(string: text))
        }
        let name = try prepared[key] ?? prepare(PostgresExecutor.preparing(sql, values), key: key, on: connection)
        held.append(name)
        heldCounts.append(Int32(texts.count))
        heldValues.append(contentsOf: texts)
        if held.count >= Self.heldLimit { sendHeld(on: connection) }
    }

    /// Prepares `text` (values `$1…` of `types`) on the connection and waits for it (and for what
    /// was in flight before it): a statement prepared stays prepared, whatever the transaction
    /// does after, so only one known to exist is ever executed.
    private func prepare(
        _ statement: (text: String, types: [String]), key: String, on connection: PostgresConnection
    ) throws -> String {
        let (text, types) = statement
        // The held writes name statements that may be deallocated here: they go first.
        sendHeld(on: connection)
        if prepared.count >= Self.preparedLimit {
            for name in prepared.values { send("DEALLOCATE \(name)", on: connection) }
            prepared.removeAll()
        }
        preparedNames += 1
        let name = "intents_w\(preparedNames)"
        let parameters = types.isEmpty ? "" : "(" + types.joined(separator: ", ") + ")"
        send("PREPARE \(name)\(parameters) AS \(text)", on: connection)
        try settle()
        prepared[key] = name
        return name
    }

    /// Sends `sql` (one statement without values) without waiting for its result.
    private func send(_ sql: String, on connection: PostgresConnection) {
        statementsSent += 1
        inFlight.append(connection.query(sql, []).map { _ in })
    }

    /// Sends the held writes as one statement, without waiting.
    private func sendHeld(on connection: PostgresConnection) {
        guard !held.isEmpty else { return }
        let names = PostgresData(array: held.map { PostgresData(string: $0) }, elementType: .text)
        let counts = PostgresData(array: heldCounts.map { PostgresData(int32: $0) }, elementType: .int4)
        let values = PostgresData(array: heldValues, elementType: .text)
        dropHeld(keepingCapacity: true)
        statementsSent += 1
        if let runHeld {
            inFlight.append(runHeld.execute([names, counts, values]).map { _ in })
        } else {
            inFlight.append(connection.query(Self.runHeldCall, [names, counts, values]).map { _ in })
        }
    }

    /// Holds the schema's lock (writers of one schema one at a time, across processes): the
    /// statement the connection prepared when it was made.
    private func holdSchemaLock() {
        held.append("intents_lock")
        heldCounts.append(0)
    }

    /// Waits for every statement in flight, oldest first; throws the first failure once all have settled.
    private func settle() throws {
        guard !inFlight.isEmpty else { return }
        let sent = inFlight
        inFlight.removeAll(keepingCapacity: true)
        var failure: (any Error)?
        for future in sent {
            do { _ = try future.wait() } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }

    /// Whether this thread is inside a transaction of this session.
    var isInsideTransaction: Bool {
        lock.lock()
        defer { lock.unlock() }
        return depth > 0
    }

    /// Runs `body` in a transaction: a write takes the schema's advisory lock (writers one at a
    /// time, as in SQLite); a read sees one snapshot and may not write. Inside another transaction
    /// of this session, a write is a savepoint of it and a read runs in it.
    func transaction<T>(write: Bool, _ body: (PostgresExecutor) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        let connection = try current()
        if depth > 0, !write {
            return try body(executor)
        }
        if depth == 0, groupOpen, write, !readOnly {
            // The group's first write begins its transaction, which holds nothing else yet.
            beginGroup(on: connection)
            return try beginningGroup(body, on: connection)
        }
        let savepoint: String?
        if depth > 0 {
            savepoints += 1
            savepoint = "s\(savepoints)"
            sendHeld(on: connection)
            send("SAVEPOINT \(savepoint!)", on: connection)
        } else {
            savepoint = nil
            writing = write && !readOnly
            if writing {
                send("BEGIN", on: connection)
                // The schema's lock before anything else of the transaction reaches the server.
                holdSchemaLock()
            } else {
                send("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", on: connection)
            }
        }
        depth += 1
        defer {
            depth -= 1
            if depth == 0 { writing = false }
        }
        do {
            let result = try body(executor)
            sendHeld(on: connection)
            if let savepoint {
                // A savepoint returns once its writes are checked.
                send("RELEASE SAVEPOINT \(savepoint)", on: connection)
                try settle()
            } else if writing {
                try commit(on: connection)
            } else {
                // A read's `COMMIT` is waited for with the next statement.
                send("COMMIT", on: connection)
            }
            return result
        } catch {
            if let savepoint {
                dropHeld()
                send("ROLLBACK TO SAVEPOINT \(savepoint)", on: connection)
                send("RELEASE SAVEPOINT \(savepoint)", on: connection)
                try? settle()
            } else {
                rollBack(on: connection)
            }
            throw error
        }
    }

    /// The write that began the group's transaction: no savepoint of its own (the transaction holds
    /// nothing but this write, so a savepoint would only cost a subtransaction and two statements).
    /// It returns once its writes are checked, as a savepoint does; when it fails, the transaction
    /// rolls back whole and the group is open but not begun, as before this write.
    private func beginningGroup<T>(_ body: (PostgresExecutor) throws -> T, on connection: PostgresConnection) throws
        -> T
    {
        do {
            let result = try body(executor)
            sendHeld(on: connection)
            try settle()
            return result
        } catch {
            rollBack(on: connection)
            depth = 0
            writing = false
            groupBegun = false
            throw error
        }
    }

    /// Forgets the writes held for the next round trip.
    private func dropHeld(keepingCapacity: Bool = false) {
        held.removeAll(keepingCapacity: keepingCapacity)
        heldCounts.removeAll(keepingCapacity: keepingCapacity)
        heldValues.removeAll(keepingCapacity: keepingCapacity)
    }

    /// Rolls the transaction back, without what is held, and waits for it: the error that led here
    /// is the one to throw, not what the rollback answers.
    private func rollBack(on connection: PostgresConnection) {
        dropHeld()
        send("ROLLBACK", on: connection)
        try? settle()
    }

    /// Sends `COMMIT` after what is held and waits for all of it. A transaction that a failed
    /// statement had aborted answers `COMMIT` with `ROLLBACK`: that is a failure, never a commit.
    private func commit(on connection: PostgresConnection) throws {
        statementsSent += 1
        let commit = connection.query("COMMIT", [])
        inFlight.append(commit.map { _ in })
        try settle()
        let tag = try commit.wait().metadata.command
        guard tag == "COMMIT" else { throw StoreError.writeFailed("the transaction was rolled back (\(tag))") }
        commits += 1
    }

    // MARK: Group commit

    /// Whether a group is open (`openGroup`), and whether its transaction has begun (at its first write).
    private(set) var groupOpen = false
    private(set) var groupBegun = false

    /// Opens a group: the first write after it begins a transaction that every write after it
    /// joins as a savepoint (each checked when it ends), and that only `commitGroup` commits —
    /// several requests' writes, one commit, one wait for the disk. Until that first write,
    /// reads run on their own, as outside any transaction. Not inside another transaction.
    func openGroup() throws {
        lock.lock()
        defer { lock.unlock() }
        guard depth == 0, !groupOpen else { throw StoreError.writeFailed("a group opened inside a transaction") }
        groupOpen = true
    }

    private func beginGroup(on connection: PostgresConnection) {
        writing = true
        depth = 1
        groupBegun = true
        send("BEGIN", on: connection)
        holdSchemaLock()
    }

    /// Checks that the group's transaction can go on (no statement outside a savepoint has failed
    /// in it): throws when it cannot, after rolling it back (the group is then closed).
    func checkGroup() throws {
        lock.lock()
        defer { lock.unlock() }
        guard groupBegun, let connection else { return }
        do {
            sendHeld(on: connection)
            send("SELECT 1", on: connection)
            try settle()
        } catch {
            closeGroup(rollingBack: connection)
            throw error
        }
    }

    /// Commits the open group's transaction, or rolls it back and throws: all of it lands or none.
    func commitGroup() throws {
        lock.lock()
        defer { lock.unlock() }
        guard groupOpen else { return }
        guard groupBegun, let connection else {
            groupOpen = false
            return
        }
        do {
            sendHeld(on: connection)
            try commit(on: connection)
            closeGroup(rollingBack: nil)
        } catch {
            closeGroup(rollingBack: connection)
            throw error
        }
    }

    private func closeGroup(rollingBack connection: PostgresConnection?) {
        if let connection { rollBack(on: connection) }
        depth = 0
        writing = false
        groupOpen = false
        groupBegun = false
    }

    /// Runs statements separated by `;`, one after another (the extended protocol takes one at a time).
    static func run(_ sql: String, on connection: PostgresConnection) throws {
        for statement in PostgresExecutor.statements(sql) {
            _ = try connection.query(statement, []).wait()
        }
    }

    /// Whether `error` came from PostgreSQL or the connection (postgres-nio's two error types),
    /// not from the body of a transaction.
    static func isDatabaseError(_ error: any Error) -> Bool {
        error is PSQLError || error is PostgresError
    }

    /// A short, human reason for a PostgreSQL error (the server's message, not postgres-nio's
    /// generic description).
    static func reason(_ error: any Error) -> String {
        if let error = error as? PostgresError {
            switch error {
            case .server(let response):
                let detail = response.fields[.detail].map { " (\($0))" } ?? ""
                return (response.fields[.message] ?? "\(error)") + detail
            case .connectionClosed: return "the server closed the connection"
            case .protocol(let message): return message
            }
        }
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                let detail = error.serverInfo?[.detail].map { " (\($0))" } ?? ""
                return message + detail
            }
            switch error.code {
            case .connectionError: return "cannot connect to the server (is PostgreSQL running there?)"
            case .serverClosedConnection, .clientClosedConnection: return "the server closed the connection"
            default: return "\(error.code)"
            }
        }
        return "\(error)"
    }
}

/// Statements on a PostgreSQL connection: `?` placeholders numbered `$1…`, values bound with
/// their types, results read back as the `DatabaseValue`s SQLite gives.
final class PostgresExecutor: SQLExecutor {
    unowned let session: PostgresSession
    private var numbered: [String: String] = [:]

    init(session: PostgresSession) { self.session = session }

    var isPostgres: Bool { true }

    private func query(_ sql: String, _ arguments: [(any DatabaseValueConvertible)?]) throws -> PostgresQueryResult {
        let binds = arguments.map { Self.data($0?.databaseValue ?? .null) }
        return try session.query(numberedText(sql), binds)
    }

    /// `sql` with its `?` numbered, cached (under the session's lock: one thread at a time).
    private func numberedText(_ sql: String) -> String {
        session.withLock {
            if let cached = numbered[sql] { return cached }
            let text = Self.numbering(sql)
            if numbered.count > 1_000 { numbered.removeAll() }
            numbered[sql] = text
            return text
        }
    }

    func executeLater(sql: String, arguments: [(any DatabaseValueConvertible)?]) throws {
        if try session.hold(sql, arguments.map { $0?.databaseValue ?? .null }) { return }
        try execute(sql: sql, arguments: arguments)
    }

    @discardableResult
    func execute(sql: String, arguments: [(any DatabaseValueConvertible)?]) throws -> Int {
        if arguments.isEmpty, sql.contains(";") {
            try session.withConnection { try PostgresSession.run(sql, on: $0) }
            return 0
        }
        return try query(sql, arguments).metadata.rows ?? 0
    }

    func fetchAll(sql: String, arguments: [(any DatabaseValueConvertible)?]) throws -> [SQLRow] {
        let (rows, binary) = try session.fetch(sql, arguments.map { $0?.databaseValue ?? .null }) {
            numberedText(sql)
        }
        guard let first = rows.first else { return [] }
        // `_row` orders records as SQLite's rowid does; it is not part of a record.
        let kept = first.enumerated().filter { $0.element.columnName != "_row" }.map(\.offset)
        let columns = SQLColumns(kept.map { Array(first)[$0].columnName })
        return rows.map { row in
            let cells = Array(row)
            return SQLRow(columns: columns, values: kept.map { Self.value(cells[$0], binary: binary) })
        }
    }

    func forEachRow(sql: String, arguments: [(any DatabaseValueConvertible)?], _ body: (SQLRow) throws -> Void) throws {
        for row in try fetchAll(sql: sql, arguments: arguments) { try body(row) }
    }

    func insert(sql: String, arguments: [(any DatabaseValueConvertible)?], returning column: String) throws -> Int64 {
        let rows = try fetchAll(sql: sql + " RETURNING \(column)", arguments: arguments)
        guard let id: Int64 = rows.first?[0] else { throw StoreError.writeFailed("an insert returned no \(column)") }
        return id
    }

    func tableExists(_ name: String) throws -> Bool {
        try fetchValue(
            Bool.self,
            sql: "SELECT EXISTS (SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = ?)",
            arguments: [name]) ?? false
    }

    func columns(in table: String) throws -> [String] {
        try fetchValues(
            String.self,
            sql: """
                SELECT column_name::text FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position
                """,
            arguments: [table])
    }

    /// The statements of a script: split at each `;` outside quoted text, quoted names, `$$` bodies
    /// and comments; empty ones left out.
    static func statements(_ sql: String) -> [String] {
        var statements: [String] = []
        var current = ""
        var quote: Character?
        var dollar = false
        var comment = false
        var previous: Character?
        for character in sql {
            current.append(character)
            if comment {
                if character == "\n" { comment = false }
            } else if dollar {
                if character == "$", previous == "$" {
                    dollar = false
                    previous = nil
                    continue
                }
            } else if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "-", previous == "-" {
                comment = true
            } else if character == "$", previous == "$" {
                dollar = true
                previous = nil
                continue
            } else if character == ";" {
                current.removeLast()
                statements.append(current)
                current = ""
            }
            previous = character
        }
        statements.append(current)
        return statements.filter { text in
            // A piece holding only white space and comments is no statement.
            !text.split(separator: "\n").allSatisfy { line in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                return trimmed.isEmpty || trimmed.hasPrefix("--")
            }
        }
    }

    /// `sql` as a statement to prepare: each `?` a value `$1…` with the type it would have been
    /// bound with (`int8`, `float8`, `text`, `bytea`), and its types. A NULL is written `NULL` (as
    /// an unbound one takes its type from where it stands), so a statement's text depends on which
    /// of its values are NULL, never on the others.
    /// With `casting`, each value is written `$1::int8`: a statement prepared through the protocol
    /// (not `PREPARE`) takes its values' types from its text.
    static func preparing(_ sql: String, _ values: [DatabaseValue], casting: Bool = false) -> (
        text: String, types: [String]
    ) {
        var index = 0
        var types: [String] = []
        let text = placeholders(in: sql) { () -> String in
            defer { index += 1 }
            guard index < values.count, let (_, kind) = Self.text(of: values[index]) else { return "NULL" }
            let type = Self.types[kind] ?? "text"
            types.append(type)
            return casting ? "$\(types.count)::\(type)" : "$\(types.count)"
        }
        return (text, types)
    }

    /// A value's kind as `text(of:)` gives it, `n` for NULL, without writing its text.
    static func kind(of value: DatabaseValue) -> Character {
        switch value.storage {
        case .null: "n"
        case .int64: "i"
        case .double: "d"
        case .string: "t"
        case .blob: "b"
        }
    }

    /// The PostgreSQL type of each kind of value `text(of:)` gives.
    static let types: [Character: String] = ["i": "int8", "d": "float8", "t": "text", "b": "bytea"]

    /// A value as the text PostgreSQL reads for it, and its kind (a key of `types`); nil for NULL.
    static func text(of value: DatabaseValue) -> (text: String, kind: Character)? {
        switch value.storage {
        case .null: return nil
        case .int64(let number): return (String(number), "i")
        case .double(let number):
            let text =
                number.isNaN ? "NaN" : number.isInfinite ? (number < 0 ? "-Infinity" : "Infinity") : "\(number)"
            return (text, "d")
        case .string(let string): return (string, "t")
        case .blob(let data): return (hex(data), "b")
        }
    }

    /// Bytes as `bytea`'s hex text: `\x` and two digits a byte.
    static func hex(_ data: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        bytes.reserveCapacity(2 + data.count * 2)
        for byte in data {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `?` → `$1`, `$2`, … outside quoted text, quoted names and comments.
    static func numbering(_ sql: String) -> String {
        var number = 0
        return placeholders(in: sql) {
            number += 1
            return "$\(number)"
        }
    }

    /// `sql` with each `?` outside quoted text, quoted names and comments replaced by `replacement()`.
    static func placeholders(in sql: String, _ replacement: () -> String) -> String {
        var result = ""
        result.reserveCapacity(sql.utf8.count + 16)
        var quote: Character?
        var comment = false
        var previous: Character?
        for character in sql {
            if comment {
                if character == "\n" { comment = false }
            } else if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "-", previous == "-" {
                comment = true
            } else if character == "?" {
                result += replacement()
                previous = character
                continue
            }
            result.append(character)
            previous = character
        }
        return result
    }

    static func data(_ value: DatabaseValue) -> PostgresData {
        switch value.storage {
        case .null: .null
        case .int64(let number): PostgresData(int64: number)
        case .double(let number): PostgresData(double: number)
        case .string(let text): PostgresData(string: text)
        case .blob(let data): PostgresData(bytes: data)
        }
    }

    /// A cell as SQLite would give it; `binary`: its bytes are in binary format whatever its label says.
    static func value(_ cell: PostgresCell, binary: Bool = false) -> DatabaseValue {
        guard cell.bytes != nil else { return .null }
        var cell = cell
        if binary { cell.format = .binary }
        do {
            switch cell.dataType {
            case .int2, .int4, .int8, .oid:
                return try cell.decode(Int64.self).databaseValue
            case .float4, .float8:
                return try cell.decode(Double.self).databaseValue
            case .numeric:
                return (Double(try cell.decode(String.self)) ?? 0).databaseValue
            case .bool:
                return (try cell.decode(Bool.self) ? 1 : 0).databaseValue
            case .bytea:
                var buffer = try cell.decode(ByteBuffer.self)
                return Data(buffer.readBytes(length: buffer.readableBytes) ?? []).databaseValue
            default:
                return try cell.decode(String.self).databaseValue
            }
        } catch {
            return .null
        }
    }
}

/// Full-text queries as PostgreSQL's `to_tsquery` reads them, from words folded as the store folds.
enum PostgresText {
    /// A term quoted for `to_tsquery`: `'word'`, with `:*` for a prefix.
    static func term(_ word: String, prefix: Bool) -> String {
        "'" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
            + (prefix ? ":*" : "")
    }

    /// Every word of `text` as a prefix, all of them: nil when it has no word.
    static func prefixQuery(_ text: String) -> String? {
        let words = SearchText.words(text)
        guard !words.isEmpty else { return nil }
        return words.map { term($0, prefix: true) }.joined(separator: " & ")
    }

    /// The words of `text` in order, one after another: nil when it has no word.
    static func phraseQuery(_ text: String, lastIsPrefix: Bool = false) -> String? {
        let words = SearchText.words(text)
        guard !words.isEmpty else { return nil }
        return words.enumerated().map { term($0.element, prefix: lastIsPrefix && $0.offset == words.count - 1) }
            .joined(separator: " <-> ")
    }
}

extension PostgresLocation {
    /// The schema of a user of the server: `u_` and the name, `_` written `__` and `-` written
    /// `_h` (so two names never share a schema), after `prefix` (the main store's schema and `_`,
    /// unless it is `public`); a name too long for that, by its hash.
    public static func userSchema(_ name: String, prefix: String = "") -> String {
        var escaped = prefix + "u_"
        for character in name.lowercased() {
            switch character {
            case "_": escaped += "__"
            case "-": escaped += "_h"
            default: escaped.append(character)
            }
        }
        guard !isSchemaName(escaped) else { return escaped }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        for byte in prefix.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return "u_h" + String(hash, radix: 16)
    }
}

/// Where a store is: a SQLite file, or a PostgreSQL database (`postgres://…`).
public enum StoreLocation {
    /// Whether `store` is a PostgreSQL URL.
    public static func isPostgres(_ store: String) -> Bool { PostgresLocation.isPostgres(store) }

    /// The folder for what goes beside the store (the compiled cache, the users file): the file's
    /// folder, or `./.intents` for a PostgreSQL store.
    public static func folder(of store: String) -> String {
        if isPostgres(store) { return ".intents" }
        let folder = PathText.deletingLastComponent(store)
        return folder.isEmpty ? "." : folder
    }

    /// The store of a user of the server: `<folder>/users/<name>/store.sqlite`, or the user's own
    /// schema of the same PostgreSQL database.
    public static func store(of user: String, besides store: String) -> String {
        if isPostgres(store) {
            // Beside a store in a schema of its own, the users' schemas are named after it.
            let main = (try? PostgresLocation(store))?.schema ?? "public"
            return PostgresLocation.withSchema(
                store, PostgresLocation.userSchema(user, prefix: main == "public" ? "" : main + "_"))
        }
        return folder(of: store) + "/users/" + user + "/store.sqlite"
    }
}

extension Store {
    /// Runs `body` holding the lock of one conversation across processes, so two requests of it
    /// never interleave, whichever instance each reaches: on PostgreSQL an advisory lock of the
    /// schema and the conversation, held by this store's connection (released with it, should the
    /// process die). On SQLite the store belongs to one server process, whose own lock orders them.
    /// Never called inside a transaction.
    public func holdingConversation<T>(_ key: String, _ body: () throws -> T) throws -> T {
        guard let postgres else { return try body() }
        let lock = "SELECT pg_advisory_lock(hashtext(current_schema()), hashtext(?))"
        let unlock = "SELECT pg_advisory_unlock(hashtext(current_schema()), hashtext(?))"
        do {
            _ = try postgres.executor.fetchAll(sql: lock, arguments: [key])
        } catch {
            throw StoreError.unusable(path: shownPath, reason: PostgresSession.reason(error))
        }
        defer { _ = try? postgres.executor.fetchAll(sql: unlock, arguments: [key]) }
        return try body()
    }

    /// Takes the lock of one conversation across processes (as `holdingConversation` does) until
    /// `unlockConversation`; with `wait: false`, false at once when another connection holds it.
    /// Always true on SQLite.
    public func lockConversation(_ key: String, wait: Bool) throws(StoreError) -> Bool {
        guard let postgres else { return true }
        do {
            if wait {
                _ = try postgres.executor.fetchAll(
                    sql: "SELECT pg_advisory_lock(hashtext(current_schema()), hashtext(?))", arguments: [key])
                return true
            }
            return try postgres.executor.fetchValue(
                Bool.self, sql: "SELECT pg_try_advisory_lock(hashtext(current_schema()), hashtext(?))",
                arguments: [key]) ?? false
        } catch {
            throw .unusable(path: shownPath, reason: PostgresSession.reason(error))
        }
    }

    /// Gives back a conversation's lock taken by `lockConversation`.
    public func unlockConversation(_ key: String) {
        _ = try? postgres?.executor.fetchAll(
            sql: "SELECT pg_advisory_unlock(hashtext(current_schema()), hashtext(?))", arguments: [key])
    }

    /// How many statements this store has sent to PostgreSQL (0 on SQLite).
    package var postgresStatementsSent: Int {
        postgres.map { session in session.withLock { session.statementsSent } } ?? 0
    }

    /// Whether several requests' writes can share one transaction and one commit (`openGroup`):
    /// a PostgreSQL store opened for writing.
    public var canGroupCommits: Bool { postgres.map { !$0.readOnly } ?? false }

    /// Whether a group is open, and whether its transaction has begun (it holds the schema's lock).
    public var isGroupOpen: Bool { postgres?.groupOpen ?? false }
    public var isGroupBegun: Bool { postgres?.groupBegun ?? false }

    /// Checks that the group's transaction can go on: throws (the group rolled back and closed)
    /// when a statement outside any savepoint has failed in it.
    public func checkGroup() throws(StoreError) {
        do { try postgres?.checkGroup() } catch { throw Self.writeError(error) }
    }

    /// Opens a group: the first `write` after it begins a transaction (taking the schema's lock;
    /// when that write fails, the transaction rolls back whole and the next write begins it again)
    /// that every `write` after it joins as a savepoint of its own (checked when it ends: a failed
    /// one rolls back alone) and that reads see, until `commitGroup`. PostgreSQL only; not inside
    /// a transaction.
    public func openGroup() throws(StoreError) {
        guard let postgres else { return }
        do { try postgres.openGroup() } catch { throw Self.writeError(error) }
    }

    /// Commits the group's transaction: every write of it lands, or (the error thrown) none does.
    public func commitGroup() throws(StoreError) {
        do { try postgres?.commitGroup() } catch { throw Self.writeError(error) }
    }

    static func writeError(_ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        return .writeFailed(PostgresSession.reason(error))
    }
}
