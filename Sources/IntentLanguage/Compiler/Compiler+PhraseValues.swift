import IntentModel
import YAML

extension Diagnostic.Message {
    static func setAndSaid(_ name: String) -> Self { "'\(name)' is both a slot of the phrase and set by it; keep one" }
}

extension Compiler {
    /// The values a phrase fixes (`set:`), each checked: a parameter of the intent, a value of its
    /// type, not also a slot of the phrase (the sentence would say it twice).
    mutating func phraseValues(
        _ definition: PhraseDefinition, template: PhraseTemplate, parameters: [IntentGraph.Parameter]
    ) -> [String: Value] {
        var values: [String: Value] = [:]
        for (name, node) in definition.values {
            guard let parameter = parameters.first(where: { $0.name == name.value }) else {
                diagnostics.unknown("parameter", name.value, at: name.range, known: parameters.map(\.name))
                continue
            }
            if template.slots.contains(where: { $0.name == name.value }) {
                diagnostics.error(.setAndSaid(name.value), at: name.range)
                continue
            }
            if let value = value(node, as: parameter.type, context: "the value set for '\(name.value)'") {
                values[name.value] = value
            }
        }
        return values
    }
}
