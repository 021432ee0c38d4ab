public import Foundation
import GRDB
public import IntentModel

/// An activity as the store keeps it: what another shell may continue (NSUserActivity).
public struct StoredActivity: Sendable, Hashable {
    public let id: Int64
    public let type: String
    /// `App.Intent`.
    public let intent: String
    public let title: String
    /// The intent's parameters, as `--json` shows them (the activity's userInfo).
    public let parameters: [String: JSONValue]
    /// Where it is offered; a word this build does not know is left out.
    public let eligible: [IntentGraph.Activity.Eligibility]
    public let keywords: [String]
    /// A link to what the activity shows (its webpageURL), when there is one.
    public let link: String?
    public let at: Date
    public let expires: Date
}

/// A conversation waiting for an answer, as the store keeps it.
public struct StoredQuestion: Sendable, Hashable {
    public let id: Int64
    /// `App.Intent`.
    public let intent: String
    /// The question as it was asked ("What's your zodiac sign?").
    public let question: String
    /// The conversation's state, for carrying it on.
    public let state: JSONValue
    public let at: Date
    public let expires: Date
    /// Why it was closed, or nil while it waits (or when the store holds a reason this build does
    /// not know).
    public let closed: QuestionClosing?
}

/// The current activity and the open questions, so that a second shell can carry them on.
extension StoreTransaction {
    /// Records an activity, in the transaction of the intent that did it.
    @discardableResult
    public func recordActivity(
        type: String, intent: QualifiedName, title: String, parameters: [String: JSONValue],
        eligible: [IntentGraph.Activity.Eligibility],
        keywords: [String], link: String?, at: Date, expires: Date
    ) throws -> Int64 {
        // One current activity per app, as `becomeCurrent()` makes it: the new one replaces the
        // app's previous one (three opens of a radar leave one activity to continue, not three).
        let app = intent.app + "."
        try db.execute(
            sql: "DELETE FROM _activities WHERE substr(intent, 1, length(?)) = ?", arguments: [app, app])
        return try db.insert(
            sql: """
                INSERT INTO _activities (type, intent, title, parameters, eligible, keywords, link, at, expires)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                type, intent.description, title, JSONText.compact(.object(parameters)),
                JSONText.compact(.array(eligible.map { .string($0.rawValue) })),
                JSONText.compact(.array(keywords.map(JSONValue.string))), link, ISODate.format(at),
                ISODate.format(expires),
            ], returning: "id")
    }

    /// Activities not expired at `now`, newest first; only those eligible for `eligibility` when given.
    public func activities(
        at now: Date, eligible eligibility: IntentGraph.Activity.Eligibility? = nil, limit: Int = 20
    ) throws -> [StoredActivity] {
        let rows = try db.fetchAll(
            sql: "SELECT * FROM _activities WHERE expires > ? AND at <= ? ORDER BY at DESC, id DESC LIMIT ?",
            arguments: [ISODate.format(now), ISODate.format(now), limit * 4])
        return try rows.compactMap { row -> StoredActivity? in
            let eligible = try storedJSON(
                [String].self, row, "eligible", table: "_activities", expected: "a JSON list of texts"
            )
            .compactMap(IntentGraph.Activity.Eligibility.init(rawValue:))
            if let eligibility, !eligible.contains(eligibility) { return nil }
            return StoredActivity(
                id: row["id"], type: row["type"], intent: row["intent"], title: row["title"],
                parameters: try storedJSON(
                    [String: JSONValue].self, row, "parameters", table: "_activities", expected: "a JSON object"),
                eligible: eligible,
                keywords: try storedJSON(
                    [String].self, row, "keywords", table: "_activities", expected: "a JSON list of texts"),
                link: row["link"],
                at: date(row["at"]), expires: date(row["expires"]))
        }.prefix(limit).map { $0 }
    }

    /// Saves a question waiting for an answer; with `replacing`, updates that one instead.
    @discardableResult
    public func saveQuestion(
        intent: QualifiedName, question: String, state: JSONValue, at: Date, expires: Date, replacing id: Int64? = nil
    ) throws -> Int64 {
        if let id {
            let updated = try db.execute(
                sql:
                    "UPDATE _questions SET question = ?, state = ?, at = ?, expires = ? WHERE id = ? AND closed IS NULL",
                arguments: [question, JSONText.compact(state), ISODate.format(at), ISODate.format(expires), id])
            if updated > 0 { return id }
        }
        return try db.insert(
            sql: "INSERT INTO _questions (intent, question, state, at, expires) VALUES (?, ?, ?, ?, ?)",
            arguments: [
                intent.description, question, JSONText.compact(state), ISODate.format(at), ISODate.format(expires),
            ],
            returning: "id")
    }

    /// Closes a question; false when it was closed already.
    @discardableResult
    public func closeQuestion(_ id: Int64, reason: QuestionClosing) throws -> Bool {
        try db.execute(
            sql: "UPDATE _questions SET closed = ? WHERE id = ? AND closed IS NULL", arguments: [reason.rawValue, id])
            > 0
    }

    public func question(_ id: Int64) throws -> StoredQuestion? {
        try db.fetchOne(sql: "SELECT * FROM _questions WHERE id = ?", arguments: [id]).map(question(from:))
    }

    /// Questions still waiting at `now` (not closed, not expired), newest first.
    public func openQuestions(at now: Date, limit: Int = 20) throws -> [StoredQuestion] {
        try db.fetchAll(
            sql:
                "SELECT * FROM _questions WHERE closed IS NULL AND expires > ? AND at <= ? ORDER BY at DESC, id DESC LIMIT ?",
            arguments: [ISODate.format(now), ISODate.format(now), limit]
        ).map(question(from:))
    }

    private func question(from row: SQLRow) throws -> StoredQuestion {
        StoredQuestion(
            id: row["id"], intent: row["intent"], question: row["question"],
            state: try storedJSON(JSONValue.self, row, "state", table: "_questions", expected: "JSON"),
            at: date(row["at"]),
            expires: date(row["expires"]),
            closed: (row["closed"] as String?).flatMap(QuestionClosing.init(rawValue:)))
    }

    private func date(_ text: String) -> Date {
        ISODate.parse(text, timeZone: TimeZone(identifier: "UTC")!) ?? Date(timeIntervalSince1970: 0)
    }
}

extension Store {
    /// The tables of the current activity and of open questions (created with the others).
    static func createHandoffTables(_ db: any SQLExecutor) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS _activities (
                    id INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT NOT NULL, intent TEXT NOT NULL, title TEXT NOT NULL,
                    parameters TEXT NOT NULL, eligible TEXT NOT NULL, keywords TEXT NOT NULL, link TEXT,
                    at TEXT NOT NULL, expires TEXT NOT NULL);
                CREATE INDEX IF NOT EXISTS _activities_at ON _activities (at);
                CREATE TABLE IF NOT EXISTS _questions (
                    id INTEGER PRIMARY KEY AUTOINCREMENT, intent TEXT NOT NULL, question TEXT NOT NULL,
                    state TEXT NOT NULL, at TEXT NOT NULL, expires TEXT NOT NULL, closed TEXT);
                """)
    }
}
