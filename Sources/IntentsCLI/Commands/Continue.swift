import ArgumentParser
import Foundation
import IntentEngine
import IntentModel
import IntentRuntime

struct Continue: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Carry on, here, a question or an activity another shell left.",
        discussion: """
            A question left open by 'say', 'open', 'share' or the prompt ("What's your zodiac sign?") is saved in
            the store; so is the activity of an intent with 'activity:' (eligible for handoff). 'continue' takes
            the most recent one that has not expired (8 hours unless the activity says otherwise): a question is
            asked again here (and closed where it was asked), an activity's intent runs again. REPLY answers the
            question at once; on a terminal it is asked inline. --list shows what can be continued.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storeOptions: StoreOptions

    @Flag(help: "List what can be continued, newest first.")
    var list = false

    @Flag(help: "Print the answer as one JSON object.")
    var json = false

    @Flag(help: "Confirm without asking.")
    var yes = false

    @Argument(help: "The answer to the open question.")
    var reply: [String] = []

    func run() throws {
        let engine = try storeOptions.engine(global)
        let request = EngineRequest(conversation: .make(), confirmAll: yes, kept: false)
        let continuations: [Continuation]
        do {
            continuations = try engine.continuations()
        } catch {
            Terminal.standardError("error: \(error)\n")
            throw ExitCode(1)
        }
        if list {
            if continuations.isEmpty { print("Nothing to continue.") }
            for (number, continuation) in continuations.enumerated() { print("\(number + 1). \(continuation.line)") }
            return
        }
        guard let latest = continuations.first else {
            if json {
                print(try JSONText.compact(
                    Answer.JSONObject(status: .noMatch, app: nil, intent: nil, dialog: "Nothing to continue.", parameters: [:])))
            } else {
                print("Nothing to continue.")
            }
            return
        }
        var answer = engine.carryOn(latest, request)
        if !reply.isEmpty, answer.isQuestion {
            if !json { print(answer.text + "\n› " + reply.joined(separator: " ")) }
            answer = engine.respond(to: reply.joined(separator: " "), request)
        }
        try Conversing.finish(answer, in: engine, request, json: json)
    }
}
