import IntentModel

extension DefinitionSchema {
    /// The keys `start_activity:`, `update_activity:` and `end_activity:` add to a perform step.
    static let activityStepFields: [Field] = [
        Field(
            name: "start_activity", shape: .string, doc: "Starts a live activity: attributes and state under 'with'."),
        Field(name: "update_activity", shape: .string, doc: "Changes a running live activity's state ('with')."),
        Field(name: "end_activity", shape: .string, doc: "Ends a live activity, with a final state ('with')."),
        Field(name: "id", shape: .string, doc: "Which activity of the name, when several run at once (a template)."),
        Field(
            name: "dismiss", shape: .string,
            doc: "When an ended activity leaves the lock screen: immediately, after 5m, or default (4 hours)."),
    ]

    /// The objects of `activities:` and the shortcut steps that drive them.
    static func liveActivityFields(of object: Object) -> [Field] {
        let with = Field(
            name: "with", shape: .names(.any), doc: "Values: attributes (start) and state, or ${…} templates.")
        let id = Field(name: "id", shape: .string, doc: "Which activity of the name, when several run at once.")
        switch object {
        case .liveActivity:
            return [
                Field(name: "title", shape: .string, doc: "Its name, as the compact presentation shows it."),
                Field(name: "image", shape: .string, doc: "Symbol name."),
                Field(
                    name: "attributes", shape: .names(.oneOf([.string, .object(.property)])),
                    doc: "Values fixed when it starts, by name; a string value is the type."),
                Field(
                    name: "state", shape: .names(.oneOf([.string, .object(.property)])),
                    doc: "Values each update may change (the content state)."),
                Field(
                    name: "progress", shape: .string, doc: "Expression from 0 to 1 (default: the countdown's share)."),
                Field(name: "countdown", shape: .string, doc: "Expression: the date a timer counts down to."),
                Field(name: "staleAfter", shape: .string, doc: "Out of date this long after its last update: 10m, 1h."),
                Field(name: "compact", shape: .object(.activityCompact), doc: "The Dynamic Island beside the camera."),
                Field(
                    name: "minimal", shape: .string, doc: "Template: the Dynamic Island shared with another activity."),
                Field(name: "expanded", shape: .object(.activityExpanded), doc: "The Dynamic Island held open."),
                Field(name: "lockScreen", shape: .object(.activityLockScreen), doc: "The lock screen banner."),
            ]
        case .activityCompact:
            return [
                Field(name: "leading", shape: .string, doc: "Template left of the camera (default: the title)."),
                Field(name: "trailing", shape: .string, doc: "Template right of it (default: countdown or percent)."),
            ]
        case .activityExpanded:
            return IntentGraph.ExpandedRegion.allCases.map {
                Field(name: $0.rawValue, shape: .string, doc: "Template for the \($0.rawValue) region.")
            }
        case .activityLockScreen:
            return [
                Field(name: "title", shape: .string, doc: "Template: the heading (default: the title)."),
                Field(name: "detail", shape: .string, doc: "Template: the line under the progress bar."),
            ]
        case .startActivityStep:
            return [
                Field(name: "start_activity", shape: .string, doc: "The activity to start, App.Name.", required: true),
                with, id,
            ]
        case .updateActivityStep:
            return [
                Field(
                    name: "update_activity", shape: .string, doc: "The activity to update, App.Name.", required: true),
                with, id,
            ]
        case .endActivityStep:
            return [
                Field(name: "end_activity", shape: .string, doc: "The activity to end, App.Name.", required: true),
                with, id,
                Field(name: "dismiss", shape: .string, doc: "immediately, after 5m, or default (4 hours)."),
            ]
        default:
            return []
        }
    }
}
