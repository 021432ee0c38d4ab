import IntentModel

extension DefinitionSchema {
    /// The objects of `widgets:` and `controls:`.
    static func surfaceFields(of object: Object) -> [Field] {
        let families = IntentGraph.WidgetFamily.allCases.map(\.rawValue).joined(separator: ", ")
        switch object {
        case .widget:
            return [
                Field(name: "title", shape: .string, doc: "The widget's name in the gallery."),
                Field(name: "description", shape: .string, doc: "What the widget shows."),
                Field(name: "image", shape: .string, doc: "Symbol name shown by its title."),
                Field(name: "families", shape: .list(.string), doc: "Sizes it comes in: \(families).", required: true),
                Field(name: "timeline", shape: .object(.widgetTimeline), doc: "When new entries are made."),
                Field(
                    name: "relevance", shape: .list(.object(.relevanceRule)),
                    doc: "Smart Stack scores; the first rule that holds wins."),
                Field(name: "content", shape: .object(.widgetContent), doc: "What it shows.", required: true),
                Field(
                    name: "buttons", shape: .list(.object(.widgetButton)),
                    doc: "Buttons on each item, or on the widget when it has no items: each runs an intent."),
                Field(
                    name: "parameters", shape: .names(.oneOf([.string, .object(.parameter)])),
                    doc:
                        "Chosen when the widget is added (a configurable widget), declared like an intent's parameters."
                ),
                Field(
                    name: "let", shape: .names(.any), doc: "Names computed for each entry, in order: ${…} templates."),
                Field(name: "link", shape: .string, doc: "Template: the URL tapping the widget opens (widgetURL)."),
            ]
        case .widgetTimeline:
            return [Field(name: "refresh", shape: .string, doc: "A new entry this often, e.g. 15m.", required: true)]
        case .relevanceRule:
            return [
                Field(name: "when", shape: .string, doc: "Condition over the store; no condition always holds."),
                Field(name: "score", shape: .integer, doc: "Relevance, 0 to 100.", required: true),
            ]
        case .widgetContent:
            return [
                Field(name: "title", shape: .string, doc: "Template: the heading."),
                Field(name: "value", shape: .string, doc: "Template: the one figure small families show."),
                Field(name: "label", shape: .string, doc: "Template: what the figure counts."),
                Field(name: "gauge", shape: .string, doc: "Expression from 0 to 1: a gauge (accessoryCircular)."),
                Field(
                    name: "items", shape: .oneOf([.string, .object(.widgetItems)]),
                    doc: "A query: 'Task where !isCompleted sort -createdAt limit 3', or from/where/sort/limit."),
                Field(name: "line", shape: .string, doc: "Template for each item, with ${item}."),
                Field(name: "detail", shape: .string, doc: "Template: a second text for each item."),
                Field(name: "empty", shape: .string, doc: "Template shown when there are no items."),
                Field(name: "text", shape: .string, doc: "Template: a sentence or two under the heading."),
                Field(
                    name: "figures", shape: .list(.object(.widgetFigure)),
                    doc: "More figures beside the value: each a value and a label."),
                Field(
                    name: "link", shape: .string,
                    doc: "Template with ${item}: the URL tapping an item opens (default: the record's link)."),
            ]
        case .widgetFigure:
            return [
                Field(name: "value", shape: .string, doc: "Template: the figure.", required: true),
                Field(name: "label", shape: .string, doc: "Template: what it counts."),
            ]
        case .widgetItems:
            return [
                Field(name: "from", shape: .string, doc: "The entity.", required: true),
                Field(name: "where", shape: .string, doc: "Expression over the entity's properties."),
                Field(
                    name: "sort", shape: .oneOf([.string, .list(.string)]),
                    doc: "Property names; -name sorts descending."),
                Field(name: "limit", shape: .integer, doc: "At most this many."),
            ]
        case .widgetButton:
            return [
                Field(name: "title", shape: .string, doc: "The button's label: a template.", required: true),
                Field(name: "intent", shape: .string, doc: "The intent it runs.", required: true),
                Field(name: "with", shape: .names(.any), doc: "Arguments: values or ${…} templates (${item})."),
            ]
        case .control:
            return [
                Field(name: "title", shape: .string, doc: "The control's label."),
                Field(name: "image", shape: .string, doc: "Symbol name."),
                Field(name: "state", shape: .string, doc: "A toggle's state: a condition over the store."),
                Field(name: "turnOn", shape: .object(.intentCall), doc: "A toggle: the intent that turns it on."),
                Field(name: "turnOff", shape: .object(.intentCall), doc: "A toggle: the intent that turns it off."),
                Field(name: "action", shape: .object(.intentCall), doc: "A button: the intent it runs."),
            ]
        case .intentCall:
            return [
                Field(name: "intent", shape: .string, doc: "The intent to run.", required: true),
                Field(name: "with", shape: .names(.any), doc: "Arguments: values or ${…} templates."),
            ]
        default:
            return []
        }
    }
}
