import IntentModel

extension Conversation {
    /// `values`, with every parameter the sentence left unsaid that declares `context:` taken from
    /// the request's context of that name ("turn on the lights in here" on the kitchen's satellite).
    /// The context's text is read like an answer to the parameter's question: an entity by name, an
    /// enum case by title or synonym, a number from words.
    func withContext(_ values: [String: Value], for intent: IntentGraph.Intent) -> [String: Value] {
        guard !options.context.isEmpty else { return values }
        var values = values
        for parameter in intent.parameters where values[parameter.name] == nil {
            guard let key = parameter.context, let text = options.context[key] else { continue }
            values[parameter.name] =
                session.matcher(clock: session.clock).parseValue(text, as: parameter.type) ?? .string(text)
        }
        return values
    }
}
