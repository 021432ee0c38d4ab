public import Foundation
public import IntentModel

/// One timeline entry of a widget: what it shows at a moment, computed from the store.
public struct WidgetSnapshot: Sendable {
    public struct Item: Sendable, Hashable {
        public let id: String
        public let line: String
        public let detail: String?
        /// The record's canonical deep link, when its app routes one (`radar://open/<id>`).
        public let link: String?
        /// Buttons of this item, numbered across the whole widget from 1.
        public let buttons: [Button]
    }

    public struct Button: Sendable, Hashable {
        public let number: Int
        public let title: String
    }

    public let widget: IntentGraph.Widget
    public let date: Date
    public let relevance: WidgetRelevance
    public let title: String?
    public let value: String?
    public let label: String?
    /// 0…1, clamped.
    public let gauge: Double?
    public let items: [Item]
    public let empty: String?

    /// What is shown, without the date: two entries with the same content draw the same.
    public var content: [String?] {
        [title, value, label, gauge.map { String(Int(($0 * 100).rounded())) }, empty, String(relevance.score)]
            + items.flatMap { [$0.line, $0.detail] + $0.buttons.map(\.title) }
    }
}

/// A widget's relevance and the rule that gave it: the Smart Stack's order is by score, then by the
/// app's name and the widget's place among the app's widgets (its `rank`).
public struct WidgetRelevance: Sendable, Hashable {
    public let score: Int
    /// Index of the rule that held (nil: no rule held, or none is declared: score 0).
    public let rule: Int?
    public let condition: String?
    public let ruleCount: Int

    /// `rule 2 of 4 (exists(Task where urgency == urgent)) → 80`.
    public var explanation: String {
        guard let rule else {
            return ruleCount == 0 ? "no relevance rules → 0" : "no rule of \(ruleCount) holds → 0"
        }
        let what = condition.map { "when \($0)" } ?? "always"
        return "rule \(rule + 1) of \(ruleCount) (\(what)) → \(score)"
    }
}
