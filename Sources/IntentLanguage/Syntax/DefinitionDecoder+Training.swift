import IntentModel
import YAML

extension DefinitionDecoder {
    /// `understanding: {act: 0.9, ask: 0.6}`: numbers by name (the compiler checks names and ranges).
    mutating func understanding(_ node: Node?) -> [(name: Located<String>, value: Located<Double>)] {
        pairs(node, "'understanding'").compactMap { name, value in
            guard let number = value.double else {
                diagnostics.error(.expected("a number from 0 to 1", in: "'\(name.value)'"), at: value.range)
                return nil
            }
            return (name, Located(number, at: value.range))
        }
    }
}
