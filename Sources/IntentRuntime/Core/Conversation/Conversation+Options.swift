import IntentModel

extension Conversation {
    /// How a conversation behaves: set from the command line's flags.
    public struct Options: Sendable {
        /// Confirm without asking (`--yes`).
        public var confirmAll = false
        /// Resolve and stop before executing (`--dry-run`).
        public var dryRun = false
        /// Phrases of one language only (nil: all).
        public var language: String?
        /// How intents are invoked, recorded with their donations.
        public var invocation = Invocation.phrase
        /// Save questions left open in the store, so `intents continue` in another shell can carry them on.
        public var handoff = false
        /// Where the request comes from (`--context area=Kitchen`): parameters that declare
        /// `context: area` take this value when the sentence does not say it.
        public var context: [String: String] = [:]

        public init(confirmAll: Bool = false, dryRun: Bool = false, language: String? = nil, handoff: Bool = false) {
            self.confirmAll = confirmAll
            self.dryRun = dryRun
            self.language = language
            self.handoff = handoff
        }
    }
}

extension Conversation.Options {
    /// The options of a shortcut file's step: its donations say `shortcut`.
    static func shortcutStep(_ run: ShortcutRunner.Options) -> Self {
        var options = Self(confirmAll: run.confirmAll, dryRun: run.dryRun)
        options.invocation = .shortcut
        return options
    }
}
