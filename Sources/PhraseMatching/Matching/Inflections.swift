/// Inflected forms of enum terms, derived so that "erstelle eine dringende Aufgabe" finds case
/// `urgent` through its synonym "dringend" without every form written: German adjective endings
/// when the app speaks German, English adverbs ("urgently" for "urgent") always.
enum Inflections {
    /// The inflected forms of a term's last word (folded tokens), the term itself excluded.
    static func forms(of tokens: [String], languages: [String]) -> [[String]] {
        guard let last = tokens.last, last.count >= 4, last.allSatisfy(\.isLetter) else { return [] }
        var words: [String] = []
        if languages.contains("de") { words += german(last) }
        if let adverb = english(last) { words.append(adverb) }
        return words.filter { $0 != last }.map { tokens.dropLast() + [$0] }
    }

    /// The strong and weak adjective endings: "dringend" → "dringende", "dringenden", "dringender",
    /// "dringendes", "dringendem"; "leise" → "leisen", "leiser", "leises", "leisem".
    static func german(_ word: String) -> [String] {
        let stem = word.hasSuffix("e") ? String(word.dropLast()) : word
        return ["e", "en", "er", "es", "em"].map { stem + $0 }
    }

    /// "urgent" → "urgently", "normal" → "normally": words of five letters or more ending in a
    /// consonant other than "y".
    static func english(_ word: String) -> String? {
        guard word.count >= 5, let final = word.last, !"aeiouy".contains(final) else { return nil }
        return word + "ly"
    }
}
