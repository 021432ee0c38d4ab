import Foundation
import IntentModel
import IntentServer
import TestSupport
import Testing

/// The console in a real browser: headless Chromium (Debian's `chromium` and `chromedriver`, which
/// `make deps` installs) against a server on a loopback port with a fresh store and two users.
/// Where the browser is not installed the tests are skipped with a message; on CI (`CI=true`) they
/// fail instead. Screenshots and the browser's timings go to `.build/console-artifacts/`.
@Suite(
    "Console in a browser", .serialized, .tags(.slow), .skippedWhenFast,
    .enabled(
        if: Browser.installed || Browser.required,
        "chromium and chromedriver are not installed (make deps installs them): the browser tests are skipped"))
struct ConsoleBrowserTests {
    static let artifacts = Bundled.root + "/.build/console-artifacts"

    /// A minute of the store's time every real second, from the bundled tests' moment: a focus
    /// block's progress visibly moves while the test watches.
    static let fastClock: Clock = {
        let start = Date()
        return Clock(timeZone: TimeZone(identifier: "UTC")!) {
            Bundled.now.addingTimeInterval(Date().timeIntervalSince(start) * 60)
        }
    }()

    /// Runs `body` with a started server and browser, signed in as `user`; stops both after.
    static func session(
        as user: String = "ann", language: String = "en-US", clock: Clock = Bundled.clock, store: String? = nil,
        _ body: (Browser, ServerHarness) async throws -> Void
    ) async throws {
        let server = try await ServerHarness.start(store: store, clock: clock)
        let browser: Browser
        do {
            browser = try await Browser.start(language: language)
        } catch {
            await server.stop(remove: true)
            if Browser.required { throw error }
            let message = "the browser could not start, so this test did not run: \(error)"
            FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
            try Test.cancel(Comment(rawValue: message))
        }
        do {
            try await browser.open("http://127.0.0.1:\(server.port)/")
            try await signIn(browser, token: server.tokens[user]!)
            try await body(browser, server)
        } catch {
            try? await browser.screenshot(to: artifacts + "/failure-\(UUID().uuidString.prefix(8)).png")
            await browser.close()
            await server.stop(remove: true)
            throw error
        }
        await browser.close()
        await server.stop(remove: true)
    }

    static func signIn(_ browser: Browser, token: String) async throws {
        try await browser.type("#token", token + "\u{E007}")
        try await browser.wait("the console after signing in", until: "!document.getElementById('console').hidden")
        try await browser.wait(
            "the Smart Stack from the event stream", until: "document.querySelectorAll('#stack .card').length > 0")
    }

    /// Says `text` with the keyboard, and waits for answer number `count` in the log.
    static func say(_ browser: Browser, _ text: String, answers count: Int) async throws -> String {
        try await browser.type("#say", text + "\u{E007}")
        try await browser.wait(
            "answer \(count) to “\(text)”", until: "document.querySelectorAll('#log li.answer').length >= \(count)")
        return try await lastAnswer(browser)
    }

    static func lastAnswer(_ browser: Browser) async throws -> String {
        try await browser.run(
            "const all = document.querySelectorAll('#log li.answer .dialog'); return all.length ? all[all.length - 1].textContent : '';"
        )
            as? String ?? ""
    }

    @Test func aConversationWithFollowUpsInTheBrowser() async throws {
        try await Self.session { (browser, server) async throws in
            var answers = 0
            func say(_ text: String) async throws -> String {
                answers += 1
                try await browser.type("#say", text + "\u{E007}")
                try await browser.wait(
                    "answer \(answers) to “\(text)”",
                    until: "document.querySelectorAll('#log li.answer').length >= \(answers)")
                return try await Self.lastAnswer(browser)
            }
            #expect(try await say("check compatibility") == "What's your zodiac sign?")
            #expect(try await say("leo") == "What's their zodiac sign?")
            #expect(
                try await say("virgo")
                    == "Leo and Virgo: 78% compatible. Different rhythms that make surprisingly good music.")
            // A follow-up: the conversation's id went with it.
            #expect(
                try await say("and libra?")
                    == "Leo and Libra: 72% compatible. Different rhythms that make surprisingly good music.")

            try await Self.recordTimings(browser, name: "conversation")
            try await browser.screenshot(to: Self.artifacts + "/console-desktop.png")
            try await browser.resize(width: 390, height: 844)
            let wide = try await browser.run("return document.documentElement.scrollWidth;") as? Int ?? 0
            let inner = try await browser.run("return window.innerWidth;") as? Int ?? 0
            #expect(wide <= inner, "at a phone's width nothing is wider than the screen (\(wide) > \(inner))")
            try await browser.screenshot(to: Self.artifacts + "/console-phone.png")
        }
    }

    @Test func aDeleteIsConfirmedWithAButtonThenUndone() async throws {
        try await Self.session { (browser, server) async throws in
            #expect(
                try await Self.say(browser, "create a radar on quantum computing", answers: 1).hasPrefix(
                    "Now tracking “quantum computing”"))
            #expect(
                try await Self.say(browser, "delete the radar on quantum computing", answers: 2).contains(
                    "quantum computing"))
            #expect(
                try await browser.run(
                    "return Array.from(document.querySelectorAll('#log li.answer')).pop().dataset.status;") as? String
                    == "needs_confirmation")
            // The question's first button has the focus: Enter on the keyboard says yes.
            try await browser.wait(
                "the focus on Yes",
                until:
                    "document.activeElement && document.activeElement.textContent === 'Yes' && document.activeElement.closest('.choices')"
            )
            try await browser.keys("\u{E007}")
            try await browser.wait(
                "the delete's answer", until: "document.querySelectorAll('#log li.answer').length >= 3")
            #expect(try await Self.lastAnswer(browser).contains("quantum computing"))

            try await browser.type("#q", "quantum\u{E007}")
            try await browser.wait(
                "no hits", until: "document.querySelector('#hits').textContent.includes('Nothing found.')")

            try await browser.click("#undo")
            try await browser.wait("undo's answer", until: "document.querySelectorAll('#log li.answer').length >= 4")
            let undone = try await Self.lastAnswer(browser)
            #expect(undone.hasPrefix("Undid Delete Radar"), "\(undone)")

            // Search finds it again, and opening the hit goes through its deep link.
            try await browser.type("#q", "\u{E007}")
            try await browser.wait(
                "the radar found again", until: "document.querySelectorAll('#hits li.hit').length > 0")
            #expect(try await browser.text("#hits li.hit code").hasPrefix("radar://open/"))
            try await browser.click("#hits li.hit button")
            try await browser.wait("the opened radar", until: "document.querySelectorAll('#log li.answer').length >= 5")
            #expect(try await Self.lastAnswer(browser) == "Opening “quantum computing”.")
        }
    }

    @Test func widgetButtonsControlsAndALiveActivity() async throws {
        try await Self.session(clock: Self.fastClock) { (browser, server) async throws in
            // The tip of the moment, as a button that says it.
            try await browser.wait("the tip", until: "document.querySelector('#tip button')")
            #expect(try await browser.text("#tip button") == "“New task in FocusBlox”")

            let card = "#stack .card[data-widget='Fortune.DailyFortune']"
            #expect(try await browser.text(card + " .content-title") == "Daily fortune")
            try await browser.click(card + " .buttons button[data-button='1']")
            try await browser.wait(
                "the card to change",
                until: "document.querySelector(\"\(card) .content-title\").textContent === 'Love fortune'")

            let focus = "#controls button[data-control='FocusBlox.Focus']"
            #expect(
                try await browser.run(
                    "return document.querySelector(arguments[0]).getAttribute('aria-checked');", [focus]) as? String
                    == "false")
            try await browser.click(focus)
            try await browser.wait(
                "the switch to turn on",
                until: "document.querySelector(\"\(focus)\").getAttribute('aria-checked') === 'true'")
            // The focus block's live activity, its progress moving through the event stream.
            let bar = "#activities li[data-activity='FocusBlox.Focus'] progress"
            try await browser.wait("the activity", until: "document.querySelector(\"\(bar)\")")
            let motion = "return getComputedStyle(document.querySelector(arguments[0])).transitionDuration;"
            #expect(try await browser.run(motion, [bar]) as? String == "0.4s")
            try await browser.reduceMotion()
            #expect(
                try await browser.run(motion, [bar]) as? String == "0s",
                "prefers-reduced-motion stops the bar's animation")
            let first =
                try await browser.run("return Number(document.querySelector(arguments[0]).value);", [bar]) as? Double
                ?? -1
            try await browser.wait(
                "the progress to move", until: "Number(document.querySelector(\"\(bar)\").value) > \(first) + 0.01")
            // And the switch turns it off again: the activity ends.
            try await browser.click(focus)
            try await browser.wait(
                "the switch to turn off",
                until: "document.querySelector(\"\(focus)\").getAttribute('aria-checked') === 'false'")
        }
    }

    @Test func aStoredScriptIsShownAsText() async throws {
        try await Self.session { (browser, server) async throws in
            let title = "buy <script>window.pwned = 1</script><img src=x onerror=\"window.pwned = 2\"> milk"
            let reply = try await server.say("add a task \(title)")
            #expect(reply["status"] as? String == "done", "\(reply)")
            try await browser.wait(
                "the task on its card",
                until: "document.querySelector('#stack').textContent.includes('<script>window.pwned')")
            #expect(try await Self.say(browser, "add a task \(title)", answers: 1).contains("<script>"))
            #expect(try await browser.run("return window.pwned === undefined;") as? Bool == true)
            #expect(
                try await browser.run(
                    "return document.querySelectorAll('#stack script, #stack img, #log script, #log img').length;")
                    as? Int == 0)
        }
    }

    @Test func oneUserNeverSeesAnothersCards() async throws {
        try await Self.session(as: "bob") { (browser, server) async throws in
            _ = try await server.say("add a task ann's secret plan", as: "ann")
            _ = try await server.say("add a task bob's own errand", as: "bob")
            try await browser.wait(
                "bob's task", until: "document.querySelector('#stack').textContent.includes(\"bob's own errand\")")
            #expect(
                try await browser.run("return document.body.textContent.includes(\"ann's secret plan\");") as? Bool
                    == false)
            // Signed out and in as Ann, the same tab shows hers, and not Bob's.
            try await browser.click("#sign-out")
            try await Self.signIn(browser, token: server.tokens["ann"]!)
            try await browser.wait(
                "ann's task", until: "document.querySelector('#stack').textContent.includes(\"ann's secret plan\")")
            #expect(
                try await browser.run("return document.body.textContent.includes(\"bob's own errand\");") as? Bool
                    == false)
            #expect(
                try await browser.run(
                    "return sessionStorage.getItem('intents.token') === arguments[0];", [server.tokens["ann"]!])
                    as? Bool == true)
            #expect(try await browser.run("return location.href;") as? String == "http://127.0.0.1:\(server.port)/")
        }
    }

    /// The same page over the PostgreSQL store: a conversation, a widget's button, and the card
    /// changing through the event stream.
    @Test func overPostgreSQL() async throws {
        let store = try PostgresCluster.freshStore("console")
        try await Self.session(store: store) { (browser, server) async throws in
            #expect(try await Self.say(browser, "check compatibility", answers: 1) == "What's your zodiac sign?")
            #expect(try await Self.say(browser, "leo", answers: 2) == "What's their zodiac sign?")
            let card = "#stack .card[data-widget='Fortune.DailyFortune']"
            #expect(try await browser.text(card + " .content-title") == "Daily fortune")
            try await browser.click(card + " .buttons button[data-button='1']")
            try await browser.wait(
                "the card to change",
                until: "document.querySelector(\"\(card) .content-title\").textContent === 'Love fortune'")
        }
    }

    @Test func germanWhenTheBrowserAsksForIt() async throws {
        try await Self.session(language: "de-DE") { (browser, server) async throws in
            #expect(try await browser.run("return document.documentElement.lang;") as? String == "de")
            #expect(try await browser.text("#chat-heading") == "Unterhaltung")
            #expect(
                try await Self.say(browser, "füge eine Aufgabe Milch kaufen hinzu", answers: 1)
                    == "„Milch kaufen“ hinzugefügt.")
        }
    }

    /// The page's first paint after its bytes arrived, and each answer's appearance after its reply,
    /// as the browser measured them; written beside the screenshots. The page is loaded once more
    /// (signed in from the tab's session storage) for the render time of a browser already running.
    static func recordTimings(_ browser: Browser, name: String) async throws {
        let paint = """
            const nav = performance.getEntriesByType('navigation')[0];
            const paint = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint');
            const css = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/console.css'));
            return { firstRender: paint ? paint.startTime - nav.responseEnd : -1, htmlResponseEnd: nav.responseEnd,
                     cssResponseEnd: css ? css.responseEnd : -1, domContentLoaded: nav.domContentLoadedEventEnd,
                     answers: window.intentsConsole.timings.map((t) => t.ms) };
            """
        var figures = try await browser.run(paint) as? [String: Any] ?? [:]
        try await browser.run("location.reload();")
        try await browser.wait(
            "the page again",
            until:
                "document.readyState === 'complete' && performance.getEntriesByType('paint').length > 0 && !document.getElementById('console').hidden"
        )
        let again = try await browser.run(paint) as? [String: Any] ?? [:]
        figures["reloaded"] = again.filter { $0.key != "answers" }
        let data = try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys])
        try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: artifacts + "/timings-\(name).json"))
        print("console timings (\(name)): \(String(decoding: data, as: UTF8.self))")
        let answers = figures["answers"] as? [Double] ?? []
        #expect(answers.count == 4)
    }
}
