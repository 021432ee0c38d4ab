public import IntentModel
public import YAML

/// Everything one definition file declares, as written (names unresolved, marks kept).
public struct FileDefinition: Sendable {
    public var path: String
    /// The folder the file sits in: one folder, one app.
    public var folder: String
    public var range: SourceRange
    public var app: Located<String>?
    public var description: Located<String>?
    public var synonyms: [Located<String>] = []
    public var languages: [Located<String>] = []
    public var scheme: Located<String>?
    public var enums: [EnumDefinition] = []
    public var entities: [EntityDefinition] = []
    public var intents: [IntentDefinition] = []
    public var shortcuts: [ShortcutDefinition] = []
    public var rules: [RuleDefinition] = []
    public var constants: [ConstantDefinition] = []
    public var examples: [ExampleDefinition] = []
    public var tips: [TipDefinition] = []
    public var links: [LinkDefinition] = []
    public var share: [ShareRouteDefinition] = []
    /// `understanding: {act: 0.9, ask: 0.6}`: the learned stage's thresholds, as written.
    public var understanding: [(name: Located<String>, value: Located<Double>)] = []
    public var widgets: [WidgetDefinition] = []
    public var controls: [ControlDefinition] = []
    public var liveActivities: [LiveActivityDefinition] = []

    public init(path: String, folder: String, range: SourceRange) {
        self.path = path
        self.folder = folder
        self.range = range
    }
}

public struct EnumDefinition: Sendable {
    public var name: Located<String>
    public var cases: [EnumCaseDefinition]
}

public struct EnumCaseDefinition: Sendable {
    public var id: Located<String>
    public var title: Located<String>?
    public var synonyms: [Located<String>]
}

public struct EntityDefinition: Sendable {
    public var name: Located<String>
    public var properties: [PropertyDefinition]
    public var displayTitle: Located<String>?
    public var displaySubtitle: Located<String>?
    public var displayImage: Located<String>?
    public var matchBy: [Located<String>]
    public var suggested: QueryDefinition?
    /// How the type is named to people ("Smart Plug"); by default its name in words.
    public var title: Located<String>? = nil
    /// The title by language, when given so (`title: { en: Task, de: Aufgabe }`).
    public var titles: [String: Located<String>] = [:]
    /// "a" or "an", when the vowel-sound rule guesses wrong.
    public var article: Located<String>? = nil
    /// Other words for the type, in any language: "Aufgabe", "to-dos".
    public var synonyms: [Located<String>] = []
    public var searchable: SearchableDefinition? = nil
}

public struct PropertyDefinition: Sendable {
    public var name: Located<String>
    public var type: Located<String>
    public var optional: Bool
    public var defaultValue: Node?
    public var title: Located<String>?
    public var indexed = false
}

/// A query over an entity: `where`, `sort` (`-prop` for descending), `limit`.
public struct QueryDefinition: Sendable {
    public var range: SourceRange
    public var filter: Located<String>?
    public var sort: [Located<String>]
    public var limit: Located<Int>?
}

public struct IntentDefinition: Sendable {
    public var name: Located<String>
    public var title: Located<String>?
    public var description: Located<String>?
    public var parameters: [ParameterDefinition]
    public var summary: [SummaryDefinition]
    public var phrases: [PhraseDefinition]
    public var negativePhrases: [PhraseDefinition]
    public var perform: [StepDefinition]
    public var resultValue: Located<String>?
    public var resultDialog: Located<String>?
    /// `dialog: { en: …, de: … }`: the dialog per language.
    public var resultDialogs: [String: Located<String>] = [:]
    public var opens: Located<String>?
    public var confirm: ConfirmDefinition?
    public var donate: [Located<String>]
    public var examples: [ExampleDefinition]
    public var suggest: Located<Bool>? = nil
    public var activity: ActivityDefinition? = nil
    /// `training:` sentences for the learned stage, `[words](slot)` marks unresolved.
    public var training: [Located<String>] = []
}

public struct ParameterDefinition: Sendable {
    public var name: Located<String>
    public var type: Located<String>
    public var title: Located<String>?
    public var prompt: Located<String>?
    public var defaultValue: Node?
    public var optional: Bool
    public var validations: [ValidationDefinition]
    /// `prompt: { en: …, de: … }`: the prompt per language.
    public var prompts: [String: Located<String>] = [:]
    /// `context: area`: filled from the request's context of that name when the sentence does not say it.
    public var context: Located<String>? = nil
}

public struct ValidationDefinition: Sendable {
    public enum Rule: Sendable {
        case min(Node)
        case max(Node)
        case pattern(Located<String>)
        case oneOf([Node])
    }

    public var rule: Rule
    public var message: Located<String>?
    public var range: SourceRange
    /// `message: { en: …, de: … }`: the message per language.
    public var messages: [String: Located<String>] = [:]
}

public struct SummaryDefinition: Sendable {
    public var condition: Located<String>?
    public var text: Located<String>
    /// `text: { en: …, de: … }`: the text per language.
    public var texts: [String: Located<String>] = [:]
}

public struct PhraseDefinition: Sendable {
    public var language: Located<String>?
    public var text: Located<String>
    /// `set: { domain: light }`: parameter values the phrase fixes when it matches.
    public var values: [(name: Located<String>, value: Node)] = []
}

public enum ConfirmDefinition: Sendable {
    case always(Located<Bool>)
    case dialog(Located<String>)
    /// `confirm: { en: …, de: … }`: the question per language, the first being the default.
    case dialogs(Located<String>, [String: Located<String>])
}

/// A perform step as written; the verb key decides its kind.
public struct StepDefinition: Sendable {
    public enum Kind: Sendable {
        case create(entity: Located<String>)
        case update(target: Located<String>)
        case delete(target: Located<String>)
        case find(entity: Located<String>, query: QueryDefinition, first: Bool)
        case bind(values: [(Located<String>, Node)])
        case call(intent: Located<String>, arguments: [(Located<String>, Node)])
        case open(url: Located<String>)
        case branch(condition: Located<String>, then: [StepDefinition], otherwise: [StepDefinition])
        case fail(message: Located<String>)
        case activity(ActivityStepDefinition)
    }

    public var kind: Kind
    public var set: [(Located<String>, Node)]
    public var increment: [(Located<String>, Node)]
    public var toggle: [Located<String>]
    public var binding: Located<String>?
    public var range: SourceRange
    /// `fail: { en: …, de: … }`: the message per language.
    public var failMessages: [String: Located<String>] = [:]
}

public struct ShortcutDefinition: Sendable {
    public var intent: Located<String>
    public var phrases: [PhraseDefinition]
    public var shortTitle: Located<String>?
    public var image: Located<String>?
    public var range: SourceRange
}

/// A reusable phrase fragment: `rules: { task_word: "(task|todo|to-do)" }`, used as `<task_word>`.
public struct RuleDefinition: Sendable {
    public var name: Located<String>
    public var text: Located<String>
}

/// A named value the intents' expressions may read: readings, limits, lists.
public struct ConstantDefinition: Sendable {
    public var name: Located<String>
    public var value: Node
}

/// A phrase test: `say:` in, `expect:` parameters or `no_match` out.
public struct ExampleDefinition: Sendable {
    public var say: Located<String>
    public var language: Located<String>?
    public var intent: Located<String>?
    public var expectNoMatch: Bool
    public var expect: [(Located<String>, Node)]
    public var range: SourceRange
}

/// `searchable:` on an entity, as written: templates and a filter, checked by the compiler.
public struct SearchableDefinition: Sendable {
    public var title: Located<String>
    public var description: Located<String>?
    public var keywords: Located<String>?
    public var filter: Located<String>?
    public var expires: Located<String>?
    public var range: SourceRange
}

/// One entry of `tips:`, as written.
public struct TipDefinition: Sendable {
    public var intent: Located<String>
    public var condition: Located<String>?
    public var placement: Located<String>?
    public var phrase: Located<String>?
    public var language: Located<String>?
    public var range: SourceRange
}
