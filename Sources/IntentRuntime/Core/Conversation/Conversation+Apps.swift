import IntentModel
import PhraseMatching

extension Conversation {
    /// An app asked for by its name or one of its synonyms, and nothing else (“open Sidebar”, “what
    /// can I do with Radar”, “öffne fortune”): there is no screen to show, so the answer is what the
    /// app is for and sentences it understands, in the language asked in. Nil for any other sentence.
    func openApp(_ text: String) -> Answer? {
        // The apps' names are folded only for a sentence whose other words ask for an app, once.
        var names: [String: String]?
        func named(_ folded: String) -> String? {
            if names == nil { names = appNames() }
            return names?[folded]
        }
        guard let (name, asked) = ConversationWords.appAsked(Normalizer.foldedWords(text), app: named),
            let app = session.graph.app(named: name)
        else { return nil }
        let language = options.language ?? asked
        let phrasebook = Phrasebook.of(language)
        let sentences = session.index.helpSentences(language: language, perApp: 3, only: app.name)
        let opened = phrasebook.opened(app.name, language == "en" ? app.description : nil)
        return Answer(
            status: .done, app: app.name, dialog: opened + " " + phrasebook.youCanSay(sentences),
            suggestions: sentences)
    }

    /// Each app's name and synonyms, folded, to the app's name.
    func appNames() -> [String: String] {
        var all: [String: String] = [:]
        for app in session.graph.apps {
            for name in [app.name] + app.synonyms {
                let key = Normalizer.foldedWords(name)
                if all[key] == nil { all[key] = app.name }
            }
        }
        return all
    }
}
