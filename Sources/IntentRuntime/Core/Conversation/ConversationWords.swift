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
    /// The words before and after an app's name that ask to open it or what it does: “open
    /// Sidebar”, “what can I do with Radar”, “what can Fortune do”.
    var openApp: (before: [[Substring]], after: [[Substring]], articles: Set<Substring>)
    /// Requests to take the last change back that no app's phrase reads: “undo that”.
    var undo: Set<String>
    /// Words that ask to search, before what is looked for (“search for”, “find”), and those that
    /// end a type's name before it (“search my notes for …”, “find tasks about …”).
    var search: (leads: [[Substring]], about: Set<Substring>)

    init(
        cancel: Set<String>, yes: Set<String>, no: Set<String>, fillers: Set<String>, counting: [[String]],
        help: Set<String> = [], openApp: (before: [String], after: [String], articles: Set<Substring>) = ([], [], []),
        undo: Set<String> = [], search: (leads: [String], about: Set<Substring>) = ([], [])
    ) {
        self.help = help
        self.undo = undo
        self.search = (
            search.leads.map { $0.split(separator: " ") }.sorted { $0.count > $1.count }, search.about
        )
        self.openApp = (
            openApp.before.map { $0.split(separator: " ") }, openApp.after.map { $0.split(separator: " ") },
            openApp.articles
        )
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
        ],
        openApp: (
            before: [
                "open", "launch", "go to", "switch to", "what can i do with", "what can i do in", "what can i say to",
                "what can i ask", "what does", "what can", "help with", "how do i use",
            ],
            after: ["app", "please", "do", "for me"], articles: ["the", "my"]
        ),
        undo: [
            "undo", "undo that", "undo it", "undo this", "undo the last thing", "undo the last change",
            "undo my last change", "undo what you just did", "take that back", "take it back", "revert that",
            "revert the last change", "please undo that", "undo that please",
        ],
        search: (
            leads: [
                "search for", "search", "find", "find me", "look for", "look up", "can you find", "can you search for",
                "please find", "search everything for", "search all my stuff for",
            ],
            about: ["for", "about", "with", "on", "mentioning", "containing", "called", "named"]
        ))

    static let german = ConversationWords(
        cancel: ["abbrechen", "abbruch"],
        yes: ["ja", "jawohl", "klar"],
        no: ["nein"],
        fillers: ["nummer", "die", "der"],
        counting: [["eins", "zwei", "drei", "vier", "funf", "sechs", "sieben", "acht", "neun"]],
        help: [
            "hilfe", "was kannst du", "was kannst du tun", "was kann ich sagen", "was kann ich fragen", "wie geht das",
        ],
        openApp: (
            before: [
                "offne", "offne mir", "geh zu", "wechsle zu", "was kann ich mit", "was kann", "hilfe zu", "hilfe fur",
            ],
            after: ["app", "bitte", "machen", "tun", "sagen", "alles"], articles: ["die", "das", "der", "meine"]
        ),
        undo: [
            "ruckgangig", "ruckgangig machen", "mach das ruckgangig", "mach es ruckgangig", "das ruckgangig machen",
            "mach das bitte ruckgangig", "bitte ruckgangig machen", "letzte anderung ruckgangig machen",
            "mach die letzte anderung ruckgangig",
        ],
        search: (
            leads: ["suche nach", "such nach", "suche", "such", "finde", "durchsuche alles nach"],
            about: ["nach", "uber", "mit", "zu"]
        ))

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
    static let helpLanguage: [String: String] = language(of: \.help)

    /// The language of each request to undo (`mach das ruckgangig` → `de`), folded.
    static let undoLanguage: [String: String] = language(of: \.undo)

    private static func language(of words: KeyPath<ConversationWords, Set<String>>) -> [String: String] {
        byLanguage.sorted { $0.key < $1.key }.reduce(into: [:]) { all, entry in
            for phrase in entry.value[keyPath: words] where all[phrase] == nil { all[phrase] = entry.key }
        }
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

extension ConversationWords {
    /// The app `folded` asks to open or asks about (“open the sidebar app”, “was kann radar”), and
    /// the language it asks in: the words around a name `named` knows (folded) are one language's.
    static func appAsked(_ folded: String, app named: (String) -> String?) -> (app: String, language: String)? {
        let words = folded.split(separator: " ")
        for (language, vocabulary) in byLanguage.sorted(by: { $0.key < $1.key }) {
            let (before, after, articles) = vocabulary.openApp
            for lead in before where words.starts(with: lead) {
                let middle = words.dropFirst(lead.count)
                for tail in [[]] + after
                where middle.count > tail.count && middle.suffix(tail.count).elementsEqual(tail) {
                    var name = middle.dropLast(tail.count)
                    while let first = name.first, articles.contains(first), name.count > 1 { name = name.dropFirst() }
                    if name.last == "app", name.count > 1 { name = name.dropLast() }
                    if let app = named(name.joined(separator: " ")) { return (app, language) }
                }
            }
        }
        return nil
    }
}
