/// Entity names the matcher may look up (the store provides one; tests an in-memory one).
public protocol EntityNameLookup: Sendable {
    /// Names of `entity` that the tokens `text` could mean, best first, with their edit distance.
    func lookup(_ text: String, entity: QualifiedName) -> [(name: String, distance: Int)]
    /// The look-up one phrase uses (read once per phrase: a store's names in memory, or its spans
    /// remembered); by default this one.
    func forPhrase() -> any EntityNameLookup
}

extension EntityNameLookup {
    public func forPhrase() -> any EntityNameLookup { self }
}
