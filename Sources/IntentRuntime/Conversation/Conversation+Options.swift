extension Conversation {
    /// How a conversation behaves: set from the command line's flags.
    public struct Options: Sendable {
        /// Confirm without asking (`--yes`).
        public var confirmAll = false
        /// Resolve and stop before executing (`--dry-run`).
        public var dryRun = false
        /// Phrases of one language only (nil: all).
        public var language: String?

        public init(confirmAll: Bool = false, dryRun: Bool = false, language: String? = nil) {
            self.confirmAll = confirmAll
            self.dryRun = dryRun
            self.language = language
        }
    }
}
