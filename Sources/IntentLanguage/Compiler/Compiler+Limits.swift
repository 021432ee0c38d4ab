import IntentModel
import YAML

extension Compiler {
    /// Deepest nesting of `call:` steps, the same the executor runs (a chain deeper is an error here,
    /// not a stack overflow in the compiler nor a failure at run time).
    static let maximumCallDepth = 16

    /// True (with a diagnostic at `range`) when a call here would nest deeper than `maximumCallDepth`.
    /// Checked before compiling the callee, so a long chain of intents each calling the next cannot
    /// nest the compiler itself past its stack (850 did).
    mutating func callNestsTooDeep(at range: SourceRange?) -> Bool {
        guard intentsInProgress.count >= Self.maximumCallDepth else { return false }
        let chain = intentsInProgress.prefix(3).map(\.name).joined(separator: " → ")
        diagnostics.error(
            "calls nest more than \(Self.maximumCallDepth) intents deep here (\(chain) → …)", at: range)
        return true
    }
}
