import IntentModel

extension IntentPerformer {
    /// Runs a suggestion: its intent with its values; whatever is missing is asked.
    public func accept(_ suggestion: Suggestion) -> Answer {
        guard let intent = session.graph.intent(suggestion.intent) else {
            return Answer(status: .error, dialog: "\(suggestion.intent) is no longer defined.")
        }
        var arguments: [String: Datum] = [:]
        for (name, value) in suggestion.parameters {
            switch value {
            case .string(let text): arguments[name] = .string(text)
            case .integer(let number): arguments[name] = .integer(number)
            case .number(let number): arguments[name] = .number(number)
            case .bool(let flag): arguments[name] = .boolean(flag)
            case .object(let fields):
                if case .string(let title)? = fields["title"] { arguments[name] = .string(title) }
            default: break
            }
        }
        return perform(intent, arguments: arguments)
    }
}
