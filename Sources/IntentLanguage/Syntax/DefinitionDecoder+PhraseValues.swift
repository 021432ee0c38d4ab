import IntentModel
import YAML

extension DefinitionDecoder {
    /// `set: { domain: light }` on a phrase: parameter names and the values, checked against the
    /// parameters' types by the compiler.
    mutating func phraseValues(_ node: Node?) -> [(name: Located<String>, value: Node)] {
        pairs(node, "'set'").map { (name: $0.0, value: $0.1) }
    }
}
