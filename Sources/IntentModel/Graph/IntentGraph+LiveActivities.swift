public import YAML

extension IntentGraph {
    /// A live activity (ActivityKit): attributes fixed when it starts, a content state that updates
    /// change, its progress and countdown, and how the Dynamic Island and the lock screen show it.
    public struct LiveActivity: Sendable {
        public let name: String
        public let app: String
        public let title: String
        public let image: String?
        public let attributes: [Property]
        public let state: [Property]
        /// From 0 to 1; without one, a countdown's elapsed share.
        public let progress: Expression?
        /// The moment the countdown reaches zero.
        public let countdown: Expression?
        /// Seconds after the last update at which the content is out of date.
        public let staleAfter: Int?
        public let presentations: ActivityPresentations
        public let location: SourceRange

        public var qualifiedName: QualifiedName { QualifiedName(app: app, name: name) }

        package init(
            name: String, app: String, title: String, image: String?, attributes: [Property], state: [Property],
            progress: Expression?, countdown: Expression?, staleAfter: Int?, presentations: ActivityPresentations,
            location: SourceRange
        ) {
            self.name = name
            self.app = app
            self.title = title
            self.image = image
            self.attributes = attributes
            self.state = state
            self.progress = progress
            self.countdown = countdown
            self.staleAfter = staleAfter
            self.presentations = presentations
            self.location = location
        }

        public func attribute(_ name: String) -> Property? { attributes.first { $0.name == name } }
        public func stateValue(_ name: String) -> Property? { state.first { $0.name == name } }
    }

    /// Where the Dynamic Island's expanded presentation puts a text.
    public enum ExpandedRegion: String, Sendable, CaseIterable {
        case leading, trailing, center, bottom
    }

    /// The lock screen banner's texts: a heading and a line under the progress bar.
    public enum LockScreenPart: String, Sendable, CaseIterable {
        case title, detail
    }

    /// Templates for each presentation; what is not given is drawn from the title, progress and countdown.
    public struct ActivityPresentations: Sendable {
        public let compactLeading: Template?
        public let compactTrailing: Template?
        public let minimal: Template?
        public let expanded: [ExpandedRegion: Template]
        public let lockScreen: [LockScreenPart: Template]

        package init(
            compactLeading: Template?, compactTrailing: Template?, minimal: Template?,
            expanded: [ExpandedRegion: Template], lockScreen: [LockScreenPart: Template]
        ) {
            self.compactLeading = compactLeading
            self.compactTrailing = compactTrailing
            self.minimal = minimal
            self.expanded = expanded
            self.lockScreen = lockScreen
        }
    }

    /// A step that starts, updates or ends a live activity.
    public struct ActivityStep: Sendable {
        public enum Action: String, Sendable {
            case start, update, end

            /// The step's key: `start_activity`.
            public var verb: String { rawValue + "_activity" }
        }

        /// When an ended activity leaves the lock screen (ActivityUIDismissalPolicy).
        public enum Dismissal: Sendable, Hashable {
            /// The system's choice: four hours after it ends.
            case standard
            case immediately
            /// Seconds after it ends.
            case after(Int)
        }

        public let action: Action
        public let activity: QualifiedName
        /// Attribute and state values (start); state values (update, end).
        public let arguments: [Assignment]
        /// Which activity of the name; nil: the one without an id.
        public let id: Template?
        public let dismissal: Dismissal

        package init(
            action: Action, activity: QualifiedName, arguments: [Assignment], id: Template?, dismissal: Dismissal
        ) {
            self.action = action
            self.activity = activity
            self.arguments = arguments
            self.id = id
            self.dismissal = dismissal
        }
    }

    public var liveActivities: [LiveActivity] { apps.flatMap(\.liveActivities) }

    public func liveActivity(_ name: QualifiedName) -> LiveActivity? {
        apps.first { $0.name == name.app }?.liveActivities.first { $0.name == name.name }
    }

    /// Live activities named `Name` or `App.Name`, or titled so (case-insensitive).
    public func liveActivities(named text: String) -> [LiveActivity] {
        let folded = text.lowercased()
        return liveActivities.filter {
            [$0.name, "\($0.app).\($0.name)", $0.title].contains { $0.lowercased() == folded }
        }
    }
}
