extension IntentGraph {
    /// `understanding:` of an app: from what confidence the learned stage acts on one of its intents,
    /// and from what confidence it asks "Did you mean …?"; nil keeps the default.
    public struct Understanding: Sendable, Hashable {
        public var act: Double?
        public var ask: Double?

        public init(act: Double? = nil, ask: Double? = nil) {
            self.act = act
            self.ask = ask
        }
    }
}
