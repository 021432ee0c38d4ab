public import Foundation
import GRDB
public import IntentModel

/// A live activity as the store keeps it, so that every shell sees the same Dynamic Island.
public struct StoredLiveActivity: Sendable, Hashable {
    public let id: Int64
    /// `App.Name`.
    public let activity: String
    /// Which activity of the name (empty when only one runs at a time).
    public let key: String
    public let attributes: [String: JSONValue]
    public let state: [String: JSONValue]
    public let startedAt: Date
    public let updatedAt: Date
    /// When an `end_activity` step ended it; nil while it runs (or when the system ended it).
    public let endedAt: Date?
    /// When it leaves the lock screen, when an end step said so.
    public let dismissAt: Date?

    /// The system ends an activity eight hours after it starts (ActivityKit's limit)…
    public static let longestRun: TimeInterval = 8 * 3_600
    /// …and removes an ended one from the lock screen four hours after it ends.
    public static let longestShownEnded: TimeInterval = 4 * 3_600

    /// When it ended at `now`: by a step, or by the system after eight hours; nil while it runs.
    public func ended(at now: Date) -> Date? {
        if let endedAt { return endedAt }
        let limit = startedAt.addingTimeInterval(Self.longestRun)
        return now >= limit ? limit : nil
    }

    /// Whether it is gone from every presentation at `now`.
    public func isDismissed(at now: Date) -> Bool {
        guard let ended = ended(at: now) else { return false }
        return now >= (dismissAt ?? ended.addingTimeInterval(Self.longestShownEnded))
    }
}

extension StoreTransaction {
    /// Starts an activity; one of the same name and key that still runs is ended and dismissed first.
    @discardableResult
    public func startLiveActivity(
        _ activity: String, key: String, attributes: [String: JSONValue], state: [String: JSONValue], at now: Date
    ) throws -> Int64 {
        if let running = try runningLiveActivity(activity, key: key, at: now) {
            try endLiveActivity(running.id, state: running.state, at: now, dismissAt: now)
        }
        let id = try db.insert(
            sql: """
                INSERT INTO _live_activities (activity, key, attributes, state, started_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                activity, key, JSONText.compact(.object(attributes)), JSONText.compact(.object(state)),
                ISODate.format(now), ISODate.format(now),
            ], returning: "id")
        startedLiveActivities.append(id)
        return id
    }

    /// Marks the activities this transaction started as the execution's, for `undo`.
    func claimLiveActivities(for execution: Int64) throws {
        for id in startedLiveActivities {
            try db.execute(sql: "UPDATE _live_activities SET execution = ? WHERE id = ?", arguments: [execution, id])
        }
        startedLiveActivities.removeAll()
    }

    /// Undoing an intent ends and dismisses the activities it started (they showed what it did).
    func endLiveActivities(startedBy execution: Int64) throws {
        let now = ISODate.format(store.clock.now)
        try db.execute(
            sql: "UPDATE _live_activities SET ended_at = ?, dismiss_at = ? WHERE execution = ? AND ended_at IS NULL",
            arguments: [now, now, execution])
    }

    /// The activity of the name and key that runs at `now` (not ended by a step or by the system).
    public func runningLiveActivity(_ activity: String, key: String, at now: Date) throws -> StoredLiveActivity? {
        let oldest = ISODate.format(now.addingTimeInterval(-StoredLiveActivity.longestRun))
        return try db.fetchOne(
            sql: """
                SELECT * FROM _live_activities
                WHERE activity = ? AND key = ? AND ended_at IS NULL AND started_at > ?
                ORDER BY started_at DESC, id DESC LIMIT 1
                """,
            arguments: [activity, key, oldest]
        ).map(liveActivity(from:))
    }

    public func updateLiveActivity(_ id: Int64, state: [String: JSONValue], at now: Date) throws {
        try db.execute(
            sql: "UPDATE _live_activities SET state = ?, updated_at = ? WHERE id = ? AND ended_at IS NULL",
            arguments: [JSONText.compact(.object(state)), ISODate.format(now), id])
    }

    public func endLiveActivity(_ id: Int64, state: [String: JSONValue], at now: Date, dismissAt: Date?) throws {
        try db.execute(
            sql: """
                UPDATE _live_activities SET state = ?, updated_at = ?, ended_at = ?, dismiss_at = ?
                WHERE id = ? AND ended_at IS NULL
                """,
            arguments: [
                JSONText.compact(.object(state)), ISODate.format(now), ISODate.format(now),
                dismissAt.map(ISODate.format), id,
            ])
    }

    /// Activities shown at `now` (running, or ended and not yet dismissed), newest first; with
    /// `dismissed`, the dismissed ones of the last day too.
    public func liveActivities(at now: Date, dismissed: Bool = false, limit: Int = 50) throws -> [StoredLiveActivity] {
        // Nothing started more than a day before `now` is still shown: 8 hours running, 4 shown ended.
        let since = ISODate.format(now.addingTimeInterval(-86_400))
        let rows = try db.fetchAll(
            sql: """
                SELECT * FROM _live_activities WHERE started_at > ? AND started_at <= ?
                ORDER BY started_at DESC, id DESC LIMIT ?
                """,
            arguments: [since, ISODate.format(now), limit * 4])
        return try rows.map(liveActivity(from:)).filter { dismissed || !$0.isDismissed(at: now) }.prefix(limit).map {
            $0
        }
    }

    private func liveActivity(from row: SQLRow) throws -> StoredLiveActivity {
        func time(_ text: String?) -> Date? {
            text.flatMap { ISODate.parse($0, timeZone: TimeZone(identifier: "UTC")!) }
        }
        let epoch = Date(timeIntervalSince1970: 0)
        return StoredLiveActivity(
            id: row["id"], activity: row["activity"], key: row["key"],
            attributes: try storedJSON(
                [String: JSONValue].self, row, "attributes", table: "_live_activities", expected: "a JSON object"),
            state: try storedJSON(
                [String: JSONValue].self, row, "state", table: "_live_activities", expected: "a JSON object"),
            startedAt: time(row["started_at"]) ?? epoch, updatedAt: time(row["updated_at"]) ?? epoch,
            endedAt: time(row["ended_at"]), dismissAt: time(row["dismiss_at"]))
    }
}

extension Store {
    /// The live activities' table (created with the others).
    static func createLiveActivityTables(_ db: any SQLExecutor) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS _live_activities (
                    id INTEGER PRIMARY KEY AUTOINCREMENT, activity TEXT NOT NULL, key TEXT NOT NULL DEFAULT '',
                    attributes TEXT NOT NULL, state TEXT NOT NULL, started_at TEXT NOT NULL, updated_at TEXT NOT NULL,
                    ended_at TEXT, dismiss_at TEXT, execution INTEGER);
                CREATE INDEX IF NOT EXISTS _live_activities_started ON _live_activities (started_at);
                CREATE INDEX IF NOT EXISTS _live_activities_running ON _live_activities (activity, key, ended_at);
                """)
    }
}
