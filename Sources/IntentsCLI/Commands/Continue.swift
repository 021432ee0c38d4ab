import ArgumentParser
import Foundation
import IntentEngine
import IntentModel
import IntentRuntime

struct Continue: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "continue",
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
        if list, json {
            try JSONEnvelope.write(["continuations": continuations.map(ContinuationJSON.init)])
            return
        }
        if list {
            if continuations.isEmpty { print("Nothing to continue.") }
            for (number, continuation) in continuations.enumerated() { print("\(number + 1). \(continuation.line)") }
            return
        }
        guard let latest = continuations.first else {
            if json {
                try JSONEnvelope.write(
                    Answer.JSONObject(
                        status: .noMatch, app: nil, intent: nil, dialog: "Nothing to continue.", parameters: [:]))
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

/// One entry of `intents continue --list --json`: `{kind, name, text, at, expires, link}`.
struct ContinuationJSON: Encodable {
    var kind: String
    /// The intent a question belongs to, or the activity's type.
    var name: String
    /// The question, or the activity's title.
    var text: String
    var at: String
    var expires: String?
    var link: String?

    init(_ continuation: Continuation) {
        switch continuation {
        case .question(let question):
            (kind, name, text) = ("question", "\(question.intent)", question.question)
            at = ISODate.format(question.at)
        case .activity(let activity):
            (kind, name, text) = ("activity", activity.type, activity.title)
            at = ISODate.format(activity.at)
            expires = ISODate.format(activity.expires)
            link = activity.link
        }
    }
}
