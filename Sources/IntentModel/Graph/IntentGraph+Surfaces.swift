public import YAML

extension IntentGraph {
    /// WidgetKit's sizes: system families on the home screen, accessory families on the lock screen.
    public enum WidgetFamily: String, Sendable, CaseIterable, Codable {
        case small, medium, large, extraLarge
        case accessoryCircular, accessoryRectangular, accessoryInline

        /// Whether the family shows buttons (interactive widgets are home screen widgets).
        public var isInteractive: Bool { [.medium, .large, .extraLarge].contains(self) }
        public var isAccessory: Bool { rawValue.hasPrefix("accessory") }
    }

    /// A widget: content computed from the store, in one or more families, ranked in the Smart Stack.
    public struct Widget: Sendable {
        public let name: String
        public let app: String
        public let title: String
        public let description: String?
        public let image: String?
        public let families: [WidgetFamily]
        /// Seconds between timeline entries; nil: only when something changes.
        public let refresh: Int?
        public let relevance: [RelevanceRule]
        public let content: WidgetContent
        public let buttons: [WidgetButton]
        public let location: SourceRange
        /// What is chosen when the widget is added (WidgetKit's `AppIntentConfiguration`): a widget
        /// with parameters is configurable, and the Smart Stack shows the instances that were added.
        public package(set) var parameters: [Parameter] = []
        /// `let:` names computed once per entry, in order, before the content (parameters in scope).
        public package(set) var bindings: [Assignment] = []
        /// `link:` what tapping the widget opens (WidgetKit's `widgetURL`): a URL template.
        public package(set) var link: Template? = nil

        /// Whether it is added with chosen values (`intents widget add NAME --set k=v`).
        public var isConfigurable: Bool { !parameters.isEmpty }

        public func parameter(_ name: String) -> Parameter? { parameters.first { $0.name == name } }

        /// Buttons of the widget itself (a widget without items), not of each item.
        public var hasWidgetButtons: Bool { content.items == nil && !buttons.isEmpty }

        package init(
            name: String, app: String, title: String, description: String?, image: String?, families: [WidgetFamily],
            refresh: Int?,
            relevance: [RelevanceRule], content: WidgetContent, buttons: [WidgetButton], location: SourceRange
        ) {
            self.name = name
            self.app = app
            self.title = title
            self.description = description
            self.image = image
            self.families = families
            self.refresh = refresh
            self.relevance = relevance
            self.content = content
            self.buttons = buttons
            self.location = location
        }
    }

    /// `{ when: "exists(Task where …)", score: 80 }`.
    public struct RelevanceRule: Sendable {
        public let condition: Expression?
        /// The condition as written, for `--explain`.
        public let source: String?
        public let score: Int

        package init(condition: Expression?, source: String?, score: Int) {
            self.condition = condition
            self.source = source
            self.score = score
        }
    }

    public struct WidgetContent: Sendable {
        public let title: Template?
        public let value: Template?
        public let label: Template?
        public let gauge: Expression?
        public let items: Query?
        public let line: Template?
        public let detail: Template?
        public let empty: Template?
        /// `text:` a sentence or two under the heading (a fortune, a note's body).
        public package(set) var text: Template? = nil
        /// `figures:` more figures beside the main one (Active · Today · This Week).
        public package(set) var figures: [WidgetFigure] = []
        /// `link:` what tapping an item opens (WidgetKit's `Link`); default: the record's canonical link.
        public package(set) var itemLink: Template? = nil

        package init(
            title: Template?, value: Template?, label: Template?, gauge: Expression?, items: Query?, line: Template?,
            detail: Template?, empty: Template?
        ) {
            self.title = title
            self.value = value
            self.label = label
            self.gauge = gauge
            self.items = items
            self.line = line
            self.detail = detail
            self.empty = empty
        }
    }

    /// One more figure of a widget: `{ value: "${count(…)}", label: Today }`.
    public struct WidgetFigure: Sendable {
        public let value: Template
        public let label: Template?

        package init(value: Template, label: Template?) {
            self.value = value
            self.label = label
        }
    }

    public struct WidgetButton: Sendable {
        public let title: Template
        public let action: IntentCall

        package init(title: Template, action: IntentCall) {
            self.title = title
            self.action = action
        }
    }

    /// An intent and its arguments, as a control or a widget button runs it.
    public struct IntentCall: Sendable {
        public let intent: QualifiedName
        public let arguments: [Assignment]

        package init(intent: QualifiedName, arguments: [Assignment]) {
            self.intent = intent
            self.arguments = arguments
        }
    }

    /// A Control Center control: a toggle that reads its state and sets it through intents
    /// (Apple's SetValueIntent), or a button that runs one.
    public struct Control: Sendable {
        public enum Kind: Sendable {
            case toggle(state: Expression, on: IntentCall, off: IntentCall)
            case button(IntentCall)
        }

        public let name: String
        public let app: String
        public let title: String
        public let image: String?
        public let kind: Kind
        public let location: SourceRange

        package init(name: String, app: String, title: String, image: String?, kind: Kind, location: SourceRange) {
            self.name = name
            self.app = app
            self.title = title
            self.image = image
            self.kind = kind
            self.location = location
        }
    }

    /// Every widget, apps in order and each app's widgets as declared.
    public var widgets: [Widget] { apps.flatMap(\.widgets) }
    public var controls: [Control] { apps.flatMap(\.controls) }

    /// Widgets or controls named `Name` or `App.Name`, or titled so (case-insensitive).
    public func widgets(named name: String) -> [Widget] {
        widgets.filter { Self.names(name, $0.app, $0.name, $0.title) }
    }

    public func controls(named name: String) -> [Control] {
        controls.filter { Self.names(name, $0.app, $0.name, $0.title) }
    }

    private static func names(_ text: String, _ app: String, _ name: String, _ title: String) -> Bool {
        let folded = text.lowercased()
        return [name, "\(app).\(name)", title].contains { $0.lowercased() == folded }
    }
}
