public import Foundation
public import IntentModel
public import ModelStore

/// A live activity as it is at one moment: its status, progress and countdown, and the text of each
/// presentation (the Dynamic Island's compact, minimal and expanded ones, and the lock screen's).
public struct LiveActivitySnapshot: Sendable {
    public enum Status: String, Sendable, Codable {
        /// Running, its content current.
        case active
        /// Running, but not updated for longer than its stale time, or its countdown has passed.
        case stale
        /// Ended by a step or, after eight hours, by the system; still on the lock screen.
        case ended
    }

    public let activity: IntentGraph.LiveActivity
    public let id: Int64
    public let key: String
    public let status: Status
    public let startedAt: Date
    public let updatedAt: Date
    public let endedAt: Date?
    /// From 0 to 1, when the activity has a progress or a countdown.
    public let progress: Double?
    /// Seconds until the countdown reaches zero (0 once it has), when it has one.
    public let remaining: Int?
    public let compactLeading: String
    public let compactTrailing: String
    public let minimal: String
    public let expanded: [IntentGraph.ExpandedRegion: String]
    public let lockScreenTitle: String
    public let lockScreenDetail: String
    /// Attributes and state as stored, for `--json`.
    public let attributes: [String: JSONValue]
    public let state: [String: JSONValue]

    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "activity": .string(activity.qualifiedName.description), "title": .string(activity.title),
            "status": .string(status.rawValue), "startedAt": .string(ISODate.format(startedAt)),
            "updatedAt": .string(ISODate.format(updatedAt)), "attributes": .object(attributes), "state": .object(state),
            "compact": .object(["leading": .string(compactLeading), "trailing": .string(compactTrailing)]),
            "minimal": .string(minimal),
            "expanded": .object(
                Dictionary(uniqueKeysWithValues: expanded.map { ($0.key.rawValue, JSONValue.string($0.value)) })),
            "lockScreen": .object(["title": .string(lockScreenTitle), "detail": .string(lockScreenDetail)]),
        ]
        if !key.isEmpty { object["id"] = .string(key) }
        if let endedAt { object["endedAt"] = .string(ISODate.format(endedAt)) }
        if let progress { object["progress"] = .number((progress * 1_000).rounded() / 1_000) }
        if let remaining { object["remaining"] = .integer(remaining) }
        return .object(object)
    }
}

/// Reads live activities from the store and works out how they look at a moment.
public struct LiveActivityCenter {
    public let graph: IntentGraph
    public let store: Store

    public init(graph: IntentGraph, store: Store) {
        self.graph = graph
        self.store = store
    }

    /// The activities shown at `date` (default: the store's now), newest first; with `dismissed`,
    /// the ones that have left the lock screen in the last day too. Activities whose declaration
    /// has gone from the definitions are left out.
    public func current(at date: Date? = nil, dismissed: Bool = false) throws -> [LiveActivitySnapshot] {
        let now = date ?? store.clock.now
        let clock = Clock.fixed(now, timeZone: store.clock.timeZone)
        return try store.read { transaction in
            try transaction.liveActivities(at: now, dismissed: dismissed).compactMap { stored in
                guard let name = QualifiedName(parsing: stored.activity), let activity = graph.liveActivity(name)
                else { return nil }
                let evaluator = Evaluator(graph: graph, clock: clock, app: activity.app, store: transaction)
                return Self.snapshot(stored, activity, evaluator: evaluator, clock: clock)
            }
        }
    }

    /// The activities still running (active or stale), newest first: what the Dynamic Island shows.
    public func running(at date: Date? = nil) throws -> [LiveActivitySnapshot] {
        try current(at: date).filter { $0.status != .ended }
    }

    static func snapshot(
        _ stored: StoredLiveActivity, _ activity: IntentGraph.LiveActivity, evaluator: Evaluator, clock: Clock
    ) -> LiveActivitySnapshot {
        let now = clock.now
        var scope: Evaluator.Scope = ["startedAt": .date(stored.startedAt), "updatedAt": .date(stored.updatedAt)]
        for property in activity.attributes {
            scope[property.name] = LiveActivityValues.datum(stored.attributes[property.name], as: property.type)
        }
        for property in activity.state {
            scope[property.name] = LiveActivityValues.datum(stored.state[property.name], as: property.type)
        }
        let ended = stored.ended(at: now)
        // An ended activity shows its final state as it was when it ended.
        let moment = min(now, ended ?? now)
        var countdownEnd: Date?
        if let expression = activity.countdown, case .date(let date)? = try? evaluator.evaluate(expression, in: scope) {
            countdownEnd = date
        }
        let remaining = countdownEnd.map { max(0, Int($0.timeIntervalSince(moment).rounded(.up))) }
        var progress: Double?
        if let expression = activity.progress {
            progress = (try? evaluator.evaluate(expression, in: scope))?.numeric
        } else if let end = countdownEnd {
            let total = end.timeIntervalSince(stored.startedAt)
            progress = total > 0 ? moment.timeIntervalSince(stored.startedAt) / total : 1
        }
        progress = progress.map { $0.isFinite ? min(1, max(0, $0)) : 0 }

        let status: LiveActivitySnapshot.Status
        if ended != nil {
            status = .ended
        } else if let staleAfter = activity.staleAfter,
            now >= stored.updatedAt.addingTimeInterval(Double(staleAfter))
        {
            status = .stale
        } else if let end = countdownEnd, now >= end {
            status = .stale
        } else {
            status = .active
        }

        // A template that cannot be rendered, or renders nothing (a value missing or damaged), gives
        // way to the presentation's default.
        func text(_ template: Template?) -> String? {
            guard let template, let rendered = try? evaluator.render(template, in: scope) else { return nil }
            let line = TerminalText.oneLine(rendered)
            return line.isEmpty ? nil : line
        }
        let figure =
            remaining.map(LiveActivityTime.countdown) ?? progress.map { "\(Int(($0 * 100).rounded()))%" } ?? ""
        let presentations = activity.presentations
        let leading = text(presentations.compactLeading) ?? activity.title
        let trailing = text(presentations.compactTrailing) ?? figure
        let lockTitle = text(presentations.lockScreen[.title]) ?? activity.title
        let lockDetail =
            text(presentations.lockScreen[.detail])
            ?? countdownEnd.map { "until " + LiveActivityTime.time($0, clock) } ?? ""
        var expanded: [IntentGraph.ExpandedRegion: String] = [
            .leading: leading, .trailing: trailing, .center: lockTitle, .bottom: lockDetail,
        ]
        for region in IntentGraph.ExpandedRegion.allCases {
            if let given = text(presentations.expanded[region]) { expanded[region] = given }
        }
        return LiveActivitySnapshot(
            activity: activity, id: stored.id, key: stored.key, status: status, startedAt: stored.startedAt,
            updatedAt: stored.updatedAt, endedAt: ended, progress: progress, remaining: remaining,
            compactLeading: leading, compactTrailing: trailing,
            minimal: text(presentations.minimal) ?? (figure.isEmpty ? String(activity.title.prefix(3)) : figure),
            expanded: expanded, lockScreenTitle: lockTitle, lockScreenDetail: lockDetail,
            attributes: stored.attributes, state: stored.state)
    }
}

extension QualifiedName {
    /// `App.Name`.
    init?(parsing text: String) {
        let parts = text.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        self.init(app: parts[0], name: parts[1])
    }
}
