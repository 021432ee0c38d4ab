import IntentModel

/// The shape of the store's own tables (`_donations`, `_executions`, …), as a version kept in
/// `_meta`. Opening a store compares it: a store written by an older build migrates, even when
/// every internal table exists, so a column added to one of them later is added on open.
extension Store {
    static let internalSchemaKey = "internal.schema"
    /// Bump with every change to the internal tables' columns or tables that an existing store
    /// needs (the migration's statements must bring any older shape up to this one).
    /// 2: `_donations.execution` (undo takes its donation back).
    static let internalSchemaVersion = "2"

    /// Records that the internal tables have this build's shape; last in the migration.
    static func noteInternalSchema(_ db: any SQLExecutor) throws {
        try db.execute(
            sql: "INSERT INTO _meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            arguments: [internalSchemaKey, internalSchemaVersion])
    }
}
