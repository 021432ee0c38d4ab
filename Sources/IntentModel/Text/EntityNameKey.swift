/// How an entity name is keyed for look-ups, the same way in memory (the matcher's `EntityNameIndex`)
/// and in the store's on-disk name index: its folded words, how far a typo may reach, and a letter mask.
public enum EntityNameKey {
    /// Bumped when the folding changes: a store whose on-disk keys were made otherwise rebuilds them.
    public static let version = "1"
    /// More candidates than this for the rarest word of a text: too vague to be a typo of one name.
    public static let maximumCandidates = 256

    /// The folded words of `name`, and the key (the words joined by spaces); an empty key names nothing.
    public static func key(_ name: String) -> (key: String, words: [String]) {
        if let plain = plainKey(name) { return plain }
        let words = Normalizer.tokens(name).map(\.text)
        return (words.joined(separator: " "), words)
    }

    /// The key of a name of plain ASCII words (letters alone or digits alone, one space apart),
    /// which tokenizing leaves as they are but for their case, found without tokenizing: an
    /// imported name was keyed at 25,000 instructions, 8 % of `store import` (a test checks that
    /// both ways agree). Nil for any other name, and for a word tokenizing expands ("cannot").
    package static func plainKey(_ name: String) -> (key: String, words: [String])? {
        var folded: [UInt8] = []
        folded.reserveCapacity(name.utf8.count)
        var words: [String] = []
        var wordStart = 0
        var letters = false
        var digits = false
        func endWord() -> Bool {
            guard folded.count > wordStart, !(letters && digits) else { return false }
            let word = String(decoding: folded[wordStart...], as: UTF8.self)
            guard Normalizer.contractions[word] == nil else { return false }
            words.append(word)
            return true
        }
        for byte in name.utf8 {
            switch byte {
            case 97...122:
                folded.append(byte)
                letters = true
            case 65...90:
                folded.append(byte + 32)
                letters = true
            case 48...57:
                folded.append(byte)
                digits = true
            case 32:
                guard endWord() else { return nil }
                folded.append(32)
                wordStart = folded.count
                letters = false
                digits = false
            default: return nil
            }
        }
        guard endWord() else { return nil }
        return (String(decoding: folded, as: UTF8.self), words)
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
