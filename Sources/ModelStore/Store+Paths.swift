import Foundation
import GRDB
import IntentModel

/// What a store path must be before SQLite sees it, in words a user can act on, and whether an
/// existing store needs migrating at all (a store that does not is opened without the write lock).
extension Store {
    /// Why `path` cannot hold a store; nil when it can (an existing regular file, or a missing
    /// file whose folders exist or can be made).
    static func pathProblem(_ path: String) -> String? {
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: return nil
            case S_IFDIR:
                return "it is a directory, not a store file (give a file inside it, e.g. \(path)/store.sqlite)"
            default:
                return
                    "it is not a regular file (a store is a SQLite file; SQLite would also write \(path)-journal beside it)"
            }
        }
        // Missing: every existing folder on the way must be a directory.
        var folder = PathText.deletingLastComponent(path)
        while !folder.isEmpty, folder != "/" {
            if stat(folder, &info) == 0 {
                if info.st_mode & S_IFMT != S_IFDIR {
                    return "\(folder) is a file, not a directory, so the store cannot be made inside it"
                }
                return nil
            }
            folder = PathText.deletingLastComponent(folder)
        }
        return nil
    }

    /// Whether the SQLite file at `path` is in WAL mode (its header's read and write versions are 2).
    static func isInWALMode(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 20), header.count == 20 else { return false }
        return header.starts(with: Array("SQLite format 3\u{0}".utf8)) && header[18] == 2 && header[19] == 2
    }

    /// Whether opening needs to write: a missing internal table, internal tables of an older shape,
    /// a missing entity table or column, or a property whose recorded type changed. Read without taking the write lock.
    func needsMigration() -> Bool {
        let internalTables = [
            "_schema", "_executions", "_changes", "_donations", "_names", "_name_rows", "_search", "_search_items",
            "_search_pending", "_search_dead", "_search_vocab", "_meta", "_donation_refs", "_suggest_stats", "_tips",
            "_activities", "_questions", "_conversations", "_live_activities", "_name_keys", "_name_words",
            "_widget_instances",
        ]
        guard let sqlite else { return true }
        do {
            return try sqlite.read { db in
                let executor = SQLiteExecutor(db)
                // Asked of sqlite_master directly: one query, and no schema cache to go stale.
                let existing = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
                for name in internalTables where !existing.contains(name) { return true }
                let internalVersion = try String.fetchOne(
                    db, sql: "SELECT value FROM _meta WHERE key = ?", arguments: [Self.internalSchemaKey])
                if internalVersion != Self.internalSchemaVersion { return true }
                let namesVersion = try String.fetchOne(
                    db, sql: "SELECT value FROM _meta WHERE key = ?", arguments: [Self.nameIndexVersionKey])
                if namesVersion != Self.nameIndexVersion { return true }
                let indexChanges = try indexChanges(executor)
                if !indexChanges.drop.isEmpty || !indexChanges.create.isEmpty { return true }
                for table in tables.values {
                    guard existing.contains(table.name) else { return true }
                    var stored: [String: String] = [:]
                    for row in try Row.fetchAll(
                        db, sql: "SELECT property, type FROM _schema WHERE entity = ?", arguments: [table.name])
                    {
                        stored[row["property"]] = row["type"]
                    }
                    let declared = Dictionary(
                        table.columns.map { ($0.name, Columns.key($0.type)) }, uniquingKeysWith: { a, _ in a })
                    if stored != declared { return true }
                    // Which cases records hold changes only by writes, which take declared cases:
                    // asked again (a scan of the table) only when the declared cases changed.
                    if try caseSignatureChanged(table, executor) { return true }
                }
                return false
            }
        } catch {
            return true
        }
    }
}
