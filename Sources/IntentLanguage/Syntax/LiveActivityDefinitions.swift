public import IntentModel
public import YAML

/// A live activity as written: `activities: { Focus: { attributes: …, state: …, progress: …, … } }`.
public struct LiveActivityDefinition: Sendable {
    public var name: Located<String>
    public var title: Located<String>?
    public var image: Located<String>?
    /// Fixed when the activity starts (ActivityAttributes).
    public var attributes: [PropertyDefinition] = []
    /// Changed by each update (ActivityAttributes.ContentState).
    public var state: [PropertyDefinition] = []
    /// Expression from 0 to 1.
    public var progress: Located<String>?
    /// Expression: the date a countdown reaches zero.
    public var countdown: Located<String>?
    /// Duration after the last update (or start) at which the content is out of date.
    public var staleAfter: Located<String>?
    public var compactLeading: Located<String>?
    public var compactTrailing: Located<String>?
    public var minimal: Located<String>?
    public var expanded: [String: Located<String>] = [:]
    public var lockScreen: [String: Located<String>] = [:]
    public var range: SourceRange
}

/// `start_activity:`, `update_activity:` and `end_activity:` as written, in an intent's perform steps
/// or a shortcut file.
public struct ActivityStepDefinition: Sendable {
    public enum Action: String, Sendable, CaseIterable {
        case start = "start_activity"
        case update = "update_activity"
        case end = "end_activity"
    }

    public var action: Action
    public var activity: Located<String>
    public var arguments: [(Located<String>, Node)]
    /// Which of several running activities of the name: a template.
    public var id: Located<String>?
    /// `end_activity` only: `immediately`, `after 5m`, or `default`.
    public var dismiss: Located<String>?
    public var range: SourceRange
}
