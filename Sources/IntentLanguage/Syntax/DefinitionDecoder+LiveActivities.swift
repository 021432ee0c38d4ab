import IntentModel
import YAML

extension DefinitionDecoder {
    mutating func liveActivity(_ name: Located<String>, _ node: Node) -> LiveActivityDefinition? {
        guard let fields = fields(node, .liveActivity, context: "activity '\(name.value)'") else { return nil }
        var activity = LiveActivityDefinition(name: name, range: node.range)
        activity.title = fields["title"].flatMap { string($0, "'title'") }
        activity.image = fields["image"].flatMap { string($0, "'image'") }
        activity.attributes = named(fields["attributes"], "'attributes'") { decoder, name, node in
            decoder.property(name, node)
        }
        activity.state = named(fields["state"], "'state'") { decoder, name, node in decoder.property(name, node) }
        activity.progress = fields["progress"].flatMap { string($0, "'progress'") }
        activity.countdown = fields["countdown"].flatMap { string($0, "'countdown'") }
        activity.staleAfter = fields["staleAfter"].flatMap { string($0, "'staleAfter'") }
        activity.minimal = fields["minimal"].flatMap { string($0, "'minimal'") }
        if let compact = fields["compact"], let parts = self.fields(compact, .activityCompact, context: "'compact'") {
            activity.compactLeading = parts["leading"].flatMap { string($0, "'leading'") }
            activity.compactTrailing = parts["trailing"].flatMap { string($0, "'trailing'") }
        }
        for (key, object, path) in [
            ("expanded", DefinitionSchema.Object.activityExpanded, \LiveActivityDefinition.expanded),
            ("lockScreen", .activityLockScreen, \.lockScreen),
        ] {
            guard let node = fields[key], let parts = self.fields(node, object, context: "'\(key)'") else { continue }
            for (part, value) in parts { activity[keyPath: path][part] = string(value, "'\(part)'") }
        }
        return activity
    }

}

extension SchemaDecoding {
    /// The step of `action` (its verb found in `fields`), in a perform list or a shortcut file.
    mutating func activityStep(
        _ action: ActivityStepDefinition.Action, _ verbNode: Node, _ fields: SchemaFields, range: SourceRange
    ) -> ActivityStepDefinition? {
        guard let name = string(verbNode, "'\(action.rawValue)'") else { return nil }
        return ActivityStepDefinition(
            action: action, activity: name, arguments: pairs(fields["with"], "'with'"),
            id: fields["id"].flatMap { string($0, "'id'") },
            dismiss: fields["dismiss"].flatMap { string($0, "'dismiss'") }, range: range)
    }
}
