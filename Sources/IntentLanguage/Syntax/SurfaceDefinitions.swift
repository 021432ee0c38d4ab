public import IntentModel
public import YAML

/// A home or lock screen widget as written: `widgets: { QuickCapture: { families: […], … } }`.
public struct WidgetDefinition: Sendable {
    public var name: Located<String>
    public var title: Located<String>?
    public var description: Located<String>?
    public var image: Located<String>?
    public var families: [Located<String>] = []
    /// `timeline: { refresh: 15m }`: a new entry this often.
    public var refresh: Located<String>?
    public var relevance: [RelevanceRuleDefinition] = []
    public var content: WidgetContentDefinition?
    public var buttons: [WidgetButtonDefinition] = []
    /// `parameters:` chosen when the widget is added, declared like an intent's.
    public var parameters: [ParameterDefinition] = []
    /// `let:` names computed for each entry, in order.
    public var bindings: [(Located<String>, Node)] = []
    /// `link:` the URL tapping the widget opens.
    public var link: Located<String>?
    public var range: SourceRange
}

/// One more figure: `{ value: "${…}", label: Today }`.
public struct WidgetFigureDefinition: Sendable {
    public var value: Located<String>
    public var label: Located<String>?
    public var range: SourceRange
}

/// One rule of a widget's relevance: the first whose `when` holds gives the score.
public struct RelevanceRuleDefinition: Sendable {
    public var condition: Located<String>?
    public var score: Located<Int>?
    public var range: SourceRange
}

/// What a widget shows: a title, a figure, a gauge and a list of items from a query.
public struct WidgetContentDefinition: Sendable {
    public var title: Located<String>?
    public var value: Located<String>?
    public var label: Located<String>?
    public var gauge: Located<String>?
    /// The entity the items are of, with the query (`Task where … sort … limit …`).
    public var itemsEntity: Located<String>?
    public var items: QueryDefinition?
    public var line: Located<String>?
    public var detail: Located<String>?
    public var empty: Located<String>?
    public var text: Located<String>?
    public var figures: [WidgetFigureDefinition] = []
    /// `link:` the URL tapping an item opens.
    public var link: Located<String>?
    public var range: SourceRange
}

/// A button on each item of a widget: runs an intent, then the widget reloads.
public struct WidgetButtonDefinition: Sendable {
    public var title: Located<String>
    public var action: IntentCallDefinition
    public var range: SourceRange
}

/// An intent with arguments, as a control or button runs it.
public struct IntentCallDefinition: Sendable {
    public var intent: Located<String>
    public var arguments: [(Located<String>, Node)]
    public var range: SourceRange
}

/// A Control Center control as written: a toggle (`state`, `on`, `off`) or a button (`action`).
public struct ControlDefinition: Sendable {
    public var name: Located<String>
    public var title: Located<String>?
    public var image: Located<String>?
    public var state: Located<String>?
    public var on: IntentCallDefinition?
    public var off: IntentCallDefinition?
    public var action: IntentCallDefinition?
    public var range: SourceRange
}
