import Foundation

/// The console's own words in the languages it speaks. The page is drawn in the browser's language
/// (`Accept-Language`), and asks for answers in it, as the command line's `--lang` does.
enum ConsoleText {
    static let languages = ["en", "de"]

    /// The first language the browser accepts that the console speaks (by `q`, then order); English
    /// when it names none of them.
    static func language(acceptLanguage header: String?) -> String {
        guard let header, header.utf8.count <= 1_000 else { return "en" }
        var ranked: [(language: String, q: Double, order: Int)] = []
        for (order, part) in header.split(separator: ",").enumerated() {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first, !tag.isEmpty else { continue }
            var q = 1.0
            for parameter in pieces.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                q = Double(parameter.dropFirst(2)) ?? 0
            }
            let primary = tag.split(separator: "-").first.map { $0.lowercased() } ?? ""
            if q > 0, languages.contains(primary) { ranked.append((primary, q, order)) }
        }
        return ranked.sorted { $0.q != $1.q ? $0.q > $1.q : $0.order < $1.order }.first?.language ?? "en"
    }

    /// Every label, by key, in `language`.
    static func table(_ language: String) -> [String: String] {
        var table: [String: String] = [:]
        for (key, words) in entries { table[key] = language == "de" ? words.de : words.en }
        table["lang"] = language
        return table
    }

    static let entries: [String: (en: String, de: String)] = [
        "title": ("Intents console", "Intents-Konsole"),
        "skip": ("Skip to the conversation", "Zur Unterhaltung springen"),
        "signInHeading": ("Sign in", "Anmelden"),
        "signInHelp": (
            "Paste the token that “intents users add NAME” printed. It stays in this tab only.",
            "Füge das Token ein, das „intents users add NAME“ ausgegeben hat. Es bleibt nur in diesem Tab."
        ),
        "tokenLabel": ("Token", "Token"),
        "signIn": ("Sign in", "Anmelden"),
        "signOut": ("Sign out", "Abmelden"),
        "badToken": ("This server does not know that token.", "Dieses Token kennt der Server nicht."),
        "signedInAs": ("Signed in", "Angemeldet"),
        "chatHeading": ("Conversation", "Unterhaltung"),
        "sayLabel": ("Say something", "Sag etwas"),
        "sayPlaceholder": ("add a task buy milk", "füge eine Aufgabe Milch kaufen hinzu"),
        "send": ("Send", "Senden"),
        "newConversation": ("New conversation", "Neue Unterhaltung"),
        "undo": ("Undo", "Rückgängig"),
        "you": ("You", "Du"),
        "assistant": ("Answer", "Antwort"),
        "yes": ("Yes", "Ja"),
        "no": ("No", "Nein"),
        "yesWord": ("yes", "ja"),
        "noWord": ("no", "nein"),
        "opens": ("Opens", "Öffnet"),
        "presenceHeading": ("Suggestions", "Vorschläge"),
        "tip": ("Tip: say", "Tipp: sag"),
        "noSuggestions": ("No suggestions yet.", "Noch keine Vorschläge."),
        "searchHeading": ("Search", "Suche"),
        "searchLabel": ("Search your apps", "In deinen Apps suchen"),
        "searchButton": ("Search", "Suchen"),
        "noHits": ("Nothing found.", "Nichts gefunden."),
        "open": ("Open", "Öffnen"),
        "stackHeading": ("Smart Stack", "Smart Stack"),
        "controlsHeading": ("Controls", "Steuerelemente"),
        "noControls": ("No controls.", "Keine Steuerelemente."),
        "activitiesHeading": ("Live activities", "Live-Aktivitäten"),
        "noActivities": ("Nothing is running.", "Gerade läuft nichts."),
        "progress": ("Progress", "Fortschritt"),
        "remaining": ("s left", "s übrig"),
        "live": ("Live", "Live"),
        "reconnecting": ("Reconnecting…", "Verbinde neu…"),
        "unreachable": ("The server could not be reached.", "Der Server ist nicht erreichbar."),
        "on": ("On", "An"),
        "off": ("Off", "Aus"),
        "ended": ("ended", "beendet"),
        "stale": ("stale", "veraltet"),
    ]
}
