import Foundation
public import IntentModel

/// One answer to one phrase or reply: what happened, or what is asked next.
public struct Answer {
    public enum Status: String, Sendable {
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
    public var parameters: [(name: String, value: Any)] = []
    public var dialog: String
    public var error: String?
    /// The parameter a question asks for.
    public var asking: String?
    /// Numbered choices a question offers.
    public var choices: [String] = []
    /// Phrases that came closest, for `no_match`.
    public var suggestions: [String] = []
    /// Links the intent opens (`radar://open/…`).
    public var opens: [String] = []
    /// The result value as JSON, when the intent ran.
    public var result: Any?
    /// The result value itself (the dialog's text when the intent declares no result value).
    public var value: Datum?
    /// The store could not be used: the command should exit non-zero.
    public var storeFailure = false

    public var isQuestion: Bool { [.needsValue, .needsConfirmation, .needsDisambiguation].contains(status) }

    /// The object `--json` prints.
    public var jsonObject: [String: Any] {
        var object: [String: Any] = [
            "status": status.rawValue,
            "app": app ?? NSNull(),
            "intent": intent.map { $0.description } ?? NSNull(),
            "dialog": dialog,
        ]
        var parameterObject: [String: Any] = [:]
        for (name, value) in parameters { parameterObject[name] = value }
        object["parameters"] = parameterObject
        if let error { object["error"] = ["message": error] }
        if let asking { object["asking"] = asking }
        if !choices.isEmpty { object["choices"] = choices }
        if !suggestions.isEmpty { object["suggestions"] = suggestions }
        if !opens.isEmpty { object["opens"] = opens }
        if let result { object["result"] = result }
        return object
    }

    /// The answer as a person reads it: the dialog, numbered choices, links opened.
    public var text: String {
        var lines = [dialog]
        for (number, choice) in choices.enumerated() { lines.append("  \(number + 1). \(choice)") }
        for link in opens { lines.append("→ \(link)") }
        return lines.joined(separator: "\n")
    }
}
