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

    /// One more figure: `2 Today`.
    public struct Figure: Sendable, Hashable {
        public let value: String
        public let label: String?
    }

    /// A configured parameter as shown: `radar: rust`.
    public struct Setting: Sendable, Hashable {
        public let name: String
        public let value: String
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
    /// The sentence under the heading (`text:`).
    public var text: String? = nil
    public var figures: [Figure] = []
    /// What tapping the widget opens (`link:`).
    public var link: String? = nil
    /// Buttons of the widget itself (a widget without items), numbered from 1.
    public var buttons: [Button] = []
    /// The added widget this is (`widget add`), nil for a widget that is not configurable or a preview.
    public var instance: Int64? = nil
    /// The family it was added in.
    public var family: IntentGraph.WidgetFamily? = nil
    /// The values it was configured with.
    public var settings: [Setting] = []
    /// The widget with its configuration, as computed: what its buttons and links act on.
    public var source: WidgetInstance? = nil

    /// What is shown, without the date: two entries with the same content draw the same.
    public var content: [String?] {
        [
            title, value, label, gauge.map { String(Int(($0 * 100).rounded())) }, empty, String(relevance.score), text,
            link,
        ]
            + figures.flatMap { [$0.value, $0.label] } + buttons.map(\.title)
            + items.flatMap { [$0.line, $0.detail, $0.link] + $0.buttons.map(\.title) }
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
