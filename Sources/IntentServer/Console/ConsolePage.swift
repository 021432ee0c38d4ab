import Foundation
import IntentModel

/// The console's page: the skeleton in the browser's language; the script fills it in. Nothing in
/// it comes from a store (those strings are set as text by the script), and it has no inline script
/// or style, so the Content-Security-Policy can forbid both.
enum ConsolePage {
    static let scriptPath = "/console.js"
    static let stylePath = "/console.css"

    static func html(_ language: String) -> String {
        let text = ConsoleText.table(language)
        func t(_ key: String) -> String { escape(text[key] ?? key) }
        let words = escape(JSONText.compact(JSONValue.object(text.mapValues(JSONValue.string))))
        return """
            <!doctype html>
            <html lang="\(escape(language))">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <meta name="console-text" content="\(words)">
            <title>\(t("title"))</title>
            <link rel="stylesheet" href="\(stylePath)">
            <script src="\(scriptPath)" defer></script>
            </head>
            <body>
            <a class="skip" href="#say">\(t("skip"))</a>
            <header class="bar">
              <h1>\(t("title"))</h1>
              <div id="account" hidden>
                <span id="live-status" role="status"></span>
                <button type="button" id="undo">\(t("undo"))</button>
                <button type="button" id="sign-out">\(t("signOut"))</button>
              </div>
            </header>
            <main>
              <section id="sign-in" aria-labelledby="sign-in-heading">
                <h2 id="sign-in-heading">\(t("signInHeading"))</h2>
                <form id="sign-in-form" method="post" action="/" autocomplete="off">
                  <p id="sign-in-help">\(t("signInHelp"))</p>
                  <label for="token">\(t("tokenLabel"))</label>
                  <div class="row">
                    <input id="token" name="token" type="password" autocomplete="off" spellcheck="false" required aria-describedby="sign-in-help sign-in-error">
                    <button type="submit">\(t("signIn"))</button>
                  </div>
                  <p id="sign-in-error" class="error" role="alert"></p>
                </form>
              </section>
              <div id="console" hidden>
                <div class="column main-column">
                  <section id="chat" aria-labelledby="chat-heading">
                    <h2 id="chat-heading">\(t("chatHeading"))</h2>
                    <ol id="log" aria-live="polite" aria-relevant="additions"></ol>
                    <form id="say-form" method="post" action="/" autocomplete="off">
                      <label for="say">\(t("sayLabel"))</label>
                      <div class="row">
                        <input id="say" name="say" type="text" maxlength="2000" required placeholder="\(t("sayPlaceholder"))">
                        <button type="submit">\(t("send"))</button>
                      </div>
                      <button type="button" id="new-conversation" class="quiet">\(t("newConversation"))</button>
                    </form>
                  </section>
                  <section id="presence" aria-labelledby="presence-heading">
                    <h2 id="presence-heading">\(t("presenceHeading"))</h2>
                    <p id="tip" hidden></p>
                    <ul id="suggestions" class="chips"></ul>
                  </section>
                  <section id="search" aria-labelledby="search-heading">
                    <h2 id="search-heading">\(t("searchHeading"))</h2>
                    <form id="search-form" role="search" method="post" action="/" autocomplete="off">
                      <label for="q">\(t("searchLabel"))</label>
                      <div class="row">
                        <input id="q" name="q" type="search" maxlength="2000" required>
                        <button type="submit">\(t("searchButton"))</button>
                      </div>
                    </form>
                    <ul id="hits" aria-live="polite"></ul>
                  </section>
                </div>
                <div class="column side-column">
                  <section id="stack-section" aria-labelledby="stack-heading">
                    <h2 id="stack-heading">\(t("stackHeading"))</h2>
                    <div id="stack"></div>
                  </section>
                  <section id="controls-section" aria-labelledby="controls-heading">
                    <h2 id="controls-heading">\(t("controlsHeading"))</h2>
                    <ul id="controls"></ul>
                  </section>
                  <section id="activities-section" aria-labelledby="activities-heading">
                    <h2 id="activities-heading">\(t("activitiesHeading"))</h2>
                    <ul id="activities"></ul>
                  </section>
                </div>
              </div>
            </main>
            </body>
            </html>

            """
    }

    /// Text for HTML, in an element or a quoted attribute.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
