extension IntentGraph.Entity {
    /// How messages name the type mid-sentence: its title, or its name in words, in lower case
    /// where a word is only capitalized ("MediaPlayer" → "media player", "TVShow" → "TV show").
    public var noun: String { Nouns.words(title ?? name.name) }

    /// The noun with "a" or "an" (`article:`, else by its first sound): "an area", "a unit cell".
    public var indefinite: String { "\(article ?? Nouns.article(for: noun)) \(noun)" }

    /// The noun in the plural: "areas", "media players", "batteries".
    public var plural: String { Nouns.plural(noun) }

    /// How a message in `language` names the type: its `title:` in that language as written
    /// ("Aufgabe"); in English (or no language) `noun`; in another language without a title of
    /// its own, the default title or the type's name as written ("Note").
    public func noun(in language: String?) -> String {
        guard let language, language != "en" else { return noun }
        return titles[language] ?? title ?? name.name
    }
}

/// English nouns for messages: words from identifiers, articles by sound, plurals.
public enum Nouns {
    /// `MediaPlayer` → `media player`; `Smart Plug` → `smart plug`; acronyms kept (`TV`).
    public static func words(_ text: String) -> String {
        var words: [String] = []
        var current = ""
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            if character == " " || character == "_" || character == "-" {
                if !current.isEmpty { words.append(current) }
                current = ""
                continue
            }
            if character.isUppercase, !current.isEmpty {
                let previousLower = current.last?.isLowercase == true
                let nextLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previousLower || (nextLower && current.last?.isUppercase == true) {
                    words.append(current)
                    current = ""
                }
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words.map { word in
            // A capitalized word is lowered; an acronym (two or more capitals) is kept.
            word.dropFirst().allSatisfy { !$0.isUppercase } ? word.lowercased() : word
        }.joined(separator: " ")
    }

    /// "a" or "an" by the first sound of `word`: vowels take "an", except where they sound like a
    /// consonant ("a unit", "a one-off", "a European"); a silent h takes "an" ("an hour").
    public static func article(for word: String) -> String {
        let lower = word.lowercased()
        if word.prefix(2).count == 2, word.prefix(2).allSatisfy(\.isUppercase), let first = lower.first {
            // An acronym is read letter by letter: "an SQL table", "a TV".
            return "aefhilmnorsx".contains(first) ? "an" : "a"
        }
        for prefix in ["uni", "use", "usu", "ute", "uti", "eu", "ewe", "one", "once", "ubi", "ura", "uro"]
        where lower.hasPrefix(prefix) {
            return "a"
        }
        for prefix in ["hour", "honest", "honor", "honour", "heir"] where lower.hasPrefix(prefix) { return "an" }
        guard let first = lower.first else { return "a" }
        return "aeiou".contains(first) ? "an" : "a"
    }

    /// The plural of the last word: `-y` → `-ies` after a consonant, `-s/-x/-z/-ch/-sh` → `-es`.
    public static func plural(_ noun: String) -> String {
        let lower = noun.lowercased()
        if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) {
            return noun.dropLast() + "ies"
        }
        if ["s", "x", "z", "ch", "sh"].contains(where: lower.hasSuffix) { return noun + "es" }
        return noun + "s"
    }
}
