import ArgumentParser
import Foundation
import IntentEngine
import IntentLanguage
import IntentModel
import IntentRuntime
import ModelStore

struct Say: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "say",
        abstract: "Say one phrase and get one answer.",
        discussion: """
            With no phrase, phrases are read from standard input, one per line, each answered in turn \
            (as `batch` does). On a terminal, follow-up questions
            are asked inline; otherwise a missing value is answered with status needs_value and its prompt.
            Exit status: 0 for an answer (done, or a question left open), 1 when nothing matched, the \
            intent failed or the definitions or the store cannot be used, 2 for input that is not a \
            phrase (empty, too long, not text, control characters) or a --lang no app declares \
            (intents help exit-codes).
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storeOptions: StoreOptions

    @Flag(help: "Print the answer as one JSON object.")
    var json = false

    @Flag(help: "Resolve everything but execute nothing.")
    var dryRun = false

    @Flag(help: "Confirm without asking (deletes and intents with confirm:).")
    var yes = false

    @Option(help: "Only phrases of this language (en, de, …).")
    var lang: String?

    @Option(
        name: .customLong("context"),
        help: ArgumentHelp(
            "Where the request comes from, as name=value (area=Kitchen): parameters that declare context: take it when the phrase does not say them. Repeatable.",
            valueName: "name=value"))
    var contexts: [String] = []

    @Argument(help: "The phrase, as a person would type it.")
    var phrase: [String] = []

    static let maximumBytes = 2_000

    @Option(
        help: ArgumentHelp(
            "Carry this conversation on (a follow-up, or the answer to its question); the id is yours to choose.",
            valueName: "id"))
    var conversation: String?

    func run() throws {
        // Piped phrases are read a line at a time as they come (`yes … | say` answers each line),
        // each line refused at the phrase's limit; the first is read before the store is opened.
        var input = PipedPhrases(reading: phrase.isEmpty && isatty(STDIN_FILENO) == 0)
        let first = input == nil ? try Self.phraseText(phrase) : try input?.next()
        guard let first else {
            if input?.refused == true { throw ExitCode(2) }
            throw Self.usage("nothing to say: give a phrase, e.g. intents say \"add buy milk to my tasks\"")
        }
        let engine = try storeOptions.engine(global, dryRun: dryRun)
        try GlobalOptions.checkLanguage(lang, in: engine.graph)
        let request = EngineRequest(
            conversation: conversation.map(ConversationID.init) ?? .make(), language: lang,
            context: try RequestContext.parse(contexts), dryRun: dryRun, confirmAll: yes,
            // Kept in the store only when it has a name to be carried on by.
            kept: conversation != nil)
        var failed = try answer(first, engine, request)
        while let text = try input?.next() {
            // A question one line left open is not answered by the next line: that is a phrase of its own.
            // The last one stays open (and saved, for `intents continue`).
            engine.cancel(request)
            failed = try answer(text, engine, request) || failed
        }
        if let note = engine.session.learned?.origin?.note(cacheFile: engine.session.learned?.cacheFile) {
            Terminal.standardError(note)
        }
        // The process ends here: freeing the graph, the phrase index and the learned model object by
        // object takes time the answer does not need (5 % of a cold `say` over 5,000 templates).
        _ = Unmanaged.passRetained(engine)
        if input?.refused == true { throw ExitCode(2) }
        if failed { throw ExitCode(1) }
    }

    /// The phrases piped into `say`, one a line, read as they come: a line over the phrase's limit
    /// or holding control characters is refused with a message and the next one read; input that
    /// is not text (not UTF-8, a NUL byte: `say < /dev/zero`) ends the reading.
    struct PipedPhrases {
        private var lines = InputLines(maximumLine: Say.maximumBytes)
        /// Whether a line was refused (the exit status is then 2).
        private(set) var refused = false

        init?(reading: Bool) {
            guard reading else { return nil }
        }

        mutating func next() throws -> String? {
            while let line = lines.next() {
                switch line {
                case .text(let text, _):
                    guard !text.trimmed.isEmpty else { continue }
                    do { return try Say.phraseText([text]) } catch is ExitCode { refuse() }
                case .tooLong(let number):
                    Terminal.standardError(
                        "error: line \(number) is longer than \(Say.maximumBytes) bytes; one phrase is at most \(Say.maximumBytes) bytes\n"
                    )
                    refuse()
                case .notText(let number):
                    Terminal.standardError("error: the input is not UTF-8 text (line \(number))\n")
                    refuse()
                    return nil
                }
            }
            if case .nul(let line)? = lines.stopped {
                Terminal.standardError("error: the input is not UTF-8 text (line \(line) holds a NUL byte)\n")
                refuse()
            }
            return nil
        }

        /// A line refused: with `--json` its error envelope stands where its answer would.
        private mutating func refuse() {
            refused = true
            JSONEnvelope.writeNotedError(code: "usage")
        }
    }

    /// Answers one phrase (asking follow-ups at a terminal) and prints the answer; true when the intent
    /// or the store failed.
    private func answer(_ text: String, _ engine: IntentEngine, _ request: EngineRequest) throws -> Bool {
        // Follow-up questions are asked inline only for a phrase given as arguments: stdin holds the phrases.
        let answer = try Conversing.answer(
            engine.respond(to: text, request), in: engine, request, json: json, inline: !phrase.isEmpty)
        // Nothing matched is "not done", as `batch` counts it and as grep exits 1 (see `ExitStatus`).
        return answer.storeFailure || answer.status == .error || answer.status == .noMatch
    }

    /// The phrase from the arguments (or a piped line), checked: text, not empty, not too long.
    static func phraseText(_ arguments: [String]) throws -> String {
        var text = arguments.joined(separator: " ")
        // C0, DEL and C1 alike (a lone U+009B is a CSI): not a phrase, a usage error like any other.
        if let control = text.unicodeScalars.first(where: { ControlCharacters.isForbidden($0) && $0 != "\r" }) {
            throw usage(
                "the input holds control characters (\(ControlCharacters.name(control))); it does not look like a phrase"
            )
        }
        text = text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmed
        guard !text.isEmpty else {
            throw usage("nothing to say: give a phrase, e.g. intents say \"add buy milk to my tasks\"")
        }
        guard text.utf8.count <= maximumBytes else {
            throw usage("the phrase is \(text.utf8.count) bytes; one phrase is at most \(maximumBytes) bytes")
        }
        return text
    }

    static func usage(_ message: String) -> ExitCode {
        Terminal.standardError("error: \(message)\n")
        return ExitCode(2)
    }
}

struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo", abstract: "Revert the last executed intent that changed the store.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storeOptions: StoreOptions

    @Flag(help: "Print what was undone as one JSON object ({\"dialog\": …}, as the server's /v1/undo).")
    var json = false

    func run() throws {
        let engine = try storeOptions.engine(global)
        do {
            let dialog = try engine.undo()
            if json {
                JSONEnvelope.write(JSONValue.object(["dialog": .string(dialog)]))
            } else {
                print(dialog)
            }
        } catch {
            Terminal.standardError("error: \(error)\n")
            throw ExitCode(1)
        }
    }
}
