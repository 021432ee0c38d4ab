import IntentModel
import YAML

/// Texts an app says may be given once or per language: `prompt: "What's the task?"` or
/// `prompt: { en: "What's the task?", de: "Was ist die Aufgabe?" }`.
extension SchemaDecoding {
    /// The default text (English when given, else the first language's) and every language's.
    mutating func localized(_ node: Node, _ context: String) -> (Located<String>, [String: Located<String>])? {
        guard node.mapping != nil else { return string(node, context).map { ($0, [:]) } }
        var texts: [String: Located<String>] = [:]
        var order: [String] = []
        for (language, value) in pairs(node, context) {
            guard let text = string(value, "the '\(language.value)' text of \(context)") else { continue }
            texts[language.value] = text
            order.append(language.value)
        }
        guard let first = texts["en"] ?? order.first.flatMap({ texts[$0] }) else {
            diagnostics.error(.expected("a text, or texts by language", in: context), at: node.range)
            return nil
        }
        return (first, texts)
    }
}
