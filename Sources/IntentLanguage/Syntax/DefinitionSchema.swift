import IntentModel

/// The shape of definition files and shortcut files, in one place: the decoders take their known and
/// required keys from here and `intents schema` prints it as a JSON Schema for editors.
public enum DefinitionSchema {
    /// The two kinds of YAML file the language has.
    public enum Document: String, Sendable, CaseIterable {
        /// `Intents/<app>/*.yaml`: an app's enums, entities and intents.
        case definitions
        /// `Shortcuts/*.yaml`: a workflow over the intents.
        case shortcuts

        /// The object at the file's root.
        var root: Object {
            switch self {
            case .definitions: .file
            case .shortcuts: .shortcutFile
            }
        }
    }

    /// The objects definition files and shortcut files are made of.
    public enum Object: String, Sendable, CaseIterable {
        case file, enumeration, enumCase, entity, property, display, query, intent, parameter
        case validation, summaryBranch, phrase, result, step, shortcut, example
        case shortcutFile, shortcutInput
        case sayStep, intentStep, setStep, ifStep, repeatStep, repeatEachStep, chooseStep, askStep
        case showStep, outputStep, stopStep, runStep
        case searchable, tip
        case link, shareRoute, activity
        case widget, widgetTimeline, relevanceRule, widgetContent, widgetItems, widgetButton, widgetFigure, control,
            intentCall
        case liveActivity, activityCompact, activityExpanded, activityLockScreen
        case startActivityStep, updateActivityStep, endActivityStep

        /// For a shortcut step, the key that says what kind of step it is (`say:` for a say step).
        var stepVerb: String? {
            switch self {
            case .sayStep: "say"
            case .intentStep: "intent"
            case .setStep: "set"
            case .ifStep: "if"
            case .repeatStep: "repeat"
            case .repeatEachStep: "repeat_each"
            case .chooseStep: "choose"
            case .askStep: "ask"
            case .showStep: "show"
            case .outputStep: "output"
            case .stopStep: "stop"
            case .runStep: "run"
            case .startActivityStep: "start_activity"
            case .updateActivityStep: "update_activity"
            case .endActivityStep: "end_activity"
            default: nil
            }
        }

        /// The kinds of shortcut step, in the order messages list them.
        static let shortcutSteps = allCases.filter { $0.stepVerb != nil }
    }

    indirect enum Shape: Sendable {
        case string, integer, number, boolean, null, any
        case list(Shape)
        case names(Shape)
        case object(Object)
        case oneOf([Shape])

        /// One step of a shortcut file: any of the step kinds.
        static let shortcutStep = Shape.oneOf(Object.shortcutSteps.map { .object($0) })
    }

    struct Field: Sendable {
        var name: String
        var shape: Shape
        var doc: String
        /// The decoder reports a mapping without it, at the mapping.
        var required = false
    }

    static let typeName = "string, integer, number, boolean, date, duration, url, an enum or entity name, or [T]"
    /// The verb of a perform step: the decoder switches over it, the JSON Schema lists it.
    enum PerformVerb: String, CaseIterable, Sendable {
        case create, update, delete, find
        case findFirst = "find_first"
        case bind = "let"
        case call, open
        case branch = "if"
        case fail
        case startActivity = "start_activity"
        case updateActivity = "update_activity"
        case endActivity = "end_activity"

        /// The keys a step with this verb takes besides the verb: the decoder and the JSON Schema both ask.
        var keys: [String] {
            switch self {
            case .create: ["set", "as"]
            case .update: ["set", "increment", "toggle", "as"]
            case .find, .findFirst: ["where", "sort", "limit", "as"]
            case .call: ["with", "as"]
            case .branch: ["then", "else"]
            case .open: []
            case .startActivity, .updateActivity: ["with", "id"]
            case .endActivity: ["with", "id", "dismiss"]
            case .delete, .bind, .fail: ["as"]
            }
        }
    }

    static let stepVerbs = PerformVerb.allCases.map(\.rawValue)

    static func fields(of object: Object) -> [Field] {
        switch object {
        case .file:
            [
                Field(name: "app", shape: .string, doc: "The app's name, as people say it; one per folder."),
                Field(name: "description", shape: .string, doc: "What the app does."),
                Field(name: "synonyms", shape: .list(.string), doc: "Other ways to say the app's name."),
                Field(
                    name: "languages", shape: .list(.string), doc: "Phrase languages, the first is the default (en)."),
                Field(name: "scheme", shape: .string, doc: "URL scheme for deep links, e.g. focusblox."),
                Field(name: "enums", shape: .names(.object(.enumeration)), doc: "Enum types by name."),
                Field(
                    name: "entities", shape: .names(.object(.entity)), doc: "Entity types kept in the store, by name."),
                Field(name: "intents", shape: .names(.object(.intent)), doc: "Intents by name."),
                Field(name: "shortcuts", shape: .list(.object(.shortcut)), doc: "App Shortcuts: zero-setup phrases."),
                Field(
                    name: "rules", shape: .names(.string), doc: "Reusable phrase fragments, used as <name> in phrases."),
                Field(name: "constants", shape: .names(.any), doc: "Named values expressions may read."),
                Field(
                    name: "examples", shape: .list(.object(.example)),
                    doc: "Phrase tests for the whole app, e.g. sentences that must not match."),
                Field(
                    name: "tips", shape: .list(.object(.tip)), doc: "Siri tips: shortcut phrases shown where they help."
                ),
                Field(name: "links", shape: .list(.object(.link)), doc: "Deep-link routes from URLs to intents."),
                Field(
                    name: "share", shape: .list(.object(.shareRoute)),
                    doc: "What the app accepts when content is shared to it."),
                Field(
                    name: "understanding", shape: .names(.number),
                    doc:
                        "The learned stage's thresholds for this app's intents: act (default 0.8) and ask (0.5), from 0 to 1."
                ),
                Field(name: "widgets", shape: .names(.object(.widget)), doc: "Home and lock screen widgets, by name."),
                Field(name: "controls", shape: .names(.object(.control)), doc: "Control Center toggles and buttons."),
                Field(
                    name: "activities", shape: .names(.object(.liveActivity)),
                    doc: "Live activities: the Dynamic Island and lock screen while something goes on."),
            ]
        case .enumeration:
            [
                Field(name: "title", shape: .string, doc: "How the type is named to people."),
                Field(
                    name: "cases", shape: .names(.oneOf([.string, .object(.enumCase)])),
                    doc: "Cases by identifier; a string value is the title.", required: true),
            ]
        case .enumCase:
            [
                Field(name: "title", shape: .string, doc: "How the case is said and shown."),
                Field(name: "synonyms", shape: .list(.string), doc: "Other words for the case."),
            ]
        case .entity:
            [
                Field(
                    name: "title", shape: .oneOf([.string, .names(.string)]),
                    doc: "How the type is named to people; a text, or texts by language."),
                Field(
                    name: "article", shape: .string,
                    doc: "'a' or 'an' before the title in messages, when the vowel-sound rule guesses wrong."),
                Field(
                    name: "synonyms", shape: .list(.string),
                    doc: "Other words for the type, in any language: a search said aloud narrows to it by them."),
                Field(
                    name: "properties", shape: .names(.oneOf([.string, .object(.property)])),
                    doc: "Properties by name; a string value is the type."),
                Field(name: "display", shape: .object(.display), doc: "How an entity is shown."),
                Field(name: "matchBy", shape: .list(.string), doc: "Properties a spoken name is matched against."),
                Field(name: "suggested", shape: .object(.query), doc: "Entities offered when one must be chosen."),
                Field(name: "searchable", shape: .object(.searchable), doc: "What `intents search` finds of it."),
            ]
        case .property:
            [
                Field(name: "type", shape: .string, doc: typeName, required: true),
                Field(name: "title", shape: .string, doc: "How the property is named to people."),
                Field(name: "optional", shape: .boolean, doc: "May be empty."),
                Field(name: "default", shape: .any, doc: "Value when none is given."),
                Field(name: "indexed", shape: .boolean, doc: "Keep an index on it: fast where/sort over many records."),
            ]
        case .display:
            [
                Field(name: "title", shape: .string, doc: "Template, e.g. ${title}."),
                Field(name: "subtitle", shape: .string, doc: "Template."),
                Field(name: "image", shape: .string, doc: "Symbol name."),
            ]
        case .query:
            [
                Field(name: "where", shape: .string, doc: "Expression over the entity's properties."),
                Field(
                    name: "sort", shape: .oneOf([.string, .list(.string)]),
                    doc: "Property names; -name sorts descending."),
                Field(name: "limit", shape: .integer, doc: "At most this many."),
            ]
        case .intent:
            [
                Field(name: "title", shape: .string, doc: "Shown in menus and summaries."),
                Field(name: "description", shape: .string, doc: "What the intent does."),
                Field(
                    name: "parameters", shape: .names(.oneOf([.string, .object(.parameter)])),
                    doc: "Parameters by name; a string value is the type."),
                Field(
                    name: "summary",
                    shape: .oneOf([.string, .names(.string), .list(.oneOf([.string, .object(.summaryBranch)]))]),
                    doc: "Parameter summary, with when/otherwise branches."),
                Field(
                    name: "phrases",
                    shape: .oneOf([.list(.oneOf([.string, .object(.phrase)])), .names(.list(.string))]),
                    doc: "Phrase templates, as a list or by language."),
                Field(
                    name: "negativePhrases", shape: .list(.oneOf([.string, .object(.phrase)])),
                    doc: "Look-alike sentences that must not match this intent."),
                Field(
                    name: "training", shape: .list(.string),
                    doc:
                        "Sentences the learned stage learns from, values marked: \"book a table for [four](partySize)\"."
                ),
                Field(name: "perform", shape: .list(.object(.step)), doc: "Steps run in one transaction."),
                Field(name: "result", shape: .object(.result), doc: "The value and dialog the intent answers with."),
                Field(
                    name: "confirm", shape: .oneOf([.boolean, .string, .names(.string)]),
                    doc: "Ask yes/no before running; a string is the question."),
                Field(
                    name: "donate", shape: .list(.string), doc: "Parameters recorded with a donation: stable ones only."
                ),
                Field(name: "examples", shape: .list(.object(.example)), doc: "Phrase tests run by `intents test`."),
                Field(name: "suggest", shape: .boolean, doc: "false keeps the intent out of suggestions."),
                Field(
                    name: "activity", shape: .object(.activity),
                    doc: "Using the intent is an activity another shell can continue."),
            ]
        case .parameter:
            [
                Field(name: "type", shape: .string, doc: typeName, required: true),
                Field(name: "title", shape: .string, doc: "How the parameter is named to people."),
                Field(
                    name: "prompt", shape: .oneOf([.string, .names(.string)]),
                    doc: "The question asked when the value is missing; a text, or texts by language."),
                Field(name: "default", shape: .any, doc: "Value when none is given."),
                Field(name: "optional", shape: .boolean, doc: "May be left out."),
                Field(
                    name: "context", shape: .string,
                    doc: "Filled from the request's context of this name (say --context area=Kitchen) when unsaid."),
                Field(
                    name: "validate", shape: .list(.object(.validation)),
                    doc: "Rules a value must meet, each with its message."),
            ]
        case .validation:
            [
                Field(
                    name: "min", shape: .oneOf([.number, .string]),
                    doc: "Smallest allowed value (or length for strings; a duration such as 1m for durations)."),
                Field(
                    name: "max", shape: .oneOf([.number, .string]),
                    doc: "Largest allowed value (or length for strings; a duration such as 2h for durations)."),
                Field(name: "pattern", shape: .string, doc: "Regular expression the whole value must match."),
                Field(name: "oneOf", shape: .list(.any), doc: "The allowed values."),
                Field(
                    name: "message", shape: .oneOf([.string, .names(.string)]),
                    doc: "What to say when the rule fails; a text, or texts by language."),
            ]
        case .summaryBranch:
            [
                Field(name: "when", shape: .string, doc: "Expression; the first branch whose condition holds is used."),
                Field(
                    name: "text", shape: .oneOf([.string, .names(.string)]),
                    doc: "Template; one, or one per language.", required: true),
            ]
        case .phrase:
            [
                Field(name: "lang", shape: .string, doc: "Language code."),
                Field(name: "text", shape: .string, doc: "Phrase template.", required: true),
                Field(
                    name: "set", shape: .names(.oneOf([.string, .number, .boolean])),
                    doc: "Parameter values the phrase fixes when it matches: { domain: light }."),
            ]
        case .result:
            [
                Field(name: "value", shape: .string, doc: "Template; its type is the intent's result type."),
                Field(
                    name: "dialog", shape: .oneOf([.string, .names(.string)]),
                    doc: "Template spoken as the answer; one, or one per language ({en: …, de: …})."),
                Field(name: "open", shape: .string, doc: "A deep link to open, e.g. radar://open/${radar.id}."),
            ]
        case .step:
            [
                Field(name: "create", shape: .string, doc: "Entity type to create."),
                Field(name: "update", shape: .string, doc: "Variable or parameter naming the entity to change."),
                Field(name: "delete", shape: .string, doc: "Variable or parameter naming the entity to delete."),
                Field(name: "find", shape: .string, doc: "Entity type to query: a list."),
                Field(name: "find_first", shape: .string, doc: "Entity type to query: the first match or nil."),
                Field(name: "let", shape: .names(.any), doc: "Bind names to expressions."),
                Field(name: "call", shape: .string, doc: "Another intent, App.Intent or Intent."),
                Field(name: "open", shape: .string, doc: "A URL template to open."),
                Field(name: "if", shape: .string, doc: "Condition for then/else."),
                Field(
                    name: "fail", shape: .oneOf([.string, .names(.string)]),
                    doc: "Stop with this message (or messages by language); nothing is saved."),
                Field(name: "then", shape: .list(.object(.step)), doc: "Steps when the condition holds."),
                Field(name: "else", shape: .list(.object(.step)), doc: "Steps when it does not."),
                Field(name: "set", shape: .names(.any), doc: "Property values (create, update)."),
                Field(name: "increment", shape: .names(.any), doc: "Amounts to add (update)."),
                Field(name: "toggle", shape: .list(.string), doc: "Boolean properties to flip (update)."),
                Field(name: "with", shape: .names(.any), doc: "Arguments (call)."),
                Field(name: "where", shape: .string, doc: "Filter (find)."),
                Field(name: "sort", shape: .oneOf([.string, .list(.string)]), doc: "Order (find)."),
                Field(name: "limit", shape: .integer, doc: "At most this many (find)."),
                Field(name: "as", shape: .string, doc: "Name for the step's result."),
            ] + activityStepFields
        case .shortcut:
            [
                Field(name: "intent", shape: .string, doc: "The intent the shortcut runs.", required: true),
                Field(
                    name: "phrases", shape: .list(.oneOf([.string, .object(.phrase)])),
                    doc: "Phrases; each should name {app}."),
                Field(name: "shortTitle", shape: .string, doc: "Short label."),
                Field(name: "image", shape: .string, doc: "Symbol name."),
            ]
        case .example:
            [
                Field(name: "say", shape: .string, doc: "A sentence as a person would type it.", required: true),
                Field(name: "lang", shape: .string, doc: "Its language."),
                Field(name: "intent", shape: .string, doc: "Expected intent, when not the enclosing one."),
                Field(
                    name: "expect", shape: .oneOf([.string, .names(.any)]),
                    doc: "Expected parameter values, or no_match."),
            ]
        case .searchable:
            [
                Field(name: "title", shape: .string, doc: "Template: the hit's title.", required: true),
                Field(name: "description", shape: .string, doc: "Template: text found and shown under the title."),
                Field(name: "keywords", shape: .string, doc: "Template: a list property or text; words that find it."),
                Field(name: "where", shape: .string, doc: "Only records for which this holds are indexed."),
                Field(
                    name: "expires", shape: .string,
                    doc: "Leaves the results this long after its last change: 30d, 12h."),
            ]
        case .tip:
            [
                Field(name: "intent", shape: .string, doc: "An intent with an app shortcut.", required: true),
                Field(name: "when", shape: .string, doc: "Shown only while this holds, e.g. count(Task) == 0."),
                Field(
                    name: "placement", shape: .string,
                    doc: "start, after-long-way or after-near-miss (default start).", required: false),
                Field(name: "phrase", shape: .string, doc: "Which of the shortcut's phrases (default: the first)."),
                Field(name: "lang", shape: .string, doc: "The tip's language (default: the app's)."),
            ]
        case .widget, .widgetTimeline, .relevanceRule, .widgetContent, .widgetItems, .widgetButton, .widgetFigure,
            .control,
            .intentCall:
            surfaceFields(of: object)
        case .liveActivity, .activityCompact, .activityExpanded, .activityLockScreen, .startActivityStep,
            .updateActivityStep, .endActivityStep:
            liveActivityFields(of: object)
        case .shortcutFile, .shortcutInput, .sayStep, .intentStep, .setStep, .ifStep, .repeatStep, .repeatEachStep,
            .chooseStep, .askStep, .showStep, .outputStep, .stopStep, .runStep:
            shortcutFields(of: object)
        case .link, .shareRoute, .activity:
            waysInFields(of: object)
        }
    }

    /// The objects of shortcut files.
    private static func shortcutFields(of object: Object) -> [Field] {
        let binding = { (doc: String) in Field(name: "as", shape: .string, doc: doc) }
        let body = { (name: String, doc: String) in
            Field(name: name, shape: .list(.shortcutStep), doc: doc, required: true)
        }
        switch object {
        case .shortcutFile:
            return [
                Field(name: "shortcut", shape: .string, doc: "The shortcut's name.", required: true),
                Field(name: "description", shape: .string, doc: "What the shortcut does."),
                Field(
                    name: "input", shape: .names(.oneOf([.string, .object(.shortcutInput)])),
                    doc: "Inputs by name (--input name=value); a string value is the type."),
                body("steps", "The steps, run in order."),
            ]
        case .shortcutInput:
            return [
                Field(name: "type", shape: .string, doc: typeName, required: true),
                Field(name: "default", shape: .any, doc: "Value when none is given."),
                Field(name: "prompt", shape: .string, doc: "The question asked when there is no value."),
            ]
        case .sayStep:
            return [
                Field(
                    name: "say", shape: .string, doc: "A phrase, resolved like typed input; may use ${…}.",
                    required: true),
                binding("Variable for the intent's result."),
            ]
        case .intentStep:
            return [
                Field(name: "intent", shape: .string, doc: "An intent called directly: App.Intent.", required: true),
                Field(name: "with", shape: .names(.any), doc: "Parameter values: plain values or ${…} templates."),
                binding("Variable for the intent's result."),
            ]
        case .setStep:
            return [
                Field(name: "set", shape: .names(.any), doc: "Variables to set: name → value or ${…}.", required: true)
            ]
        case .ifStep:
            return [
                Field(name: "if", shape: .string, doc: "Condition: an expression.", required: true),
                body("then", "Steps when the condition holds."),
                Field(name: "else", shape: .list(.shortcutStep), doc: "Steps when it does not."),
            ]
        case .repeatStep:
            return [
                Field(
                    name: "repeat", shape: .oneOf([.integer, .string]),
                    doc: "How many times: a whole number or an expression.", required: true),
                binding("Variable for the round, counting from 1."),
                body("do", "Steps run each round."),
            ]
        case .repeatEachStep:
            return [
                Field(name: "repeat_each", shape: .string, doc: "A list: ${…}.", required: true),
                binding("Variable for each item (default: item)."),
                body("do", "Steps run for each item."),
            ]
        case .chooseStep:
            return [
                Field(name: "choose", shape: .string, doc: "The question: a template.", required: true),
                Field(
                    name: "from", shape: .oneOf([.list(.any), .string]), doc: "The options: [a, b] or ${list}.",
                    required: true),
                binding("Variable for the choice (default: choice)."),
            ]
        case .askStep:
            return [
                Field(name: "ask", shape: .string, doc: "The question: a template.", required: true),
                Field(name: "type", shape: .string, doc: "The answer's type (default string); not entities."),
                binding("Variable for the answer (default: answer)."),
            ]
        case .showStep:
            return [Field(name: "show", shape: .string, doc: "Text to show: a template.", required: true)]
        case .outputStep:
            return [
                Field(
                    name: "output", shape: .any, doc: "The shortcut's output: a value or template; ends the run.",
                    required: true)
            ]
        case .stopStep:
            return [
                Field(
                    name: "stop", shape: .oneOf([.null, .boolean, .string]), doc: "Ends the run; a text says why.",
                    required: true)
            ]
        case .runStep:
            return [
                Field(name: "run", shape: .string, doc: "Another shortcut file, relative to this one.", required: true),
                Field(name: "with", shape: .names(.any), doc: "Its inputs: plain values or ${…} templates."),
                binding("Variable for its output."),
            ]
        default:
            return []
        }
    }

    /// Known and required keys by object, built once: the decoders ask for them at every mapping.
    private static let knownKeys: [Object: (known: [String], required: [String])] = Dictionary(
        uniqueKeysWithValues: Object.allCases.map { object in
            let fields = fields(of: object)
            return (object, (fields.map(\.name), fields.filter(\.required).map(\.name)))
        })

    static func keys(of object: Object) -> [String] {
        knownKeys[object]?.known ?? []
    }

    /// Both lists with one look-up: the decoders ask at every mapping.
    static func knownAndRequiredKeys(of object: Object) -> (known: [String], required: [String]) {
        knownKeys[object] ?? ([], [])
    }

    static func requiredKeys(of object: Object) -> [String] {
        knownKeys[object]?.required ?? []
    }

    /// "a 'say' step", "an 'if' step": how messages name a step by its verb.
    static func step(_ verb: String) -> String {
        ("aeiou".contains(verb.first ?? "x") ? "an" : "a") + " '\(verb)' step"
    }

    /// Every key some kind of shortcut step takes.
    static let shortcutStepKeys = Set(Object.shortcutSteps.flatMap(keys(of:)))
}
