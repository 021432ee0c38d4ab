import Foundation
public import IntentModel

/// One answer to one phrase or reply: what happened, or what is asked next.
public struct Answer: Sendable {
    public enum Status: String, Sendable, Codable {
        case done
        case needsValue = "needs_value"
        case needsConfirmation = "needs_confirmation"
        case needsDisambiguation = "needs_disambiguation"
        case noMatch = "no_match"
        case error
        /// The user cancelled a question: nothing was changed.
        case cancelled
        /// `--dry-run`: everything resolved, nothing executed.
        case ready
    }

    public var status: Status
    public var app: String?
    public var intent: QualifiedName?
    /// Parameter name → value as JSON (enum ids, ISO dates, entities as `{type, id, title}`), in declared order.
    public var parameters: [(name: String, value: JSONValue)] = []
    public var dialog: String
    /// Why the answer is an error, with its message; nil when it is not one.
    public var failure: Failure?
    /// The parameter a question asks for.
    public var asking: String?
    /// Numbered choices a question offers.
    public var choices: [String] = []
    /// Phrases that came closest, for `no_match`.
    public var suggestions: [String] = []
    /// Links the intent opens (`radar://open/…`).
    public var opens: [String] = []
    /// The result value as JSON, when the intent ran (`null` when it has none).
    public var result: JSONValue?
    /// The result value itself (the dialog's text when the intent declares no result value).
    public var value: Datum?
    /// A follow-up reran the last request: the parameter replaced and those carried over.
    public var carried: FollowUp?

    public init(
        status: Status, app: String? = nil, intent: QualifiedName? = nil,
        parameters: [(name: String, value: JSONValue)] = [], dialog: String, failure: Failure? = nil,
        asking: String? = nil, choices: [String] = [], suggestions: [String] = [], opens: [String] = [],
        result: JSONValue? = nil, value: Datum? = nil, carried: FollowUp? = nil
    ) {
        self.status = status
        self.app = app
        self.intent = intent
        self.parameters = parameters
        self.dialog = dialog
        self.failure = failure
        self.asking = asking
        self.choices = choices
        self.suggestions = suggestions
        self.opens = opens
        self.result = result
        self.value = value
        self.carried = carried
    }

    /// The store could not be used: the command should exit non-zero.
    public var storeFailure: Bool { failure?.isStore == true }

    public var isQuestion: Bool { [.needsValue, .needsConfirmation, .needsDisambiguation].contains(status) }

    /// What `--json` prints.
    public var json: JSONObject {
        JSONObject(
            status: status, app: app, intent: intent?.description, dialog: dialog,
            parameters: Dictionary(parameters.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last }),
            error: failure.map { JSONObject.Failure(message: $0.message) }, asking: asking,
            choices: choices.isEmpty ? nil : choices, suggestions: suggestions.isEmpty ? nil : suggestions,
            opens: opens.isEmpty ? nil : opens, result: result,
            followUp: carried.map { JSONObject.FollowUpJSON(replaced: $0.replaced, carriedOver: $0.kept) })
    }

    /// The answer as a person reads it: the dialog, numbered choices, links opened.
    public var text: String {
        var lines = [dialog]
        for (number, choice) in choices.enumerated() { lines.append("  \(number + 1). \(choice)") }
        for link in opens { lines.append("→ \(link)") }
        return lines.joined(separator: "\n")
    }
}

extension Answer {
    /// Why an answer failed, in `RuntimeError`'s two kinds. `--json` prints only its message
    /// (`error.message`); the kind decides the exit status.
    public enum Failure: Sendable, Hashable {
        /// What was asked could not be done: an intent's own error, an intent no longer loaded, a
        /// record gone, a question already answered.
        case failed(String)
        /// The store could not be read or written: the command exits non-zero.
        case store(String)

        /// The failure `error` says, of the same kind.
        public init(_ error: RuntimeError) {
            switch error {
            case .failed(let message): self = .failed(message)
            case .store(let message): self = .store(message)
            }
        }

        /// What the answer's `error.message` says.
        public var message: String {
            switch self {
            case .failed(let message), .store(let message): message
            }
        }

        public var isStore: Bool {
            if case .store = self { return true }
            return false
        }
    }
}

extension Answer {
    /// An answer as `--json` prints it: `status`, `app`, `intent` (null when none), `dialog` and
    /// `parameters` always; the other keys only when they say something.
    public struct JSONObject: Sendable, Hashable, Codable {
        public struct Failure: Sendable, Hashable, Codable {
            public var message: String

            public init(message: String) {
                self.message = message
            }
        }

        public var status: Status
        public var app: String?
        public var intent: String?
        public var dialog: String
        /// Parameter name → value: enum ids, ISO dates, entities as `{type, id, title}`.
        public var parameters: [String: JSONValue]
        public var error: Failure?
        public var asking: String?
        public var choices: [String]?
        public var suggestions: [String]?
        public var opens: [String]?
        public var result: JSONValue?
        /// A follow-up ("and libra?"): the parameter it replaced and those carried over.
        public var followUp: FollowUpJSON?

        public struct FollowUpJSON: Sendable, Hashable, Codable {
            public var replaced: String
            public var carriedOver: [String]
        }

        public init(
            status: Status, app: String?, intent: String?, dialog: String, parameters: [String: JSONValue],
            error: Failure? = nil, asking: String? = nil, choices: [String]? = nil, suggestions: [String]? = nil,
            opens: [String]? = nil, result: JSONValue? = nil, followUp: FollowUpJSON? = nil
        ) {
            self.status = status
            self.app = app
            self.intent = intent
            self.dialog = dialog
            self.parameters = parameters
            self.error = error
            self.asking = asking
            self.choices = choices
            self.suggestions = suggestions
            self.opens = opens
            self.result = result
            self.followUp = followUp
        }

        enum CodingKeys: String, CodingKey {
            case status, app, intent, dialog, parameters, error, asking, choices, suggestions, opens, result, followUp
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(status, forKey: .status)
            try container.encode(app, forKey: .app)
            try container.encode(intent, forKey: .intent)
            try container.encode(dialog, forKey: .dialog)
            try container.encode(parameters, forKey: .parameters)
            try container.encodeIfPresent(error, forKey: .error)
            try container.encodeIfPresent(asking, forKey: .asking)
            try container.encodeIfPresent(choices, forKey: .choices)
            try container.encodeIfPresent(suggestions, forKey: .suggestions)
            try container.encodeIfPresent(opens, forKey: .opens)
            try container.encodeIfPresent(result, forKey: .result)
            try container.encodeIfPresent(followUp, forKey: .followUp)
        }
    }
}
