import IntentModel

/// What the conversation says by itself (not from the definitions), per language: English and
/// German. A request in German is answered in German; anything else in English.
struct Phrasebook: Sendable {
    var notFound: @Sendable (_ entity: IntentGraph.Entity?, _ name: String) -> String
    var moreThanOne: @Sendable (_ entity: IntentGraph.Entity?, _ name: String) -> String
    var nothingToChoose: @Sendable (_ entity: IntentGraph.Entity?) -> String
    var whatIs: @Sendable (_ title: String) -> String
    var whichOne: String
    var yesNo: String
    var pleaseAnswerYesOrNo: String
    var didNotGetThat: String
    var cancelled: String
    var nothingToUndo: String
    var undid: @Sendable (_ title: String, _ dialog: String, _ changes: Int) -> String
    /// Nothing understood, with the closest sentences people say (none: no suggestion).
    var notUnderstood: @Sendable (_ suggestions: [String]) -> String
    /// A guess of the learned stage asked about: "Did you mean: Create Task in FocusBlox?".
    var didYouMean: @Sendable (_ guess: String) -> String
    /// The same, said as a sentence of the intent's phrases: "Did you mean “Add a task …”?".
    var didYouMeanSaying: @Sendable (_ sentence: String) -> String
    /// What can be said, asked for with “help” or “what can you do”.
    var youCanSay: @Sendable (_ sentences: [String]) -> String
    /// An app opened by name: what it is, before what can be said to it.
    var opened: @Sendable (_ app: String, _ description: String?) -> String
    /// "search for milk": what was found (titles with their type, as the language names it, and
    /// app), or that nothing was.
    var found: @Sendable (_ query: String, _ hits: [(title: String, type: String, app: String)]) -> String

    static let english = Phrasebook(
        notFound: { entity, name in
            "I couldn't find \(entity?.indefinite ?? "anything") called “\(name)”."
        },
        moreThanOne: { entity, name in "More than one \(entity?.noun ?? "record") matches “\(name)”." },
        nothingToChoose: { entity in
            "There are no \(entity?.plural ?? "records") yet, so there is nothing to choose."
        },
        whatIs: { title in "What's the \(title)?" },
        whichOne: "Which one?", yesNo: "(yes/no)", pleaseAnswerYesOrNo: "Please answer yes or no.",
        didNotGetThat: "I didn't get that.", cancelled: "Cancelled. Nothing was changed.",
        nothingToUndo: "There is nothing to undo.",
        undid: { title, dialog, changes in
            "Undid \(title): \(dialog) (\(changes) change\(changes == 1 ? "" : "s") reverted)"
        },
        notUnderstood: { suggestions in
            "Sorry, I don't know how to do that."
                + (suggestions.isEmpty ? "" : " Did you mean " + quoted(suggestions, "“", "”", or: "or") + "?")
        },
        didYouMean: { guess in "Did you mean: \(guess)?" },
        didYouMeanSaying: { sentence in "Did you mean “\(sentence)”?" },
        youCanSay: { sentences in
            sentences.isEmpty
                ? "There is nothing to ask yet: no app is loaded."
                : "You can say, for example, " + quoted(sentences, "“", "”", or: "or") + "."
        },
        opened: { app, description in "Opened \(app)." + (description.map { " " + $0 } ?? "") },
        found: { query, hits in
            hits.isEmpty
                ? "Nothing found for “\(query)”."
                : "Found \(hits.count) for “\(query)”: "
                    + quoted(hits.map { "\($0.title)” (\($0.type) in \($0.app))" }, "“", "", or: "and")
                    + "."
        })

    static let german = Phrasebook(
        notFound: { _, name in "Ich habe „\(name)“ nicht gefunden." },
        moreThanOne: { _, name in "Mehr als eins passt zu „\(name)“." },
        nothingToChoose: { _ in "Es gibt noch keine Einträge, also nichts zur Auswahl." },
        whatIs: { title in "Was ist \(title)?" },
        whichOne: "Welches davon?", yesNo: "(ja/nein)", pleaseAnswerYesOrNo: "Bitte mit ja oder nein antworten.",
        didNotGetThat: "Das habe ich nicht verstanden.", cancelled: "Abgebrochen. Nichts wurde geändert.",
        nothingToUndo: "Es gibt nichts rückgängig zu machen.",
        undid: { title, dialog, changes in
            "Rückgängig gemacht: \(title): \(dialog) (\(changes) Änderung\(changes == 1 ? "" : "en") zurückgenommen)"
        },
        notUnderstood: { suggestions in
            "Das kann ich leider nicht."
                + (suggestions.isEmpty ? "" : " Meintest du " + quoted(suggestions, "„", "“", or: "oder") + "?")
        },
        didYouMean: { guess in "Meintest du: \(guess)?" },
        didYouMeanSaying: { sentence in "Meintest du „\(sentence)“?" },
        youCanSay: { sentences in
            sentences.isEmpty
                ? "Noch gibt es nichts zu fragen: keine App ist geladen."
                : "Du kannst zum Beispiel " + quoted(sentences, "„", "“", or: "oder") + " sagen."
        },
        opened: { app, _ in "\(app) geöffnet." },
        found: { query, hits in
            hits.isEmpty
                ? "Nichts gefunden für „\(query)“."
                : "\(hits.count) Treffer für „\(query)“: "
                    + quoted(hits.map { "\($0.title)“ (\($0.type) in \($0.app))" }, "„", "", or: "und") + "."
        })

    /// "“a”, “b” or “c”".
    private static func quoted(_ items: [String], _ open: String, _ close: String, or: String) -> String {
        let quoted = items.map { open + $0 + close }
        guard quoted.count > 1 else { return quoted.joined() }
        return quoted.dropLast().joined(separator: ", ") + " \(or) " + quoted.last!
    }

    /// The phrasebook for `language` (`de`, else English).
    static func of(_ language: String?) -> Phrasebook {
        language == "de" ? .german : .english
    }
}

extension IntentGraph.Parameter {
    /// The prompt in `language`, else the default one.
    func prompt(in language: String?) -> String? {
        language.flatMap { prompts[$0] } ?? prompt
    }
}

extension IntentGraph.Validation {
    /// The message in `language`, else the default one.
    func message(in language: String?) -> String {
        language.flatMap { messages[$0] } ?? message
    }
}
