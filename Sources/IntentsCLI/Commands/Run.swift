import ArgumentParser
import Foundation
import IntentEngine
import IntentLanguage
import IntentModel
import IntentProject
import IntentRendering
import IntentRuntime
import ModelStore
import YAML

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a shortcut file: its steps in order, each intent in its own transaction.",
        discussion: """
            The file is checked against the definitions first; nothing runs if it has errors. Questions \
            (inputs without a default, missing values, confirmations, ask: and choose: steps) are answered \
            from --input, then --answers (one answer per line, in order), then at the terminal; with none \
            of these the run stops with a message naming the step. Exit status 0 when the run finishes or \
            stops, 1 when the file has errors or a step fails.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The shortcut file, e.g. Shortcuts/morning-review.yaml.")
    var file: String

    @Option(
        name: .customLong("input"), help: ArgumentHelp("An input's value (repeatable).", valueName: "name=value"),
        completion: ShellCompletion.shortcutInputs)
    var inputs: [String] = []

    @Option(
        help: ArgumentHelp(
            "Answers to the run's questions, one per line, in order (- for standard input).", valueName: "file"))
    var answers: String?

    @Flag(help: "Print the output and a log of the steps as one JSON object.")
    var json = false

    @Flag(help: "Resolve every step but execute no intent.")
    var dryRun = false

    @Flag(help: "Run the whole shortcut as one transaction: all of it lands, or none of it.")
    var atomic = false

    @Option(help: "Most steps the run may take.")
    var maxSteps = 1_000_000

    @Flag(help: "Confirm deletes and intents with confirm: without asking.")
    var yes = false

    @Flag(help: "Let run: steps read shortcut files outside the file's folder and the definitions' Shortcuts folder.")
    var runAnywhere = false

    func validate() throws {
        guard maxSteps >= 1 else { throw ValidationError("--max-steps must be at least 1, not \(maxSteps)") }
    }

    func run() throws {
        var options = ShortcutRunner.Options()
        options.dryRun = dryRun
        options.atomic = atomic
        options.stepLimit = maxSteps
        options.confirmAll = yes
        // The same check and exit status as batch: a file that is not there is a usage error.
        guard FileManager.default.isReadableFile(atPath: file) else {
            Terminal.standardError("error: cannot read \(file)\n")
            throw ExitCode(2)
        }
        for input in inputs {
            guard let equals = input.firstIndex(of: "="), equals != input.startIndex else {
                Terminal.standardError("error: --input takes name=value, not '\(input)'\n")
                throw ExitCode(2)
            }
            options.inputs[String(input[..<equals])] = String(input[input.index(after: equals)...])
            if let problem = ControlCharacters.problem(in: input, what: "--input \(input[..<equals])") {
                Terminal.standardError("error: \(problem)\n")
                throw ExitCode(2)
            }
        }
        if let answers { options.answers = try AnswersFile.read(answers) }
        // Checked before the store is opened: a file with errors touches nothing.
        let engine = try storeOptions.engine(
            global, shortcuts: .files([file]), runAnywhere: runAnywhere, dryRun: dryRun)
        let project = engine.project
        guard let shortcut = project.shortcut(at: file) else { throw ExitCode(1) }
        let session = engine.session
        let interactive = !json && isatty(STDIN_FILENO) != 0
        let prompt: ((String, [String]) -> String?)? =
            interactive
            ? { question, choices in
                print(question)
                for (number, choice) in choices.enumerated() { print("  \(number + 1). \(choice)") }
                print("  › ", terminator: "")
                fflush(nil)
                return readLine()
            } : nil
        let runner = ShortcutRunner(session: session, shortcuts: project.shortcuts, options: options, prompt: prompt) {
            event in
            if !json { print(event.text) }
        }
        let result = runner.run(shortcut)
        if json {
            try JSONEnvelope.write(result.json(shortcut: shortcut.name))
        }
        if case .failed(let failure) = result.ending {
            var collector = DiagnosticCollector()
            collector.error(
                // The message may quote stored text: escaped like everything printed.
                Diagnostic.Message(
                    ControlCharacters.escaped(failure.message)
                        + (atomic && !dryRun ? " (the whole run was rolled back)" : "")),
                at: failure.location,
                notes: failure.calledFrom.map { Diagnostic.Note("in the shortcut run from here", at: $0) })
            let printer = DiagnosticPrinter(sources: project.sources, colored: Terminal.stderrIsTerminal)
            Terminal.standardError(raw: printer.render(collector.diagnostics))
            throw ExitCode(1)
        }
    }
}

struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Say every line of a file, one phrase per line; end with 'N done, N failed'.",
        discussion: """
            Blank lines and lines starting with # are skipped. Each phrase is its own transaction: a failed \
            one changes nothing and the next one runs (--stop-on-error stops there; with --atomic the whole \
            file is one transaction, rolled back when any phrase fails). A phrase that asks a question is \
            answered from --answers (one answer per line, in order), else it fails (with --yes \
            confirmations are answered). On a terminal, long files show a progress bar instead of every \
            answer. Exit status 1 when any phrase failed, 2 when the file cannot be read.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "A text file with one phrase per line (- for standard input).")
    var file: String

    @Flag(help: "Confirm deletes and intents with confirm: without asking.")
    var yes = false

    @Flag(help: "Stop at the first phrase that fails.")
    var stopOnError = false

    @Option(help: "Only phrases of this language (en, de, …).")
    var lang: String?

    @Option(
        help: ArgumentHelp(
            "Answers to the phrases' questions, one per line, in order (- for standard input).", valueName: "file"))
    var answers: String?

    @Flag(help: "Resolve every phrase but execute none.")
    var dryRun = false

    @Flag(help: "Run the whole file as one transaction: all of it lands, or none of it.")
    var atomic = false

    @Flag(help: "Print every answer and the counts as one JSON object.")
    var json = false

    private struct RolledBack: Error {}

    /// Largest batch file (16 MB): read a line at a time, refused as it grows past this.
    static let maximumBytes = 16 << 20

    func run() throws {
        // Read a line at a time, each checked at the phrase's limit as it arrives, the whole at
        // `maximumBytes`: a 5 GB line or an endless pipe is refused, never held in memory.
        var input =
            file == "-"
            ? InputLines(maximumLine: Say.maximumBytes, maximumTotal: Self.maximumBytes)
            : InputLines(path: file, maximumLine: Say.maximumBytes, maximumTotal: Self.maximumBytes)
        guard input != nil else {
            Terminal.standardError("error: cannot read \(file)\n")
            throw ExitCode(2)
        }
        var lines: [(number: Int, phrase: String)] = []
        var refused = false
        while let line = input?.next() {
            switch line {
            case .text(let text, let number):
                let phrase = text.trimmed
                if !phrase.isEmpty && !phrase.hasPrefix("#") { lines.append((number, phrase)) }
            case .tooLong(let number):
                Terminal.standardError(
                    "\(file):\(number): error: the line is longer than \(Say.maximumBytes) bytes; one phrase is at most \(Say.maximumBytes) bytes\n"
                )
                refused = true
            case .notText:
                refused = true
                input = nil
            }
        }
        switch input?.stopped {
        case .tooMuch?:
            Terminal.standardError(
                "error: \(file) is more than \(Self.maximumBytes >> 20) MB; a batch is at most that (split it)\n")
            throw ExitCode(2)
        case .nul?, nil:
            if input == nil || input?.stopped != nil {
                Terminal.standardError("error: \(file) is not UTF-8 text\n")
                throw ExitCode(2)
            }
        }
        if refused { throw ExitCode(2) }
        var replies = try answers.map(AnswersFile.read)?[...] ?? []
        // Many phrases in one conversation of the runtime's, without keeping it between lines in the
        // store (a batch is one request); `--atomic` runs them all in one transaction.
        let session = try storeOptions.engine(global, dryRun: dryRun).session
        try GlobalOptions.checkLanguage(lang, in: session.graph)
        let conversation = Conversation(
            session: session, options: .init(confirmAll: yes, dryRun: dryRun, language: lang))
        let progress = !json && Terminal.stderrIsTerminal && lines.count >= 20
        var report = BatchReport()
        var storeFailed = false
        let body = {
            for (index, line) in lines.enumerated() {
                var answer = conversation.respond(to: line.phrase)
                while answer.isQuestion, let reply = replies.popFirst() { answer = conversation.respond(to: reply) }
                if answer.isQuestion { conversation.cancel() }
                let ok = answer.status == .done || answer.status == .ready
                if ok { report.done += 1 } else { report.failed += 1 }
                if json {
                    report.answers.append(.init(line: line.number, phrase: line.phrase, answer: answer.json))
                } else if !ok {
                    if progress { Terminal.standardError(raw: "\r\u{1B}[K") }
                    let reason = answer.isQuestion ? "needs an answer: \(answer.dialog)" : answer.dialog
                    Terminal.standardError(
                        "\(file):\(line.number): error: “\(line.phrase)”: \(ControlCharacters.escaped(reason))\n")
                } else if !progress {
                    print(answer.text)
                }
                if progress, index % 10 == 0 || index == lines.count - 1 {
                    let width = 30, filled = (index + 1) * width / lines.count
                    Terminal.standardError(
                        raw: "\r[" + String(repeating: "#", count: filled)
                            + String(repeating: " ", count: width - filled)
                            + "] \(index + 1)/\(lines.count)")
                }
                if answer.storeFailure { storeFailed = true }
                if answer.storeFailure || (!ok && (stopOnError || atomic)) { break }
            }
        }
        if atomic, !dryRun {
            do {
                try session.store.atomically {
                    body()
                    if report.failed > 0 || storeFailed { throw RolledBack() }
                }
            } catch {
                report.rolledBack = true
                if !(error is RolledBack) {
                    storeFailed = true
                    Terminal.standardError("error: the batch could not be written to the store: \(error)\n")
                }
                // Rolled back: the names of records the batch made are gone again.
                do { try session.reloadNames() } catch {
                    storeFailed = true
                    Terminal.standardError("error: the names could not be read again after the rollback: \(error)\n")
                }
            }
        } else {
            body()
        }
        if progress { Terminal.standardError(raw: "\r\u{1B}[K") }
        report.notRun = lines.count - report.done - report.failed
        if json {
            try JSONEnvelope.write(report)
        } else {
            print(
                "\(report.done) done, \(report.failed) failed" + (report.notRun > 0 ? ", \(report.notRun) not run" : "")
                    + (report.rolledBack ? " (the whole batch was rolled back)" : ""))
        }
        if report.failed > 0 || storeFailed { throw ExitCode(1) }
    }
}
