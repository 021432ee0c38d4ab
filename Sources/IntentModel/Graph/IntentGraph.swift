public import YAML

/// The compiled, checked definitions of every loaded app. Immutable; only the compiler builds it.
public struct IntentGraph: Sendable {
    public let apps: [App]
    /// Edges from an intent whose result is an entity (or a list of them) to the intents with a
    /// parameter of that entity type: what can follow what.
    public let edges: [Edge]

    package init(apps: [App]) {
        self.apps = apps.sorted { $0.name < $1.name }
        // Names only, by position (no intent copied): a warm start builds this from the cache too.
        var consumers: [ValueType: [(intent: QualifiedName, parameter: String)]] = [:]
        for app in apps.indices {
            for intent in apps[app].intents.indices {
                for parameter in apps[app].intents[intent].parameters {
                    consumers[parameter.type.element ?? parameter.type, default: []].append(
                        (apps[app].intents[intent].name, parameter.name))
                }
            }
        }
        var edges: [Edge] = []
        for app in apps.indices {
            for intent in apps[app].intents.indices {
                guard let resultType = apps[app].intents[intent].resultType,
                    let entity = (resultType.element ?? resultType).entityName
                else { continue }
                let producer = apps[app].intents[intent].name
                for (consumer, parameter) in consumers[.entity(entity)] ?? [] where consumer != producer {
                    edges.append(Edge(from: producer, to: consumer, parameter: parameter, type: .entity(entity)))
                }
            }
        }
        self.edges = edges
    }

    public var intents: [Intent] { apps.flatMap(\.intents) }
    public var entities: [Entity] { apps.flatMap(\.entities) }
    public var enums: [Enumeration] { apps.flatMap(\.enums) }

    public func app(named name: String) -> App? {
        apps.first { $0.name.lowercased() == name.lowercased() }
    }

    /// Intents named `Name` or `App.Name` (case-insensitive); more than one when the bare name is ambiguous.
    public func intents(named name: String) -> [Intent] {
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        if parts.count == 2 {
            return intents.filter {
                $0.name.app.lowercased() == parts[0].lowercased() && $0.name.name.lowercased() == parts[1].lowercased()
            }
        }
        return intents.filter { $0.name.name.lowercased() == name.lowercased() }
    }

    /// Entities named `Name` or `App.Name` (case-insensitive); more than one when the bare name is ambiguous.
    public func entities(named name: String) -> [Entity] {
        let folded = name.lowercased()
        return entities.filter {
            name.contains(".") ? $0.name.description.lowercased() == folded : $0.name.name.lowercased() == folded
        }
    }

    public func intent(_ name: QualifiedName) -> Intent? {
        app(named: name.app)?.intents.first { $0.name == name }
    }

    public func entity(_ name: QualifiedName) -> Entity? {
        app(named: name.app)?.entities.first { $0.name == name }
    }

    public func enumeration(_ name: QualifiedName) -> Enumeration? {
        app(named: name.app)?.enums.first { $0.name == name }
    }

    public struct Edge: Sendable, Hashable {
        public let from: QualifiedName
        public let to: QualifiedName
        public let parameter: String
        public let type: ValueType

        package init(from: QualifiedName, to: QualifiedName, parameter: String, type: ValueType) {
            self.from = from
            self.to = to
            self.parameter = parameter
            self.type = type
        }
    }

    public struct App: Sendable {
        public let name: String
        public let description: String?
        public let synonyms: [String]
        public let languages: [String]
        public let scheme: String?
        public let enums: [Enumeration]
        public let entities: [Entity]
        public let intents: [Intent]
        public let shortcuts: [AppShortcut]
        public let rules: [String: PhraseTemplate]
        public let constants: [String: Constant]
        /// App-level phrase tests (sentences that must not match, for instance).
        public let examples: [Example]
        /// Widgets and controls in the order declared.
        public let widgets: [Widget]
        public let controls: [Control]
        public let files: [String]
        public let location: SourceRange
        /// Siri tips, declared under `tips:` or derived from the app shortcuts.
        public let tips: [Tip]
        /// Deep-link routes (`links:`), in declaration order.
        public package(set) var links: [LinkRoute] = []
        /// Share routes (`share:`), in declaration order.
        public package(set) var shareRoutes: [ShareRoute] = []
        /// Live activities (`activities:`), in declaration order.
        public package(set) var liveActivities: [LiveActivity] = []
        /// The learned stage's thresholds for this app (`understanding:`).
        public package(set) var understanding = Understanding()

        /// The default phrase language.
        public var language: String { languages.first ?? "en" }

        package init(
            name: String, description: String? = nil, synonyms: [String], languages: [String], scheme: String? = nil,
            enums: [Enumeration], entities: [Entity], intents: [Intent], shortcuts: [AppShortcut],
            rules: [String: PhraseTemplate], constants: [String: Constant], examples: [Example],
            widgets: [Widget] = [], controls: [Control] = [], files: [String], location: SourceRange, tips: [Tip] = []
        ) {
            self.name = name
            self.description = description
            self.synonyms = synonyms
            self.languages = languages
            self.scheme = scheme
            self.enums = enums
            self.entities = entities
            self.intents = intents
            self.shortcuts = shortcuts
            self.rules = rules
            self.constants = constants
            self.examples = examples
            self.widgets = widgets
            self.controls = controls
            self.files = files
            self.location = location
            self.tips = tips
        }
    }

    public struct Constant: Sendable {
        public let name: String
        public let type: ValueType
        public let value: Value

        package init(name: String, type: ValueType, value: Value) {
            self.name = name
            self.type = type
            self.value = value
        }
    }

    public struct Enumeration: Sendable {
        public let name: QualifiedName
        public let cases: [Case]
        public let location: SourceRange

        public struct Case: Sendable, Hashable {
            public let id: String
            public let title: String
            public let synonyms: [String]

            package init(id: String, title: String, synonyms: [String]) {
                self.id = id
                self.title = title
                self.synonyms = synonyms
            }
        }

        public func `case`(_ id: String) -> Case? { cases.first { $0.id == id } }

        package init(name: QualifiedName, cases: [Case], location: SourceRange) {
            self.name = name
            self.cases = cases
            self.location = location
        }
    }

    public struct Entity: Sendable {
        public let name: QualifiedName
        public let properties: [Property]
        public let displayTitle: Template
        public let displaySubtitle: Template?
        public let displayImage: String?
        public let matchBy: [String]
        public let suggested: Query?
        public let location: SourceRange
        /// What the search index holds of it (`searchable:`); nil: not searchable.
        public let searchable: Searchable?

        public func property(_ name: String) -> Property? { properties.first { $0.name == name } }

        /// `title:` as declared ("Smart Plug"); see `noun` for how messages name the type.
        public package(set) var title: String?
        /// `title:` by language, when declared so (`{ en: Task, de: Aufgabe }`); see `noun(in:)`.
        public package(set) var titles: [String: String] = [:]
        /// `article:` as declared ("a" or "an").
        public package(set) var article: String?
        /// Other words for the type, in any language (`synonyms:`): "Aufgabe", "to-dos".
        public package(set) var synonyms: [String] = []

        package init(
            name: QualifiedName, properties: [Property], displayTitle: Template, displaySubtitle: Template? = nil,
            displayImage: String? = nil, matchBy: [String], suggested: Query? = nil, location: SourceRange,
            searchable: Searchable? = nil
        ) {
            self.name = name
            self.properties = properties
            self.displayTitle = displayTitle
            self.displaySubtitle = displaySubtitle
            self.displayImage = displayImage
            self.matchBy = matchBy
            self.suggested = suggested
            self.location = location
            self.searchable = searchable
        }
    }

    /// The properties every entity has without declaring them, kept by the store: the one list of
    /// them (the compiler, the store's columns and the runtime's scopes all read it).
    public enum BuiltinProperty: String, Sendable, CaseIterable {
        case id, createdAt, updatedAt

        public var type: ValueType {
            switch self {
            case .id: .string
            case .createdAt, .updatedAt: .date
            }
        }
    }

    public struct Property: Sendable {
        public let name: String
        public let type: ValueType
        public let isOptional: Bool
        public let defaultValue: Value?
        /// Built-in (id, createdAt, updatedAt): set by the store, not by steps.
        public let isBuiltin: Bool
        public let location: SourceRange
        /// `indexed: true`: the store keeps an index on it, for `where` and `sort` over many records.
        public let isIndexed: Bool

        package init(
            name: String, type: ValueType, isOptional: Bool, defaultValue: Value? = nil, isBuiltin: Bool,
            location: SourceRange, isIndexed: Bool = false
        ) {
            self.isIndexed = isIndexed
            self.name = name
            self.type = type
            self.isOptional = isOptional
            self.defaultValue = defaultValue
            self.isBuiltin = isBuiltin
            self.location = location
        }
    }

    public struct Query: Sendable, Hashable {
        public let entity: QualifiedName
        public let filter: Expression?
        public let sort: [SortKey]
        public let limit: Int?

        public init(entity: QualifiedName, filter: Expression?, sort: [SortKey], limit: Int?) {
            self.entity = entity
            self.filter = filter
            self.sort = sort
            self.limit = limit
        }
    }

    public struct SortKey: Sendable, Hashable {
        public let property: String
        public let descending: Bool

        public init(property: String, descending: Bool) {
            self.property = property
            self.descending = descending
        }
    }

    public struct Intent: Sendable {
        public let name: QualifiedName
        public let title: String
        public let description: String?
        public let parameters: [Parameter]
        public let summary: [SummaryBranch]
        public package(set) var phrases: [Phrase]
        public let negativePhrases: [Phrase]
        public let perform: [Step]
        public let resultValue: Template?
        public let resultType: ValueType?
        public let resultDialog: Template?
        public let opens: Template?
        public let confirmation: Confirmation?
        /// `dialog:` per language, when given so; `resultDialog` is the default.
        public package(set) var resultDialogs: [String: Template] = [:]
        public let donate: [String]
        /// Filled in after the intent itself, since examples may name other intents.
        public package(set) var examples: [Example]
        public let location: SourceRange
        /// Whether suggestions may offer it (`suggest: false` keeps it out).
        public let suggests: Bool
        /// Using the intent is an activity that can be continued elsewhere (`activity:`).
        public package(set) var activity: Activity?
        /// `training:` sentences for the learned stage, their `[words](slot)` marks reduced to the words.
        public package(set) var training: [String] = []
        /// The same sentences with their marks, as pieces: what the slot tagger learns spans from.
        public package(set) var trainingSentences: [TrainingSentence] = []

        public func parameter(_ name: String) -> Parameter? { parameters.first { $0.name == name } }

        /// Whether the intent removes data, itself or through an intent it calls: such intents always confirm.
        public var deletes: Bool { deletesThroughCalls || perform.contains { $0.deletes } }
        /// Set by the compiler when a `call:` step (at any depth) reaches an intent that deletes.
        public package(set) var deletesThroughCalls = false

        package init(
            name: QualifiedName, title: String, description: String? = nil, parameters: [Parameter],
            summary: [SummaryBranch], phrases: [Phrase], negativePhrases: [Phrase], perform: [Step],
            resultValue: Template? = nil, resultType: ValueType? = nil, resultDialog: Template? = nil,
            opens: Template? = nil, confirmation: Confirmation? = nil, donate: [String], examples: [Example],
            location: SourceRange, suggests: Bool = true
        ) {
            self.name = name
            self.title = title
            self.description = description
            self.parameters = parameters
            self.summary = summary
            self.phrases = phrases
            self.negativePhrases = negativePhrases
            self.perform = perform
            self.resultValue = resultValue
            self.resultType = resultType
            self.resultDialog = resultDialog
            self.opens = opens
            self.confirmation = confirmation
            self.donate = donate
            self.examples = examples
            self.location = location
            self.suggests = suggests
        }
    }

    public struct Parameter: Sendable {
        public let name: String
        public let type: ValueType
        public let title: String
        public let prompt: String?
        public let defaultValue: Value?
        public let isOptional: Bool
        public let validations: [Validation]
        public let location: SourceRange
        /// `prompt:` per language, when given so; `prompt` is the default.
        public package(set) var prompts: [String: String] = [:]
        /// The request context's name this parameter is filled from when the sentence does not say it.
        public package(set) var context: String? = nil

        /// Needs a value from the user: neither optional nor defaulted.
        public var isRequired: Bool { !isOptional && defaultValue == nil }

        package init(
            name: String, type: ValueType, title: String, prompt: String? = nil, defaultValue: Value? = nil,
            isOptional: Bool, validations: [Validation], location: SourceRange
        ) {
            self.name = name
            self.type = type
            self.title = title
            self.prompt = prompt
            self.defaultValue = defaultValue
            self.isOptional = isOptional
            self.validations = validations
            self.location = location
        }
    }

    public struct Validation: Sendable {
        public enum Rule: Sendable, Hashable {
            case min(Double)
            case max(Double)
            case pattern(String)
            case oneOf([Value])
        }

        public let rule: Rule
        public let message: String
        /// `message:` per language, when given so; `message` is the default.
        public package(set) var messages: [String: String] = [:]

        package init(rule: Rule, message: String) {
            self.rule = rule
            self.message = message
        }
    }

    public struct SummaryBranch: Sendable {
        public let condition: Expression?
        /// The condition as written, for describing the summary.
        public let conditionSource: String?
        public let text: Template

        package init(condition: Expression? = nil, conditionSource: String? = nil, text: Template) {
            self.condition = condition
            self.conditionSource = conditionSource
            self.text = text
        }
    }

    public struct Phrase: Sendable {
        public let language: String
        public let template: PhraseTemplate
        public let location: SourceRange
        /// Parameter values the phrase fixes when it matches (`set:`).
        public package(set) var values: [String: Value] = [:]

        package init(language: String, template: PhraseTemplate, location: SourceRange) {
            self.language = language
            self.template = template
            self.location = location
        }
    }

    public enum Confirmation: Sendable {
        case summary
        case dialog(Template)
    }

    public struct AppShortcut: Sendable {
        public let intent: QualifiedName
        public let phrases: [Phrase]
        public let shortTitle: String
        public let image: String?
        public let location: SourceRange

        package init(
            intent: QualifiedName, phrases: [Phrase], shortTitle: String, image: String? = nil, location: SourceRange
        ) {
            self.intent = intent
            self.phrases = phrases
            self.shortTitle = shortTitle
            self.image = image
            self.location = location
        }
    }

    public struct Example: Sendable {
        public enum Expectation: Sendable {
            case noMatch
            /// The intent and the values of the parameters named (others are not checked).
            case match(QualifiedName, [String: Value])
        }

        public let say: String
        public let language: String
        public let expectation: Expectation
        public let location: SourceRange

        package init(say: String, language: String, expectation: Expectation, location: SourceRange) {
            self.say = say
            self.language = language
            self.expectation = expectation
            self.location = location
        }
    }

    public indirect enum Step: Sendable {
        case create(entity: QualifiedName, set: [Assignment], binding: String?)
        case update(target: Expression, set: [Assignment], increment: [Assignment], toggle: [String], binding: String?)
        case delete(target: Expression)
        case find(Query, first: Bool, binding: String?)
        /// `let:` names bound in order; each may read the ones before it.
        case bind([Assignment])
        case call(intent: QualifiedName, arguments: [Assignment], binding: String?)
        case open(url: Template)
        case branch(condition: Expression, then: [Step], otherwise: [Step])
        case fail(message: Template)
        /// `start_activity:`, `update_activity:`, `end_activity:`.
        case activity(ActivityStep)

        /// The intents this step calls, directly or inside a branch.
        package var callees: [QualifiedName] {
            switch self {
            case .call(let intent, _, _): [intent]
            case .branch(_, let then, let otherwise): (then + otherwise).flatMap(\.callees)
            default: []
            }
        }

        var deletes: Bool {
            switch self {
            case .delete: true
            case .branch(_, let then, let otherwise): then.contains { $0.deletes } || otherwise.contains { $0.deletes }
            default: false
            }
        }
    }

    /// `name: template` in `set:`, `increment:` and `with:`.
    public struct Assignment: Sendable {
        public let name: String
        public let value: Template

        package init(name: String, value: Template) {
            self.name = name
            self.value = value
        }
    }
}
