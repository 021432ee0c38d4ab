import GRDB

extension Store {
    /// A number that changes whenever another connection (another process) commits to the store:
    /// `intents widgets --watch` redraws when it moves. Its own commits do not move it.
    public func changeCount() throws -> Int {
        if isPostgres {
            // No data version on PostgreSQL: the journal's length and undos move with every intent.
            return try read { transaction in
                try transaction.db.fetchValue(
                    Int.self, sql: "SELECT (coalesce(max(id), 0) + coalesce(sum(undone), 0))::bigint FROM _executions")
                    ?? 0
            }
        }
        do {
            return try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
        } catch let error as DatabaseError {
            throw StoreError.unusable(path: path, reason: Self.reason(error, waited: busyTimeout))
        }
    }
}
