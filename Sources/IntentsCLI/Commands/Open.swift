import ArgumentParser
import Foundation
import IntentLanguage
import IntentModel
import IntentRuntime
import ModelStore

struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(
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
        let session = try storeOptions.session(global)
        let conversation = Conversation(session: session, options: .init(confirmAll: yes, dryRun: dryRun, handoff: true))
        switch conversation.open(url) {
        case .failure(let error):
            throw Self.refuse(error, json: json)
        case .success(let answer):
            try Conversing.finish(answer, in: conversation, json: json)
        }
    }

    /// Prints a refused link (stderr; and the JSON answer on stdout with `--json`) and exits 2.
    static func refuse(_ error: LinkError, json: Bool) -> ExitCode {
        if json {
            let object = Answer.JSONObject(
                status: .error, app: nil, intent: nil, dialog: error.message, parameters: [:],
                error: .init(message: error.message))
            if let text = try? JSONText.compact(object) {
                print(text.replacingOccurrences(of: "\"error\":{", with: "\"error\":{\"code\":\"\(error.code.rawValue)\","))
            }
        }
        Terminal.standardError("error: \(error.message)\n")
        return ExitCode(2)
    }
}

/// The end of a command that starts a conversation: questions asked inline on a terminal, then the
/// answer printed as text or JSON.
enum Conversing {
    static func finish(_ first: Answer, in conversation: Conversation, json: Bool) throws {
        var answer = first
        let interactive = !json && isatty(STDIN_FILENO) != 0
        while interactive, answer.isQuestion {
            print(answer.text)
            print("› ", terminator: "")
            fflush(nil)
            guard let line = readLine() else {
                answer = conversation.cancel() ?? answer
                break
            }
            answer = conversation.respond(to: line)
        }
        if json {
            print(try JSONText.compact(answer.json))
        } else {
            print(answer.text)
        }
        if answer.storeFailure { throw ExitCode(1) }
    }
}

struct Link: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a record's canonical link.",
        discussion: """
            An entity has a canonical link when a route of 'links:' takes it, alone, to an intent that opens
            it (result.open): Radar → radar://open/<id>. NAME is the record's id or name.
            Exit status 2 when the entity has no canonical link or no record has that name.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The entity, e.g. Radar or Radar.Radar.")
    var entity: String

    @Argument(help: "The record's name or id, e.g. \"quantum computing\".")
    var name: String

    func run() throws {
        let (project, graph) = try global.loadGraph()
        let entity = try StoreCommand.entity(named: self.entity, in: graph)
        guard graph.canonicalLink(for: entity.name) != nil else {
            Terminal.standardError(
                "error: \(entity.name.name) has no canonical link: no route of 'links:' takes a \(entity.name.name) alone to an intent that opens it\n"
            )
            throw ExitCode(2)
        }
        let kind = entity.name.name.lowercased()
        guard FileManager.default.fileExists(atPath: storeOptions.path) else {
            Terminal.standardError("error: no \(kind) is called “\(name)” (the store \(storeOptions.path) does not exist)\n")
            throw ExitCode(2)
        }
        let store = try storeOptions.openForReading(graph, clock: project.clock)
        let found = try StoreCommand.failing { try Listing.links(of: entity, named: name, graph: graph, store: store) }
        switch found.count {
        case 0:
            Terminal.standardError("error: no \(kind) is called “\(name)”\n")
            throw ExitCode(2)
        case 1:
            print(found[0].link ?? "")
        default:
            for item in found { print("\(item.link ?? "")  \(item.title)") }
        }
    }

    /// `store list --links`: each line followed by its link, and `link` in the JSON.
    static func withLinks(
        _ listing: [Listing.Item], entity: IntentGraph.Entity, graph: IntentGraph
    ) throws -> [Listing.Item] {
        guard graph.canonicalLink(for: entity.name) != nil else {
            Terminal.standardError("error: \(entity.name.name) has no canonical link\n")
            throw ExitCode(2)
        }
        return listing.map(\.showingLink)
    }
}
