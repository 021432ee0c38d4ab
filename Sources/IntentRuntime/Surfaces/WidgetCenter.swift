public import Foundation
public import IntentModel
public import ModelStore

/// Computes widgets from the store, as WidgetKit's timeline providers do: one snapshot at a moment,
/// the Smart Stack's order, and the entries a timeline would hold.
public struct WidgetCenter {
    public let graph: IntentGraph
    public let store: Store

    public init(graph: IntentGraph, store: Store) {
        self.graph = graph
        self.store = store
    }

    /// The widget as it is at `date` (default: the store's now).
    public func snapshot(_ widget: IntentGraph.Widget, at date: Date? = nil) throws -> WidgetSnapshot {
        try snapshot(WidgetInstance(widget), at: date)
    }

    /// A widget as added or previewed with its configuration, as it is at `date`.
    public func snapshot(_ instance: WidgetInstance, at date: Date? = nil) throws -> WidgetSnapshot {
        let clock = Clock.fixed(date ?? store.clock.now, timeZone: store.clock.timeZone)
        return try store.read { transaction in
            try Self.snapshot(
                instance, evaluator: Evaluator(graph: graph, clock: clock, app: instance.widget.app, store: transaction)
            )
        }
    }

    /// Every widget (of `family`, when given), most relevant first; ties keep the declared order. A
    /// configurable widget is there once for each time it was added, with the values chosen then.
    public func stack(family: IntentGraph.WidgetFamily? = nil, at date: Date? = nil) throws -> [WidgetSnapshot] {
        let clock = Clock.fixed(date ?? store.clock.now, timeZone: store.clock.timeZone)
        let snapshots = try store.read { transaction in
            let added = try transaction.widgetInstances()
            var instances: [WidgetInstance] = []
            for widget in graph.widgets {
                if widget.isConfigurable {
                    instances += added.filter { $0.widget == "\(widget.app).\(widget.name)" }.map {
                        WidgetInstance(widget, $0)
                    }
                } else {
                    instances.append(WidgetInstance(widget))
                }
            }
            return try instances.filter { family == nil || $0.families.contains(family!) }.map { instance in
                try Self.snapshot(
                    instance,
                    evaluator: Evaluator(graph: graph, clock: clock, app: instance.widget.app, store: transaction))
            }
        }
        return snapshots.enumerated().sorted { a, b in
            a.element.relevance.score != b.element.relevance.score
                ? a.element.relevance.score > b.element.relevance.score : a.offset < b.offset
        }.map(\.element)
    }

    /// The entries a timeline over `span` seconds from `start` holds: one at the start, one at each
    /// refresh, and one wherever what the widget shows changes with time alone (a due date passing,
    /// a focus block ending), found at a resolution of one minute.
    public func timeline(_ widget: IntentGraph.Widget, from start: Date, span: Int) throws -> [WidgetSnapshot] {
        try timeline(WidgetInstance(widget), from: start, span: span)
    }

    public func timeline(_ instance: WidgetInstance, from start: Date, span: Int) throws -> [WidgetSnapshot] {
        let widget = instance.widget
        let span = max(0, min(span, 7 * 86_400))
        let step = max(60, span / 1_440)
        var moments = Set(stride(from: 0, through: span, by: step).map { start.addingTimeInterval(Double($0)) })
        if let refresh = widget.refresh {
            moments.formUnion(stride(from: 0, through: span, by: refresh).map { start.addingTimeInterval(Double($0)) })
        }
        let refreshes = Set(
            widget.refresh.map { refresh in
                stride(from: 0, through: span, by: refresh).map { start.addingTimeInterval(Double($0)) }
            } ?? [start])
        let timeZone = store.clock.timeZone
        return try store.read { transaction in
            var entries: [WidgetSnapshot] = []
            for moment in moments.sorted() {
                let evaluator = Evaluator(
                    graph: graph, clock: .fixed(moment, timeZone: timeZone), app: widget.app, store: transaction)
                let snapshot = try Self.snapshot(instance, evaluator: evaluator)
                if refreshes.contains(moment) || entries.last?.content != snapshot.content {
                    entries.append(snapshot)
                }
            }
            return entries
        }
    }

    /// Runs button `number` of the widget as it is now, then the widget reloads (the caller takes a
    /// new snapshot). Nil when the widget has no such button.
    public func press(
        _ number: Int, on widget: IntentGraph.Widget, session: Session, options: Conversation.Options
    ) throws -> Answer? {
        try press(number, on: WidgetInstance(widget), session: session, options: options)
    }

    public func press(
        _ number: Int, on instance: WidgetInstance, session: Session, options: Conversation.Options
    ) throws -> Answer? {
        let widget = instance.widget
        let clock = session.clock.frozen()
        let found: (IntentGraph.IntentCall, [String: Datum])? = try store.read { transaction in
            let evaluator = Evaluator(graph: graph, clock: clock, app: widget.app, store: transaction)
            let base = try Self.baseScope(instance, evaluator: evaluator)
            func call(_ button: IntentGraph.WidgetButton, _ scope: Evaluator.Scope) throws -> (
                IntentGraph.IntentCall, [String: Datum]
            ) {
                var arguments: [String: Datum] = [:]
                for argument in button.action.arguments {
                    arguments[argument.name] = try evaluator.value(of: argument.value, in: scope)
                }
                return (button.action, arguments)
            }
            if widget.hasWidgetButtons {
                guard widget.buttons.indices.contains(number - 1) else { return nil }
                return try call(widget.buttons[number - 1], base)
            }
            guard let query = widget.content.items else { return nil }
            var counter = 0
            for record in try evaluator.query(query, in: base) {
                let scope = Self.itemScope(record, base)
                for button in widget.buttons {
                    counter += 1
                    guard counter == number else { continue }
                    return try call(button, scope)
                }
            }
            return nil
        }
        guard let (call, arguments) = found, let intent = graph.intent(call.intent) else { return nil }
        return Conversation(session: session, options: options).perform(intent, arguments: arguments)
    }

    /// What tapping the widget (`item` nil) or its item `item` (from 1) opens now: its link, nil
    /// when it has none.
    public func link(_ item: Int?, on instance: WidgetInstance, at date: Date? = nil) throws -> String? {
        let snapshot = try snapshot(instance, at: date)
        guard let item else { return snapshot.link }
        return snapshot.items.indices.contains(item - 1) ? snapshot.items[item - 1].link : nil
    }

    static func itemScope(_ record: Record, _ base: Evaluator.Scope) -> Evaluator.Scope {
        base.merging(["item": .entity(record)]) { _, item in item }
    }

    /// The parameters (chosen, else their defaults) and the `let:` values, in order.
    static func baseScope(_ instance: WidgetInstance, evaluator: Evaluator) throws(RuntimeError) -> Evaluator.Scope {
        var scope: Evaluator.Scope = [:]
        for parameter in instance.widget.parameters {
            scope[parameter.name] = try instance.datum(parameter, evaluator: evaluator)
        }
        for binding in instance.widget.bindings {
            scope[binding.name] = try evaluator.value(of: binding.value, in: scope)
        }
        return scope
    }

    static func snapshot(_ instance: WidgetInstance, evaluator: Evaluator) throws(RuntimeError) -> WidgetSnapshot {
        let widget = instance.widget
        let base = try baseScope(instance, evaluator: evaluator)
        var relevance = WidgetRelevance(score: 0, rule: nil, condition: nil, ruleCount: widget.relevance.count)
        for (index, rule) in widget.relevance.enumerated() {
            if let condition = rule.condition, !(try evaluator.evaluate(condition, in: base).truthy) { continue }
            relevance = WidgetRelevance(
                score: rule.score, rule: index, condition: rule.source, ruleCount: widget.relevance.count)
            break
        }
        let content = widget.content
        func text(_ template: Template?, _ scope: Evaluator.Scope? = nil) throws(RuntimeError) -> String? {
            guard let template else { return nil }
            return Self.plain(try evaluator.render(template, in: scope ?? base))
        }
        var items: [WidgetSnapshot.Item] = []
        var buttonNumber = 0
        if let query = content.items {
            for record in try evaluator.query(query, in: base) {
                let scope = itemScope(record, base)
                var buttons: [WidgetSnapshot.Button] = []
                for button in widget.buttons {
                    buttonNumber += 1
                    buttons.append(.init(number: buttonNumber, title: try text(button.title, scope) ?? ""))
                }
                let line = try text(content.line, scope) ?? evaluator.describe(.entity(record))
                items.append(
                    .init(
                        id: record.id, line: line, detail: try text(content.detail, scope),
                        link: try content.itemLink.map { template throws(RuntimeError) in
                            try evaluator.render(template, in: scope)
                        } ?? evaluator.graph.canonicalLink(for: record.entity, id: record.id), buttons: buttons))
            }
        }
        var gauge: Double?
        if let expression = content.gauge {
            gauge = try evaluator.evaluate(expression, in: base).numeric.map { min(1, max(0, $0.isNaN ? 0 : $0)) }
        }
        var snapshot = WidgetSnapshot(
            widget: widget, date: evaluator.values.clock.now, relevance: relevance, title: try text(content.title),
            value: try text(content.value), label: try text(content.label), gauge: gauge, items: items,
            empty: items.isEmpty ? try text(content.empty) : nil)
        snapshot.text = try text(content.text)
        for figure in content.figures {
            snapshot.figures.append(.init(value: try text(figure.value) ?? "", label: try text(figure.label)))
        }
        snapshot.link = try widget.link.map { template throws(RuntimeError) in try evaluator.render(template, in: base)
        }
        if widget.hasWidgetButtons {
            for (index, button) in widget.buttons.enumerated() {
                snapshot.buttons.append(.init(number: index + 1, title: try text(button.title) ?? ""))
            }
        }
        snapshot.instance = instance.id
        snapshot.source = instance
        snapshot.family = instance.family
        for parameter in widget.parameters {
            guard let value = base[parameter.name], !value.isNull else { continue }
            snapshot.settings.append(.init(name: parameter.name, value: plain(evaluator.describe(value))))
        }
        return snapshot
    }

    /// Stored text reaches the widget with control characters made visible, never executed.
    static func plain(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0.properties.generalCategory == .control ? "\u{FFFD}" : $0 }))
    }
}
