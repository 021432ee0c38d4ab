/// How an intent was reached, recorded with its donation (the store's `via` column) so suggestions
/// can tell what people say from what their shortcuts run.
public enum Invocation: String, Sendable, Hashable, CaseIterable {
    /// A sentence: `say`, the prompt, `batch`, the engine's `respond`; deep links and shares too.
    case phrase
    /// A step of a shortcut file.
    case shortcut
}
