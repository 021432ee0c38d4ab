import IntentModel
import YAML

extension Diagnostic.Message {
    static func unknownFamily(_ name: String) -> Self { "unknown widget family '\(name)'" }
    static let scoreRange: Self = "a relevance score is between 0 and 100"
    static let unreachableRule: Self = "this rule is never reached: the rule before it always holds"
    static let controlKind: Self = "a control is a toggle (state, turnOn, turnOff) or a button (action)"
    static func reservedWidgetName(_ name: String) -> Self {
        "'\(name)' cannot name a widget's parameter or value: use letters, digits and '_', and not 'item'"
    }
    static let widgetButtonWithoutItems: Self =
        "this button belongs to the widget (it has no 'items'), so it cannot use 'item': add 'items' or drop 'item'"
    static let linkNeedsScheme: Self = "a link starts with a scheme, as in radar://open/${radar.id}"
}

/// Widgets and controls: their expressions and templates checked like an intent's, the intents
/// they run checked like a `call:` step.
extension Compiler {
    mutating func compileWidgets(app: String) -> [IntentGraph.Widget] {
        firstOfEachName(apps[app]!.files.flatMap(\.widgets), "widget", \.name).compactMap {
            compileWidget($0, app: app)
        }
    }

    /// The definitions in order, each name once: a second one of a name is an error that notes the first.
    mutating func firstOfEachName<Definition>(
        _ definitions: [Definition], _ what: String, _ name: KeyPath<Definition, Located<String>>
    ) -> [Definition] {
        var seen: [String: SourceRange] = [:]
        return definitions.filter { definition in
            let name = definition[keyPath: name]
            if let first = seen[name.value] {
                diagnostics.error(
                    .duplicate(what, name.value), at: name.range,
                    notes: [Diagnostic.Note(.firstDeclaredHere, at: first)])
                return false
            }
            seen[name.value] = name.range
            return true
        }
    }

    private mutating func compileWidget(_ definition: WidgetDefinition, app: String) -> IntentGraph.Widget? {
        let errorsBefore = diagnostics.errorCount
        var scope = constantScope(app: app)
        let parameters = compileParameters(definition.parameters, owner: definition.name.value, app: app)
        for parameter in parameters {
            if parameter.name == "item" {
                diagnostics.error(.reservedWidgetName("item"), at: parameter.location)
                continue
            }
            scope[parameter.name] = parameter.type
        }
        var bindings: [IntentGraph.Assignment] = []
        for (name, node) in definition.bindings {
            if !Self.isIdentifier(name.value) || name.value == "item" {
                diagnostics.error(.reservedWidgetName(name.value), at: name.range)
                continue
            }
            guard let (template, type) = assignmentTemplate(node, scope: scope, app: app) else {
                silentNames.insert(name.value)
                continue
            }
            if let type = type.valueType { scope[name.value] = type }
            bindings.append(IntentGraph.Assignment(name: name.value, value: template))
        }
        let families: [IntentGraph.WidgetFamily] = cases(definition.families, "widget family")
        if definition.families.isEmpty {
            diagnostics.error("a widget needs at least one family", at: definition.name.range)
        }
        var refresh: Int?
        if let text = definition.refresh {
            if let seconds = DurationText.parse(text.value), seconds >= 60 {
                refresh = seconds
            } else {
                diagnostics.error("expected a duration of at least a minute, such as 15m or 1h", at: text.range)
            }
        }
        var rules: [IntentGraph.RelevanceRule] = []
        for (index, rule) in definition.relevance.enumerated() {
            if index > 0, definition.relevance[index - 1].condition == nil {
                diagnostics.warning(.unreachableRule, at: rule.range)
            }
            guard let score = rule.score else { continue }
            if !(0...100).contains(score.value) { diagnostics.error(.scoreRange, at: score.range) }
            var condition: Expression?
            if let source = rule.condition {
                condition = checkExpression(source, scope: scope, app: app, condition: true)?.0
            }
            rules.append(
                IntentGraph.RelevanceRule(condition: condition, source: rule.condition?.value, score: score.value))
        }
        guard let contentDefinition = definition.content else { return nil }
        var items: IntentGraph.Query?
        var itemScope = scope
        if let entityName = contentDefinition.itemsEntity, let query = contentDefinition.items,
            let entity = resolveEntity(entityName, app: app)
        {
            items = compileQuery(query, entity: entity, outer: scope, app: app)
            itemScope["item"] = .entity(entity)
        }
        for (key, template) in [
            ("line", contentDefinition.line), ("detail", contentDefinition.detail), ("link", contentDefinition.link),
        ]
        where template != nil && contentDefinition.items == nil {
            diagnostics.error("'\(key)' shows each item: add 'items'", at: template!.range)
        }
        // Without items (missing, or already reported), `item` is not reported again in each template.
        let outerSilentNames = silentNames
        if items == nil { silentNames.insert("item") }
        defer { silentNames = outerSilentNames }
        func template(_ located: Located<String>?, _ scope: ExpressionChecker.Scope) -> Template? {
            located.flatMap { checkTemplate($0, scope: scope, app: app)?.0 }
        }
        let gauge = contentDefinition.gauge.flatMap { fractionExpression($0, "a gauge", scope: scope, app: app) }
        var content = IntentGraph.WidgetContent(
            title: template(contentDefinition.title, scope), value: template(contentDefinition.value, scope),
            label: template(contentDefinition.label, scope), gauge: gauge, items: items,
            line: template(contentDefinition.line, itemScope), detail: template(contentDefinition.detail, itemScope),
            empty: template(contentDefinition.empty, scope))
        content.text = template(contentDefinition.text, scope)
        content.figures = contentDefinition.figures.compactMap { figure in
            template(figure.value, scope).map {
                IntentGraph.WidgetFigure(value: $0, label: template(figure.label, scope))
            }
        }
        content.itemLink = contentDefinition.link.flatMap { linkTemplate($0, scope: itemScope, app: app) }
        let link = definition.link.flatMap { linkTemplate($0, scope: scope, app: app) }
        var buttons: [IntentGraph.WidgetButton] = []
        for button in definition.buttons {
            // Without items a button belongs to the widget (an interactive widget's Button(intent:)).
            let buttonScope = contentDefinition.items == nil ? scope : itemScope
            guard let title = template(button.title, buttonScope),
                let (intent, arguments) = compileCall(
                    button.action.intent, button.action.arguments, scope: buttonScope, app: app)
            else { continue }
            let usesItem = ([title] + arguments.map(\.value)).contains { template in
                template.expressions.contains { $0.names.contains("item") }
            }
            if contentDefinition.items == nil, usesItem, scope["item"] == nil {
                diagnostics.error(.widgetButtonWithoutItems, at: button.range)
                continue
            }
            buttons.append(
                IntentGraph.WidgetButton(
                    title: title, action: IntentGraph.IntentCall(intent: intent.name, arguments: arguments)))
        }
        guard diagnostics.errorCount == errorsBefore else { return nil }
        var widget = IntentGraph.Widget(
            name: definition.name.value, app: app, title: definition.title?.value ?? definition.name.value,
            description: definition.description?.value, image: definition.image?.value, families: families,
            refresh: refresh, relevance: rules,
            content: content, buttons: buttons, location: definition.name.range)
        widget.parameters = parameters
        widget.bindings = bindings
        widget.link = link
        return widget
    }

    /// A link template: checked like any template, and a literal start must be a URL with a scheme
    /// (`radar://open/${radar.id}`), so a typo shows here rather than when someone taps the widget.
    private mutating func linkTemplate(
        _ located: Located<String>, scope: ExpressionChecker.Scope, app: String
    ) -> Template? {
        let head = located.value.trimmed.prefix { $0 != "$" }
        if head.isEmpty { return checkTemplate(located, scope: scope, app: app)?.0 }  // all computed: seen when tapped
        if let colon = head.range(of: "://"),
            head[..<colon.lowerBound].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }),
            !head[..<colon.lowerBound].isEmpty
        {
            return checkTemplate(located, scope: scope, app: app)?.0
        }
        diagnostics.error(.linkNeedsScheme, at: located.range)
        return nil
    }

    mutating func compileControls(app: String) -> [IntentGraph.Control] {
        var result: [IntentGraph.Control] = []
        let scope = constantScope(app: app)
        for definition in firstOfEachName(apps[app]!.files.flatMap(\.controls), "control", \.name) {
            let errorsBefore = diagnostics.errorCount
            func call(_ definition: IntentCallDefinition?) -> IntentGraph.IntentCall? {
                guard let definition,
                    let (intent, arguments) = compileCall(
                        definition.intent, definition.arguments, scope: scope, app: app)
                else { return nil }
                return IntentGraph.IntentCall(intent: intent.name, arguments: arguments)
            }
            let isToggle = definition.state != nil || definition.on != nil || definition.off != nil
            let kind: IntentGraph.Control.Kind?
            if isToggle, definition.action == nil, let stateSource = definition.state, definition.on != nil,
                definition.off != nil
            {
                let state = checkExpression(stateSource, scope: scope, app: app, condition: true)?.0
                let on = call(definition.on)
                let off = call(definition.off)
                kind = state.flatMap { state in on.flatMap { on in off.map { .toggle(state: state, on: on, off: $0) } }
                }
            } else if !isToggle, definition.action != nil {
                kind = call(definition.action).map { .button($0) }
            } else {
                diagnostics.error(.controlKind, at: definition.name.range)
                kind = nil
            }
            guard let kind, diagnostics.errorCount == errorsBefore else { continue }
            result.append(
                IntentGraph.Control(
                    name: definition.name.value, app: app, title: definition.title?.value ?? definition.name.value,
                    image: definition.image?.value, kind: kind, location: definition.name.range))
        }
        return result
    }
}

extension Compiler {
    /// Names of a fixed set (widget families, content kinds, eligibilities) in the order written, each
    /// once; an unknown one is reported with did-you-mean and left out.
    mutating func cases<Case: RawRepresentable & CaseIterable & Equatable>(
        _ names: [Located<String>], _ what: String
    ) -> [Case] where Case.RawValue == String {
        var result: [Case] = []
        for name in names {
            guard let known = Case(rawValue: name.value) else {
                diagnostics.unknown(what, name.value, at: name.range, known: Case.allCases.map(\.rawValue))
                continue
            }
            if !result.contains(known) { result.append(known) }
        }
        return result
    }
}

extension DiagnosticCollector {
    /// Errors so far: a declaration compiled with new errors is left out of the graph.
    var errorCount: Int { diagnostics.count { $0.severity == .error } }
}
