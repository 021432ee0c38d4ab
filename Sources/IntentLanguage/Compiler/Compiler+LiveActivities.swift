import IntentModel
import YAML

extension Diagnostic.Message {
    static func activityValueType(_ name: String, _ type: ValueType) -> Self {
        "'\(name)' is \(type); an activity keeps plain values: string, integer, number, boolean, date, duration, url or an enum"
    }
    static func fixedAttribute(_ name: String, _ activity: String) -> Self {
        "'\(name)' is an attribute of \(activity), fixed when it starts; only its state changes"
    }
    static func noActivityValue(_ activity: String, _ name: String) -> Self { "\(activity) has no value '\(name)'" }
    static let dismissal: Self =
        "expected immediately, default, or after and a duration of at most 4h, such as 'after 5m'"
}

/// Live activities: their attributes and state typed like properties, their expressions and
/// templates checked in a scope of those (plus `startedAt` and `updatedAt`), and the steps that
/// start, update and end them checked against the declaration.
extension Compiler {
    /// Names every activity expression can read besides the app's constants.
    static let activityBuiltins: [String: ValueType] = ["startedAt": .date, "updatedAt": .date]

    mutating func compileLiveActivities(app: String) -> [IntentGraph.LiveActivity] {
        let definitions = firstOfEachName(apps[app]!.files.flatMap(\.liveActivities), "activity", \.name)
        return definitions.compactMap { compileLiveActivity($0, app: app) }
    }

    private mutating func compileLiveActivity(
        _ definition: LiveActivityDefinition, app: String
    ) -> IntentGraph.LiveActivity? {
        let errorsBefore = diagnostics.errorCount
        let owner = "\(app).\(definition.name.value)"
        var seen: [String: SourceRange] = [:]
        func values(_ properties: [PropertyDefinition]) -> [IntentGraph.Property] {
            properties.compactMap { property in
                let name = property.name.value
                if !Self.isIdentifier(name) {
                    diagnostics.error(
                        "'\(name)' is not a valid name: use letters, digits and '_'", at: property.name.range)
                    return nil
                }
                if Self.activityBuiltins[name] != nil {
                    diagnostics.error(
                        "'\(name)' is kept for every activity and cannot be declared", at: property.name.range)
                    return nil
                }
                if let first = seen[name] {
                    diagnostics.error(
                        .duplicate("value", name), at: property.name.range,
                        notes: [Diagnostic.Note(.firstDeclaredHere, at: first)])
                    return nil
                }
                seen[name] = property.name.range
                guard let (type, optionalMark) = resolveType(property.type, app: app) else {
                    failedMembers.insert("\(owner).\(name)")
                    return nil
                }
                switch type {
                case .entity, .array:
                    diagnostics.error(.activityValueType(name, type), at: property.type.range)
                    return nil
                default: break
                }
                var defaultValue: Value?
                if let node = property.defaultValue, !node.isNull {
                    defaultValue = value(node, as: type, context: "the default of '\(name)'")
                }
                return IntentGraph.Property(
                    name: name, type: type,
                    isOptional: property.optional || optionalMark || (property.defaultValue?.isNull ?? false),
                    defaultValue: defaultValue, isBuiltin: false, location: property.name.range)
            }
        }
        let attributes = values(definition.attributes)
        let state = values(definition.state)
        var scope = constantScope(app: app).merging(Self.activityBuiltins) { _, builtin in builtin }
        for property in attributes + state { scope[property.name] = property.type }

        let progress = definition.progress.flatMap { fractionExpression($0, "progress", scope: scope, app: app) }
        var countdown: Expression?
        if let source = definition.countdown,
            let (expression, type) = checkExpression(source, scope: scope, app: app, condition: false)
        {
            if let found = type.valueType, found != .date {
                diagnostics.error("a countdown is the date it reaches zero, not \(found)", at: source.range)
            }
            countdown = expression
        }
        var staleAfter: Int?
        if let text = definition.staleAfter {
            if let seconds = DurationText.parse(text.value), seconds >= 60 {
                staleAfter = seconds
            } else {
                diagnostics.error("expected a duration of at least a minute, such as 10m or 1h", at: text.range)
            }
        }
        func template(_ located: Located<String>?) -> Template? {
            located.flatMap { checkTemplate($0, scope: scope, app: app)?.0 }
        }
        var expanded: [IntentGraph.ExpandedRegion: Template] = [:]
        for (key, text) in definition.expanded {
            if let region = IntentGraph.ExpandedRegion(rawValue: key) { expanded[region] = template(text) }
        }
        var lockScreen: [IntentGraph.LockScreenPart: Template] = [:]
        for (key, text) in definition.lockScreen {
            if let part = IntentGraph.LockScreenPart(rawValue: key) { lockScreen[part] = template(text) }
        }
        let presentations = IntentGraph.ActivityPresentations(
            compactLeading: template(definition.compactLeading), compactTrailing: template(definition.compactTrailing),
            minimal: template(definition.minimal), expanded: expanded, lockScreen: lockScreen)
        guard diagnostics.errorCount == errorsBefore else { return nil }
        return IntentGraph.LiveActivity(
            name: definition.name.value, app: app, title: definition.title?.value ?? definition.name.value,
            image: definition.image?.value, attributes: attributes, state: state, progress: progress,
            countdown: countdown, staleAfter: staleAfter, presentations: presentations,
            location: definition.name.range)
    }

    /// A `start_activity:`, `update_activity:` or `end_activity:` step in `scope`.
    mutating func compileActivityStep(
        _ step: ActivityStepDefinition, scope: ExpressionChecker.Scope, app: String
    ) -> IntentGraph.ActivityStep? {
        let parts = step.activity.value.split(separator: ".", maxSplits: 1).map(String.init)
        var name =
            parts.count == 2
            ? QualifiedName(app: parts[0], name: parts[1]) : QualifiedName(app: app, name: step.activity.value)
        // A shortcut file belongs to no app: a name declared by one app only needs no prefix.
        let sameName = liveActivities.keys.filter { $0.name == name.name }
        if parts.count == 1, liveActivities[name] == nil, sameName.count == 1 { name = sameName[0] }
        guard let activity = liveActivities[name] else {
            let declared =
                apps[name.app]?.files.flatMap(\.liveActivities).contains { $0.name.value == name.name } ?? false
            if !declared {
                diagnostics.unknown(
                    "activity", step.activity.value, at: step.activity.range,
                    known: liveActivities.keys.filter { $0.app == app || app.isEmpty }.map(\.name).sorted())
            }
            return nil
        }
        let action: IntentGraph.ActivityStep.Action =
            switch step.action {
            case .start: .start
            case .update: .update
            case .end: .end
            }
        let errorsBefore = diagnostics.errorCount
        var arguments: [IntentGraph.Assignment] = []
        for (argument, node) in step.arguments {
            let owner = "\(activity.app).\(activity.name).\(argument.value)"
            if action != .start, activity.attribute(argument.value) != nil {
                diagnostics.error(.fixedAttribute(argument.value, activity.title), at: argument.range)
                continue
            }
            guard let property = activity.stateValue(argument.value) ?? activity.attribute(argument.value) else {
                if failedMembers.contains(owner) { continue }
                let known = (action == .start ? activity.attributes : []) + activity.state
                diagnostics.missing(
                    .noActivityValue(activity.title, argument.value), argument.value, at: argument.range,
                    known: known.map(\.name))
                continue
            }
            if let typed = typedArgument(argument, node, property.type, scope: scope, app: app) {
                arguments.append(typed)
            }
        }
        if action == .start {
            for property in activity.attributes + activity.state
            where !property.isOptional && property.defaultValue == nil
                && !step.arguments.contains(where: { $0.0.value == property.name })
            {
                diagnostics.error(
                    "starting \(activity.title) needs a value for '\(property.name)'", at: step.activity.range)
            }
        }
        let id = step.id.flatMap { checkTemplate($0, scope: scope, app: app)?.0 }
        var dismissal = IntentGraph.ActivityStep.Dismissal.standard
        // On other steps `dismiss` is reported by the schema as a key that does not apply.
        if let text = step.dismiss, action == .end {
            if let parsed = Self.dismissal(text.value) {
                dismissal = parsed
            } else {
                diagnostics.error(.dismissal, at: text.range)
            }
        }
        guard diagnostics.errorCount == errorsBefore else { return nil }
        return IntentGraph.ActivityStep(
            action: action, activity: name, arguments: arguments, id: id, dismissal: dismissal)
    }

    /// `immediately`, `default`, `after 5m`.
    static func dismissal(_ text: String) -> IntentGraph.ActivityStep.Dismissal? {
        let words = text.split(separator: " ").map { $0.lowercased() }
        switch words.first {
        case "immediately" where words.count == 1: return .immediately
        case "default" where words.count == 1: return .standard
        case "after" where words.count == 2:
            guard let seconds = DurationText.parse(words[1]), seconds >= 0, seconds <= 4 * 3_600 else { return nil }
            return .after(seconds)
        default: return nil
        }
    }
}
