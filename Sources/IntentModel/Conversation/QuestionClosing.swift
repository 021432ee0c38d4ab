/// Why a question saved for handoff was closed (the store's `_questions.closed` column).
public enum QuestionClosing: String, Sendable, Hashable, CaseIterable {
    /// Answered in the shell that asked it.
    case answered
    /// Carried on by `intents continue` in another shell.
    case continued
}
