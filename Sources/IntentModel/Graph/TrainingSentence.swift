extension IntentGraph {
    /// A `training:` sentence as the author marked it: "book a table for [four](partySize)" is the
    /// pieces "book a table for " and "four" (slot partySize). The slot tagger learns its spans from these.
    public struct TrainingSentence: Sendable, Hashable {
        public struct Piece: Sendable, Hashable {
            public var text: String
            /// The parameter the piece's words are the value of; nil for the words around values.
            public var slot: String?

            public init(text: String, slot: String? = nil) {
                self.text = text
                self.slot = slot
            }
        }

        public var pieces: [Piece]

        public init(pieces: [Piece]) { self.pieces = pieces }

        /// The sentence's words, marks left out.
        public var text: String { pieces.map(\.text).joined() }
    }
}
