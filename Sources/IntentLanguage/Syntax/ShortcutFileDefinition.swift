import IntentModel
import YAML

/// A shortcut file as written (names unresolved, marks kept): what `ShortcutDecoder` gives the checker.
struct ShortcutFileDefinition: Sendable {
    var path: String
    var range: SourceRange
    var name: Located<String>?
    var description: Located<String>?
    var inputs: [Input] = []
    var steps: [Step] = []

    /// `minutes: integer` or `minutes: { type: integer, default: 25, prompt: … }`.
    struct Input: Sendable {
        var name: Located<String>
        var type: Located<String>
        var defaultValue: Node?
        var prompt: Located<String>?
        /// The input's value in the file.
        var range: SourceRange
    }

    /// One step; its verb key decides the kind.
    struct Step: Sendable {
        var kind: Kind
        /// `as:`, for the steps that bind a result.
        var binding: Located<String>?
        /// The verb's value: where the step's diagnostics and run-time failures point.
        var location: SourceRange
    }

    /// Arguments under `with:`, in file order.
    typealias Arguments = [(name: Located<String>, value: Node)]

    indirect enum Kind: Sendable {
        case say(Located<String>)
        case intent(Located<String>, arguments: Arguments)
        case set([(name: Located<String>, value: Node)])
        case branch(condition: Located<String>, then: [Step], otherwise: [Step])
        case repeatCount(Located<String>, body: [Step])
        case repeatEach(Located<String>, body: [Step])
        case choose(prompt: Located<String>, options: Node?)
        case ask(prompt: Located<String>, type: Located<String>?)
        case show(Located<String>)
        case output(Node)
        /// `stop:` alone or `stop: true` has no message.
        case stop(Located<String>?)
        case run(file: Located<String>, arguments: Arguments)
        case activity(ActivityStepDefinition)
    }
}
