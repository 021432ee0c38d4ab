import IntentEngine

/// The request's context at the prompt: `:context area=Kitchen` sets it, `:context` shows it,
/// `:context clear` empties it. Parameters that declare `context:` take it when a sentence does not
/// say them.
enum ReplContext {
    static let commands = [":context "]
    static let help =
        "  :context K=V …    where requests come from (area=Kitchen); :context shows, :context clear empties"

    static func handle(_ line: String, request: inout EngineRequest) -> String? {
        let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.first == ":context" else { return nil }
        let argument = parts.count > 1 ? parts[1].trimmed : ""
        if argument.isEmpty { return describe(request.context) }
        if argument == "clear" {
            request.context = [:]
            return "The context is empty."
        }
        do {
            let pairs = try RequestContext.parse(argument.split(separator: " ").map(String.init))
            request.context.merge(pairs) { _, new in new }
            return describe(request.context)
        } catch {
            return "\(error)"
        }
    }

    static func describe(_ context: [String: String]) -> String {
        guard !context.isEmpty else { return "The context is empty. Set it with :context area=Kitchen." }
        return "Context: " + context.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
    }
}
