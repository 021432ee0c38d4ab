extension Conversation {
    /// How a conversation behaves: set from the command line's flags.
    public struct Options: Sendable {
        /// Confirm without asking (`--yes`).
        public var confirmAll = false
        /// Resolve and stop before executing (`--dry-run`).
        public var dryRun = false
        /// Phrases of one language only (nil: all).
        public var language: String?
        /// Save questions left open in the store, so `intents continue` in another shell can carry them on.
        public var handoff = false

        public init(confirmAll: Bool = false, dryRun: Bool = false, language: String? = nil, handoff: Bool = false) {
            self.confirmAll = confirmAll
            self.dryRun = dryRun
            self.language = language
            self.handoff = handoff
        }
    }
}
