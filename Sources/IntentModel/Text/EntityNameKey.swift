/// How an entity name is keyed for look-ups, the same way in memory (the matcher's `EntityNameIndex`)
/// and in the store's on-disk name index: its folded words, how far a typo may reach, and a letter mask.
public enum EntityNameKey {
    /// Bumped when the folding changes: a store whose on-disk keys were made otherwise rebuilds them.
    public static let version = "1"
    /// More candidates than this for the rarest word of a text: too vague to be a typo of one name.
    public static let maximumCandidates = 256

    /// The folded words of `name`, and the key (the words joined by spaces); an empty key names nothing.
    public static func key(_ name: String) -> (key: String, words: [String]) {
        let words = Normalizer.tokens(name).map(\.text)
        return (words.joined(separator: " "), words)
    }

    /// Edits a typo of a key this long may make (one per five letters, at most three); nil: too
    /// short for typos.
    public static func allowance(_ length: Int) -> Int? {
        length >= 4 ? min(3, length / 5 + 1) : nil
    }

    /// Which characters `text` holds, one bit per letter and digit (and one for anything else). A
    /// single edit changes at most two bits of the difference, so masks differing in more than
    /// twice the allowance are out of a typo's reach without computing their distance.
    public static func mask(_ text: String) -> UInt64 {
        var mask: UInt64 = 0
        for byte in text.utf8 {
            switch byte {
            case 97...122: mask |= 1 << UInt64(byte - 97)
            case 48...57: mask |= 1 << UInt64(26 + byte - 48)
            case 32: break
            default: mask |= 1 << 36
            }
        }
        return mask
    }
}
