import Foundation

/// How words are compared wherever people's text meets the definitions: lower case, without
/// diacritics, `ß` as `ss`. The phrase matcher folds every token with it and the compiler folds
/// enum terms and template words with it, so what the compiler calls a clash is what matching
/// would confuse.
public enum TextFolding {
    /// One word folded: “Straße” → “strasse”, “Ünïcödé” → “unicode”. ASCII takes a fast path;
    /// the phrase matcher calls this for every non-ASCII token.
    public static func fold(_ word: String) -> String {
        let lowered = word.lowercased()
        if lowered.utf8.allSatisfy({ $0 < 0x80 }) { return lowered }
        return lowered.replacingOccurrences(of: "ß", with: "ss")
            .folding(options: [.diacriticInsensitive], locale: nil)
    }

    /// A phrase folded: compatibility forms composed first (NFKC, as the matcher's tokenizer does:
    /// “ﬁle” is “file”), then folded, whitespace collapsed to single spaces: “  A  b ” → “a b”.
    public static func foldPhrase(_ text: String) -> String {
        if let folded = foldASCIIPhrase(text) { return folded }
        let composed = text.utf8.allSatisfy({ $0 < 0x80 }) ? text : text.precomposedStringWithCompatibilityMapping
        return fold(composed).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// `foldPhrase` of ASCII text over its bytes (nil for any other text): lower case, runs of
    /// whitespace (tab, line feed, vertical tab, form feed, carriage return, space) as one space,
    /// none at either end. Text already folded is handed back as it is.
    static func foldASCIIPhrase(_ text: String) -> String? {
        func isSpace(_ byte: UInt8) -> Bool { (byte >= 0x09 && byte <= 0x0D) || byte == 0x20 }
        var plain = true
        for byte in text.utf8 {
            if byte >= 0x80 { return nil }
            if isSpace(byte) || (byte >= 0x41 && byte <= 0x5A) { plain = false }
        }
        if plain { return text }
        var folded: [UInt8] = []
        folded.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            if isSpace(byte) {
                pendingSpace = !folded.isEmpty
                continue
            }
            if pendingSpace {
                folded.append(0x20)
                pendingSpace = false
            }
            folded.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
        }
        return String(decoding: folded, as: UTF8.self)
    }
}
