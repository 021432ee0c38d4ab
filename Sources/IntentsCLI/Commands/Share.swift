import ArgumentParser
import Foundation
import IntentEngine
import IntentModel
import IntentRuntime

struct Share: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Share web pages, text, images, movies or files with an app, like a share sheet.",
        discussion: """
            Each CONTENT is classified: a URL (when that is all it is) is a web page, a path to an existing file
            is a file (image, movie or other, by its first bytes and its extension), anything else is text;
            '-' reads text from standard input. The apps' 'share:' routes decide who takes the whole set; when
            several apps do, you choose (on a terminal inline, else pick one with --to). Everything is checked
            before anything is written: a file over an app's limit, unreadable, or of a kind no app takes is
            refused with the reason. Exit status 2 when the share is refused.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storeOptions: StoreOptions

    @Option(
        name: .customLong("to"), help: ArgumentHelp("Share with this app.", valueName: "app"),
        completion: ShellCompletion.names([.apps]))
    var app: String?

    @Option(name: .customLong("file"), help: ArgumentHelp("A file to share (repeatable).", valueName: "path"))
    var files: [String] = []

    @Flag(help: "Print each answer as one JSON envelope per line.")
    var json = false

    @Flag(help: "Resolve everything but execute nothing.")
    var dryRun = false

    @Flag(help: "Confirm without asking.")
    var yes = false

    @Argument(help: "URLs, text, paths, or - for standard input.")
    var content: [String] = []

    func run() throws {
        let items = try classified()
        let engine = try storeOptions.engine(global, dryRun: dryRun)
        if let app, engine.graph.app(named: app) == nil {
            var message = "error: no app named '\(app)'"
            if let close = EditDistance.closest(to: app, in: engine.graph.apps.map(\.name)) {
                message += "; did you mean '\(close)'?"
            }
            Terminal.standardError(message + "\n")
            throw ExitCode(2)
        }
        let (offers, rejections) = engine.shareOffers(for: items, app: app)
        guard !offers.isEmpty else {
            if rejections.count == 1 {
                Terminal.standardError("error: \(rejections[0].reason)\n")
            } else {
                Terminal.standardError(
                    "error: no app accepts this share:\n" + rejections.map { "  \($0.reason)\n" }.joined())
            }
            throw ExitCode(2)
        }
        let request = EngineRequest(conversation: .make(), dryRun: dryRun, confirmAll: yes, kept: false)
        guard let offer = try choose(offers) else { return }
        var answers = engine.share(items, with: offer, request)
        let last = answers.removeLast()
        for answer in answers {
            if json { try JSONEnvelope.write(answer.json) } else { print(answer.text) }
        }
        try Conversing.finish(last, in: engine, request, json: json)
        if last.status == .error { throw ExitCode(last.storeFailure ? 1 : 2) }
    }

    /// Every item classified and checked, before anything else happens.
    private func classified() throws -> [ShareItem] {
        var items: [ShareItem] = []
        do throws(ShareError) {
            for argument in content {
                if argument == "-" {
                    items.append(try Self.standardInput())
                } else {
                    items.append(try ShareItem.classify(argument))
                }
            }
            for path in files { items.append(try ShareItem.file(path)) }
        } catch {
            Terminal.standardError("error: \(error.message)\n")
            throw ExitCode(2)
        }
        guard !items.isEmpty else {
            Terminal.standardError(
                "error: nothing to share: give URLs, text or paths, '-' for standard input, or --file PATH\n")
            throw ExitCode(2)
        }
        return items
    }

    private static func standardInput() throws(ShareError) -> ShareItem {
        if isatty(STDIN_FILENO) != 0 { throw ShareError("'-' reads standard input, which is a terminal here") }
        let data = (try? FileHandle.standardInput.read(upToCount: ShareItem.maximumTextBytes + 1)) ?? Data()
        guard data.count <= ShareItem.maximumTextBytes else {
            throw ShareError(
                "standard input holds more than \(ShareItem.maximumTextBytes) bytes; share a file instead (--file)")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw ShareError("standard input is not UTF-8 text; share a file instead (--file)")
        }
        return try ShareItem.text(text)
    }

    /// The offer to run: the only one, or the one chosen by number; nil when the question is left open.
    private func choose(_ offers: [ShareRouter.Offer]) throws -> ShareRouter.Offer? {
        guard offers.count > 1 else { return offers[0] }
        let question = "Share with which app?"
        let choices = offers.map(\.label)
        let interactive = !json && isatty(STDIN_FILENO) != 0
        guard interactive else {
            if json {
                let answer = Answer.JSONObject(
                    status: .needsDisambiguation, app: nil, intent: nil, dialog: question, parameters: [:],
                    choices: choices)
                try JSONEnvelope.write(answer)
            } else {
                print(question)
                for (number, choice) in choices.enumerated() { print("  \(number + 1). \(choice)") }
                print("(share again with --to \(offers.map(\.app).joined(separator: " or --to ")))")
            }
            return nil
        }
        while true {
            print(question)
            for (number, choice) in choices.enumerated() { print("  \(number + 1). \(choice)") }
            print("› ", terminator: "")
            fflush(nil)
            guard let line = readLine() else {
                print("Cancelled. Nothing was shared.")
                return nil
            }
            let folded = line.trimmingCharacters(in: .whitespaces).lowercased()
            if let number = Int(folded.trimmingCharacters(in: CharacterSet(charactersIn: "#."))),
                (1...offers.count).contains(number)
            {
                return offers[number - 1]
            }
            if let offer = offers.first(where: { $0.app.lowercased() == folded }) { return offer }
            if ["cancel", "no", "stop", "never mind"].contains(folded) {
                print("Cancelled. Nothing was shared.")
                return nil
            }
        }
    }
}
