import ArgumentParser
import Foundation
import IntentEngine
import IntentLanguage
import IntentModel
import IntentRuntime
import ModelStore

struct Repl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Talk to your apps at a prompt (the default command).",
        discussion: """
            Type phrases as you would say them; questions are asked inline. Commands start with ':' — \
            :help, :explain PHRASE, :intents, :list ENTITY, :undo, :quit. Ctrl-C cancels a question, \
            Ctrl-D leaves. With no terminal, lines are read from standard input and echoed after the prompt.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "Only phrases of this language (en, de, …).")
    var lang: String?

    static let commands =
        [
            ":help", ":explain ", ":intents", ":list ", ":undo", ":quit", ":widgets", ":controls", ":control ",
            ":activities",
        ]
        + ReplPresence.commands + ReplContext.commands

    func run() throws {
        let engine = try storeOptions.engine(global)
        let session = engine.session
        try GlobalOptions.checkLanguage(lang, in: session.graph)
        // One conversation for the session, kept in the store like any other.
        var request = EngineRequest(conversation: .make(), language: lang)
        var waiting = false
        let presence = ReplPresence(session: session, language: lang)
        let interactive = isatty(STDIN_FILENO) != 0
        var editor: LineEditor?
        if interactive {
            editor = LineEditor(
                historyPath: PathText.appending(storeOptions.cacheDirectory, "history"),
                candidates: LineEditor.completions(phrases: session.index.completions, commands: Self.commands))
            let slots = SlotCompleter(session: session)
            LineEditor.valueCompletions = { slots.completions(for: $0) }
            let intents = session.graph.intents.count
            print(
                "intents — \(session.graph.apps.count) apps, \(intents) intents; store \(storeOptions.path). Type :help for help, Ctrl-D to leave."
            )
        }
        if let shown = presence.atStart() { print(shown) }
        var failures = 0
        while true {
            // A running live activity sits in front of the prompt, as in the Dynamic Island.
            let island = waiting ? "" : activityIsland(session)
            let prompt = waiting ? "  › " : island.isEmpty ? "› " : island + " › "
            let line: String
            if let editor {
                switch editor.read(prompt: prompt, remember: !waiting) {
                case .line(let text): line = text
                case .interrupted:
                    if waiting, let cancelled = engine.cancel(request) { print(cancelled.text) }
                    waiting = false
                    continue
                case .end:
                    if waiting, let cancelled = engine.cancel(request) { print(cancelled.text) }
                    print("")
                    return
                }
            } else {
                guard let text = readLine() else {
                    if waiting, let cancelled = engine.cancel(request) { print(cancelled.text) }
                    break
                }
                line = text
                print(prompt + text)
            }
            let trimmed = line.trimmed
            if trimmed.isEmpty, !waiting { continue }
            if let shown = presence.handle(trimmed, waiting: waiting, engine: engine, request: request) {
                print(shown)
                waiting = isWaiting(engine, request)
                continue
            }
            if let shown = ReplContext.handle(trimmed, request: &request) {
                print(shown)
                continue
            }
            // Commands work at any time; a question stays open across them.
            if trimmed.hasPrefix(":") {
                if !command(trimmed, engine: engine, request: request) { break }
                continue
            }
            let answer = engine.respond(to: trimmed, request)
            waiting = answer.isQuestion
            print(answer.text)
            if let shown = presence.after(answer) { print(shown) }
            fflush(nil)  // a piped prompt shows each answer as it comes (another process may be waiting on it)
            if answer.storeFailure { failures += 1 }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// Runs a `:command`; false means leave.
    private func command(_ text: String, engine: IntentEngine, request: EngineRequest) -> Bool {
        let session = engine.session
        let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
        let argument = parts.count > 1 ? parts[1].trimmed : ""
        switch parts[0] {
        case ":quit", ":q", ":exit":
            return false
        case ":help", ":h", ":?":
            let examples = session.index.completions.prefix(6).map { "  \($0)" }.joined(separator: "\n")
            print(
                """
                Say what you want to do, for example:
                \(examples)
                Commands:
                  :explain PHRASE   how a phrase is matched: candidates, slots, scores
                  :intents          every intent, with a phrase for each
                  :list ENTITY      what the store holds, e.g. :list Task
                  :undo             revert the last intent that changed something
                \(ReplPresence.help)
                \(ReplContext.help)
                  :widgets [FAMILY] the Smart Stack: every widget, most relevant first
                  :controls         Control Center; :control NAME [on|off|toggle] runs one
                  :activities       live activities: progress, countdown and state
                  :quit             leave (or Ctrl-D); Ctrl-C cancels a question
                """)
        case ":explain":
            guard !argument.isEmpty else {
                print("Usage: :explain PHRASE")
                break
            }
            print(
                ExplainRenderer.render(
                    session.matcher(clock: session.clock).recognize(argument, language: lang), top: 3), terminator: "")
            // In this conversation the sentence may be a follow-up of the last request.
            if let followUp = engine.explainFollowUp(argument, request) { print(followUp) }
        case ":intents":
            for app in session.graph.apps {
                print(app.name)
                for intent in app.intents {
                    let phrase =
                        intent.phrases.first.map {
                            "  — “\(IntentGraph.speak($0.template, appName: app.name, rules: app.rules))”"
                        } ?? ""
                    print("  \(intent.title)\(phrase)")
                }
            }
        case ":list":
            let found = session.graph.entities(named: argument)
            guard found.count == 1, let entity = found.first else {
                print("Usage: :list ENTITY (one of \(session.graph.entities.map(\.name.name).joined(separator: ", ")))")
                break
            }
            do {
                let items = try Listing.records(of: entity, where: nil, graph: session.graph, store: session.store)
                print(
                    items.isEmpty
                        ? "No \(entity.name.name.lowercased()) records." : items.map(\.line).joined(separator: "\n"))
            } catch {
                print("error: \(error)")
            }
        case ":undo":
            do { print(try engine.undo(language: lang)) } catch { print("error: \(error)") }
        case ":widgets", ":controls", ":control", ":activities":
            surfaceCommand(parts[0], argument, session: session)
        default:
            let known = [
                "quit", "help", "explain", "intents", "list", "undo", "widgets", "controls", "control", "activities",
            ]
            let suggestion =
                EditDistance.closest(to: String(parts[0].dropFirst()), in: known).map { " Did you mean :\($0)?" } ?? ""
            print("Unknown command \(parts[0]).\(suggestion) Type :help for the commands.")
        }
        return true
    }

    /// Whether the conversation waits for an answer (a store that cannot be read says so, and waits not).
    private func isWaiting(_ engine: IntentEngine, _ request: EngineRequest) -> Bool {
        do {
            return try engine.isWaiting(request)
        } catch {
            print("error: \(error)")
            return false
        }
    }
}
