import IntentModel

extension Conversation {
    /// “undo that” said to any app, at the prompt, to `say` or to the server: the last execution
    /// that changed something is reverted, as `intents undo` does, and the answer says what. A dry
    /// run reverts nothing and says so.
    func undoLast(language: String) -> Answer {
        if isDryRun {
            return Answer(status: .ready, dialog: "Ready: undo the last change. (dry run: nothing was changed)")
        }
        do {
            return Answer(status: .done, dialog: try session.undo(language: language))
        } catch {
            let message = "I couldn't undo that: \(error)"
            return Answer(status: .error, dialog: message, failure: .store(message))
        }
    }
}
