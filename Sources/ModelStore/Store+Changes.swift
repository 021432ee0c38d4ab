import GRDB

extension Store {
    /// A number that changes whenever another connection (another process) commits to the store:
    /// `intents widgets --watch` redraws when it moves. Its own commits do not move it.
    public func changeCount() throws -> Int {
        do {
            return try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
        } catch let error as DatabaseError {
            throw StoreError.unusable(path: path, reason: Self.reason(error, waited: busyTimeout))
        }
    }
}
