import ArgumentParser
import Foundation
import IntentModel
import IntentRuntime

struct Link: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Print a record's canonical link.",
        discussion: """
            An entity has a canonical link when a route of 'links:' takes it, alone, to an intent that opens
            it (result.open): Radar → radar://open/<id>. NAME is the record's id or name.
            Exit status 2 when the entity has no canonical link or no record has that name.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The entity, e.g. Radar or Radar.Radar.", completion: ShellCompletion.names([.entities]))
    var entity: String

    @Argument(help: "The record's name or id, e.g. \"quantum computing\".")
    var name: String

    @Flag(help: "Print the links as one JSON object ({\"links\": [{\"link\", \"title\"}]}).")
    var json = false

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
        guard storeOptions.mayExist else {
            Terminal.standardError(
                "error: no \(kind) is called “\(name)” (the store \(storeOptions.path) does not exist)\n")
            throw ExitCode(2)
        }
        let store = try storeOptions.openForReading(graph, clock: project.clock)
        let found = try StoreCommand.failing { try Listing.links(of: entity, named: name, graph: graph, store: store) }
        if json, !found.isEmpty {
            try JSONEnvelope.write([
                "links": found.map { ["link": $0.link ?? "", "title": $0.title] }
            ])
            return
        }
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
