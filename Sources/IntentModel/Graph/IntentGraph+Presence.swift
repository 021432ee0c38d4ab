/// How an app is present beyond its phrases: entities found by search (`searchable:`), intents
/// offered as suggestions (`donate:`, `suggest:`), and tips that teach the app's shortcut phrases (`tips:`).
extension IntentGraph {
    /// What of an entity the search index holds (`searchable:`): Spotlight's attribute set.
    public struct Searchable: Sendable {
        public let title: Template
        public let description: Template?
        /// Text or a list of strings.
        public let keywords: Template?
        /// Only records for which this holds are indexed (`!isCompleted`).
        public let filter: Expression?
        /// An item leaves the results this many seconds after its last change.
        public let expires: Int?
        /// The declaration as written, canonical: the store reindexes when it changes.
        public let signature: String

        package init(
            title: Template, description: Template?, keywords: Template?, filter: Expression?, expires: Int?,
            signature: String
        ) {
            self.title = title
            self.description = description
            self.keywords = keywords
            self.filter = filter
            self.expires = expires
            self.signature = signature
        }
    }

    /// Where a tip is shown (SiriTipView's places, for a prompt).
    public enum TipPlacement: String, Sendable, CaseIterable, Codable {
        /// When the prompt starts.
        case start
        /// After the user reached the intent the long way: several questions, or through search.
        case afterLongWay = "after-long-way"
        /// After a phrase that did not match but came close to one of the app's.
        case afterNearMiss = "after-near-miss"
    }

    /// A Siri tip: a phrase of one of the app's shortcuts, offered at a placement when `when` holds.
    public struct Tip: Sendable {
        public let app: String
        public let intent: QualifiedName
        /// The phrase to teach, spoken with the app's name (“New task in FocusBlox”).
        public let phrase: String
        public let language: String
        public let placement: TipPlacement
        public let condition: Expression?
        /// Declared under `tips:` (false: derived from an app shortcut).
        public let declared: Bool

        package init(
            app: String, intent: QualifiedName, phrase: String, language: String, placement: TipPlacement,
            condition: Expression?, declared: Bool
        ) {
            self.app = app
            self.intent = intent
            self.phrase = phrase
            self.language = language
            self.placement = placement
            self.condition = condition
            self.declared = declared
        }

        /// A stable key for the tip's state in the store: `FocusBlox.CreateTask@start`.
        public var key: String { "\(intent)@\(placement.rawValue)" }

        /// “Next time, say “New task in FocusBlox”” or “Sage „Erstelle Task in FocusBlox“”.
        public var text: String {
            language == "de" ? "Sage „\(phrase)“" : "Say “\(phrase)”"
        }
    }
}
