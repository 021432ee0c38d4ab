import Foundation

/// The words a conversation understands in replies, for one language. Data, so that another
/// language is another entry in `byLanguage`. Words are written folded, the way replies are
/// compared (`Normalizer.foldedWords`): “fünf” as “funf”.
struct ConversationWords: Sendable {
    /// Replies that drop the open question.
    var cancel: Set<String>
    /// Replies that confirm.
    var yes: Set<String>
    /// Replies that decline, which cancels.
    var no: Set<String>
    /// Words around a choice's number that say nothing: “the”, “number”.
    var fillers: Set<String>
    /// Choices by word, 1 to 9: cardinals and ordinals.
    var numbers: [String: Int]
    /// Requests for help that no app's phrase reads: “what can you do”.
    var help: Set<String>

    init(
        cancel: Set<String>, yes: Set<String>, no: Set<String>, fillers: Set<String>, counting: [[String]],
        help: Set<String> = []
    ) {
        self.help = help
        self.cancel = cancel
        self.yes = yes
        self.no = no
        self.fillers = fillers
        numbers = [:]
        for list in counting {
            for (index, word) in list.enumerated() { numbers[word] = index + 1 }
        }
    }

    static let english = ConversationWords(
        cancel: ["cancel", "stop", "never mind", "nevermind", "forget it", "quit"],
        yes: ["yes", "y", "yeah", "yep", "sure", "ok", "okay", "confirm", "do it", "go ahead"],
        no: ["no", "n", "nope", "nah", "do not", "dont"],
        fillers: ["the", "number"],
        counting: [
            ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"],
            ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"],
        ],
        help: [
            "help", "help me", "what can you do", "what can i say", "what can i ask", "what can i ask you",
            "what can you help me with", "what do you do", "how does this work",
        ])

    static let german = ConversationWords(
        cancel: ["abbrechen", "abbruch"],
        yes: ["ja", "jawohl", "klar"],
        no: ["nein"],
        fillers: ["nummer", "die", "der"],
        counting: [["eins", "zwei", "drei", "vier", "funf", "sechs", "sieben", "acht", "neun"]],
        help: [
            "hilfe", "was kannst du", "was kannst du tun", "was kann ich sagen", "was kann ich fragen", "wie geht das",
        ])

    /// Each language's words by its code, as phrases give it (`en`, `de`).
    static let byLanguage: [String: ConversationWords] = ["en": english, "de": german]

    /// The words of every language together: a reply is understood in any of them, whatever
    /// language the phrases are restricted to.
    static let understood: ConversationWords = byLanguage.sorted { $0.key < $1.key }.reduce(
        into: ConversationWords(cancel: [], yes: [], no: [], fillers: [], counting: [])
    ) { all, entry in
        all.cancel.formUnion(entry.value.cancel)
        all.yes.formUnion(entry.value.yes)
        all.no.formUnion(entry.value.no)
        all.fillers.formUnion(entry.value.fillers)
        all.numbers.merge(entry.value.numbers) { first, _ in first }
    }

    /// The language of each request for help (`hilfe` → `de`), folded, as replies are compared.
    static let helpLanguage: [String: String] = byLanguage.sorted { $0.key < $1.key }.reduce(into: [:]) {
        all, entry in
        for words in entry.value.help where all[words] == nil { all[words] = entry.key }
    }

    /// The index of the choice `text` names among `count`: `2`, `#2`, `number 2`, `two`,
    /// `the second` → 1. `text` is folded already.
    func choice(_ text: String, count: Int) -> Int? {
        let words = text.split(separator: " ")
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "#.")) }
            .filter { !$0.isEmpty && !fillers.contains($0) }
        guard words.count == 1, let number = Int(words[0]) ?? numbers[words[0]] else { return nil }
        guard number >= 1, number <= count else { return nil }
        return number - 1
    }
}
