public import Foundation
import GRDB
import IntentModel

/// A conversation's state as the store keeps it: an opaque value (the runtime's `Codable` state,
/// encoded), whose user it is, when it was last answered and when it expires.
public struct StoredConversation: Sendable, Hashable {
    public let id: String
    public let user: String
    public let state: Data
    public let at: Date
    public let expires: Date
}

/// Conversations kept between requests under their id, so the next request (in this process or in
/// another over the same store) carries them on.
extension StoreTransaction {
    /// The conversation `id` of `user`, unless it expired by `now`.
    public func conversation(_ id: String, user: String, at now: Date) throws -> StoredConversation? {
        // Statements cached by the connection: a conversation is read and written on every request.
        // `"user"` quoted: PostgreSQL reads a bare `user` as the session's user.
        try db.fetchOne(
            sql: "SELECT * FROM _conversations WHERE id = ? AND \"user\" = ? AND expires > ?",
            arguments: [id, user, ISODate.format(now)]
        ).map { row in
            StoredConversation(
                id: row["id"], user: row["user"], state: row["state"], at: date(row["at"]),
                expires: date(row["expires"]))
        }
    }

    /// Saves (or replaces) the conversation `id` of `user`; conversations expired by `at` go.
    public func saveConversation(_ id: String, user: String, state: Data, at: Date, expires: Date) throws {
        if db.isPostgres {
            // PostgreSQL: both in one statement (held: see `executeLater`). One statement may not
            // change a row twice: this conversation's expired row is replaced rather than deleted.
            try db.executeLater(
                sql: """
                    WITH gone AS (DELETE FROM _conversations WHERE expires <= ? AND NOT (id = ? AND "user" = ?))
                    INSERT INTO _conversations (id, "user", state, at, expires) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (id, "user") DO UPDATE SET state = excluded.state, at = excluded.at, expires = excluded.expires
                    """,
                arguments: [
                    ISODate.format(at), id, user, id, user, state, ISODate.format(at), ISODate.format(expires),
                ])
            return
        }
        try db.execute(sql: "DELETE FROM _conversations WHERE expires <= ?", arguments: [ISODate.format(at)])
        try db.execute(
            sql: """
                INSERT INTO _conversations (id, "user", state, at, expires) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (id, "user") DO UPDATE SET state = excluded.state, at = excluded.at, expires = excluded.expires
                """,
            arguments: [id, user, state, ISODate.format(at), ISODate.format(expires)])
    }

    /// Forgets the conversation `id` of `user`; false when there was none.
    @discardableResult
    public func deleteConversation(_ id: String, user: String) throws -> Bool {
        try db.execute(sql: "DELETE FROM _conversations WHERE id = ? AND \"user\" = ?", arguments: [id, user]) > 0
    }

    private func date(_ text: String) -> Date {
        ISODate.parse(text, timeZone: TimeZone(identifier: "UTC")!) ?? Date(timeIntervalSince1970: 0)
    }
}

extension Store {
    /// The table of conversations between requests (created with the others).
    static func createConversationTable(_ db: any SQLExecutor) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS _conversations (
                    id TEXT NOT NULL, user TEXT NOT NULL, state BLOB NOT NULL, at TEXT NOT NULL,
                    expires TEXT NOT NULL, PRIMARY KEY (id, user));
                CREATE INDEX IF NOT EXISTS _conversations_expires ON _conversations (expires);
                """)
    }
}
