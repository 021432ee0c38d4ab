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
        let composed = text.utf8.allSatisfy({ $0 < 0x80 }) ? text : text.precomposedStringWithCompatibilityMapping
        return fold(composed).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
