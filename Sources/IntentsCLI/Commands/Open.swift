import ArgumentParser
import Foundation
import IntentEngine
import IntentLanguage
import IntentModel
import IntentRuntime
import ModelStore

struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open a deep link: run the intent its route names, like a phrase would.",
        discussion: """
            The link is routed by the apps' 'links:' (radar://open/<id>, radar://create?topic=…,
            https://radar.app/radar/<id>). Values are percent-decoded, query items may come in any order,
            trailing slashes do not matter. Missing values are asked for, and an intent that deletes is
            confirmed (on a terminal inline; otherwise the answer is the question: nothing is deleted).
            Exit status: 0 for any answer, 1 when the definitions or the store cannot be used, 2 for a
            link that is refused (unknown scheme or route, a value that does not fit, a record that does
            not exist, over 2,048 bytes, control characters, '..' segments, duplicate or unknown query
            keys); nothing is changed then.
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

    @Argument(help: "The link, e.g. radar://open/quantum%20computing.")
    var url: String

    func run() throws {
        let engine = try storeOptions.engine(global, dryRun: dryRun)
        let request = EngineRequest(conversation: .make(), dryRun: dryRun, confirmAll: yes, kept: false)
        switch engine.open(url, request) {
        case .failure(let error):
            throw Self.refuse(error, json: json)
        case .success(let answer):
            try Conversing.finish(answer, in: engine, request, json: json)
        }
    }

    /// Prints a refused link (stderr; and the error envelope on stdout with `--json`, its code the
    /// server's: `no_route`, `bad_value`, …) and exits 2.
    static func refuse(_ error: LinkError, json: Bool) -> ExitCode {
        Terminal.standardError("error: \(error.message)\n")
        if json { JSONEnvelope.writeError(code: error.code.rawValue, message: error.message) }
        return ExitCode(2)
    }
}
