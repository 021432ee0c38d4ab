/// Plural forms of enum terms, derived so that "open the windows" finds case `window` without a
/// synonym written for it: English always, German when the app speaks it.
enum Plurals {
    /// The plural forms of a term's last word (folded tokens), the term itself excluded.
    static func forms(of tokens: [String], languages: [String]) -> [[String]] {
        guard let last = tokens.last, last.count >= 3, last.allSatisfy(\.isLetter) else { return [] }
        var words = [english(last)]
        if languages.contains("de") { words.append(german(last)) }
        var forms: [[String]] = []
        for word in words where word != last && !forms.contains(where: { $0.last == word }) {
            forms.append(tokens.dropLast() + [word])
        }
        return forms
    }

    static func english(_ word: String) -> String {
        if ["s", "x", "z"].contains(word.suffix(1)) || ["ch", "sh"].contains(word.suffix(2)) { return word + "es" }
        if word.hasSuffix("y"), let before = word.dropLast().last, !"aeiou".contains(before) {
            return word.dropLast() + "ies"
        }
        return word + "s"
    }

    /// The common regular German plurals: "Lampe" → "Lampen", "Heizung" → "Heizungen", "Tisch" →
    /// "Tische"; words in -el, -er, -en, -chen, -lein stay ("Fenster").
    static func german(_ word: String) -> String {
        if ["el", "er", "en"].contains(word.suffix(2)) || word.hasSuffix("chen") || word.hasSuffix("lein") {
            return word
        }
        if word.hasSuffix("e") { return word + "n" }
        if ["ung", "ion"].contains(word.suffix(3)) || word.hasSuffix("heit") || word.hasSuffix("keit")
            || word.hasSuffix("schaft")
        {
            return word + "en"
        }
        if word.hasSuffix("in") { return word + "nen" }
        return word + "e"
    }
}
