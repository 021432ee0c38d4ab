import ArgumentParser
import Foundation
import IntentLanguage
import IntentModel
import IntentRuntime
import ModelStore

struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Look into the store, export it and seed it.",
        subcommands: [List.self, Export.self, Import.self, History.self]
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List what the store holds of one entity.",
            discussion:
                "ENTITY is an entity's name (Task) or App.Entity. --where takes a condition in the definitions' expression language, e.g. --where '!isCompleted && urgency == urgent'."
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: "The entity, e.g. Task or FocusBlox.Task.")
        var entity: String

        @Option(name: .customLong("where"), help: "Only records for which this condition holds.")
        var condition: String?

        @Flag(help: "Print the records as a JSON array.")
        var json = false

        @Flag(help: "Show each record's canonical link (radar://open/<id>).")
        var links = false

        func run() throws {
            let (project, graph) = try global.loadGraph()
            let entity = try StoreCommand.entity(named: self.entity, in: graph)
            var filter: IntentModel.Expression?
            if let condition {
                do { filter = try graph.filter(condition, for: entity.name) } catch {
                    Terminal.standardError("error: --where: \(error.description)\n")
                    throw ExitCode(2)
                }
            }
            guard FileManager.default.fileExists(atPath: storeOptions.path) else {
                print(
                    json
                        ? "[]"
                        : "No \(entity.name.name.lowercased()) records yet (the store \(storeOptions.path) does not exist)."
                )
                return
            }
            let store = try storeOptions.openForReading(graph, clock: project.clock)
            var listing = try StoreCommand.failing {
                try Listing.records(of: entity, where: filter, graph: graph, store: store)
            }
            if links { listing = try Link.withLinks(listing, entity: entity, graph: graph) }
            if json {
                print(try JSONText.pretty(listing.map(\.json)))
            } else if listing.isEmpty {
                print("No \(entity.name.name.lowercased()) records\(condition == nil ? "" : " match").")
            } else {
                for item in listing { print(item.line) }
                print("\(listing.count) \(entity.name.name.lowercased()) record\(listing.count == 1 ? "" : "s")")
            }
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write every record as JSON: {\"App.Entity\": [records]}.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var storeOptions: StoreOptions

        @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
        var output: String?

        func run() throws {
            let (project, graph) = try global.loadGraph()
            let store =
                FileManager.default.fileExists(atPath: storeOptions.path)
                ? try storeOptions.openForReading(graph, clock: project.clock)
                : try storeOptions.open(graph, clock: project.clock)
            let object = try StoreCommand.failing { try store.read { try $0.export() } }
            let text = try JSONText.pretty(object) + "\n"
            if let output {
                do { try text.write(toFile: output, atomically: true, encoding: .utf8) } catch {
                    Terminal.standardError("error: cannot write \(output): \(error.localizedDescription)\n")
                    throw ExitCode(1)
                }
            } else {
                print(text, terminator: "")
            }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Insert or replace (by id) the records of a JSON export.",
            discussion:
                "Everything is checked first; a file with any bad record changes nothing. The import can be undone with 'intents undo'."
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: "A JSON file as written by 'intents store export' (- for standard input).")
        var file: String

        func run() throws {
            let (project, graph) = try global.loadGraph()
            let data: Data
            if file == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                guard let contents = FileManager.default.contents(atPath: file) else {
                    Terminal.standardError("error: cannot read \(file)\n")
                    throw ExitCode(1)
                }
                data = contents
            }
            guard let json = try? JSONDecoder().decode(JSONValue.self, from: data), json.object != nil else {
                Terminal.standardError("error: \(file) is not a JSON object of the form {\"App.Entity\": [records]}\n")
                throw ExitCode(2)
            }
            let store = try storeOptions.open(graph, clock: project.clock)
            let count = try StoreCommand.failing {
                try store.write { transaction in
                    let count = try transaction.importRecords(try StoreExport(json: json))
                    try transaction.journal(
                        intent: QualifiedName(app: "intents", name: "import"), parameters: ["file": .string(file)],
                        dialog: "Imported \(count) records", donation: nil)
                    return count
                }
            }
            print("Imported \(count) record\(count == 1 ? "" : "s").")
        }
    }

    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The intents executed most recently, and the donations they left.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var storeOptions: StoreOptions

        @Option(help: "How many to show.")
        var limit = 20

        @Flag(help: "Show donations (the intent and its donated parameters) instead of executions.")
        var donations = false

        @Flag(help: "Print a JSON array instead.")
        var json = false

        func validate() throws {
            guard (1...1_000_000).contains(limit) else {
                throw ValidationError("--limit must be from 1 to 1000000, not \(limit)")
            }
        }

        func run() throws {
            let (project, graph) = try global.loadGraph()
            guard FileManager.default.fileExists(atPath: storeOptions.path) else {
                print(json ? "[]" : "Nothing has run yet.")
                return
            }
            let store = try storeOptions.open(graph, clock: project.clock, readOnly: true)
            if json {
                func parameters(_ text: String) -> JSONValue {
                    (try? JSONText.decode(JSONValue.self, from: text)) ?? .string(text)
                }
                let entries: [JSONValue]
                if donations {
                    entries = try StoreCommand.failing({ try store.read { try $0.donations(limit: limit) } }).map {
                        ["intent": .string($0.intent), "parameters": parameters($0.parameters), "at": .string($0.at)]
                    }
                } else {
                    entries = try StoreCommand.failing({ try store.read { try $0.executions(limit: limit) } }).map {
                        [
                            "id": .integer(Int($0.id)), "intent": .string($0.intent),
                            "parameters": parameters($0.parameters), "dialog": .string($0.dialog), "at": .string($0.at),
                            "undone": .bool($0.undone),
                        ]
                    }
                }
                print(try JSONText.pretty(JSONValue.array(entries)))
                return
            }
            if donations {
                for donation in try StoreCommand.failing({ try store.read { try $0.donations(limit: limit) } }) {
                    print("\(donation.at)  \(donation.intent)  \(donation.parameters)")
                }
            } else {
                for execution in try StoreCommand.failing({ try store.read { try $0.executions(limit: limit) } }) {
                    print(
                        "#\(execution.id)  \(execution.at)  \(execution.intent)\(execution.undone ? "  (undone)" : "")  \(execution.dialog)"
                    )
                }
            }
        }
    }

    static func entity(named name: String, in graph: IntentGraph) throws -> IntentGraph.Entity {
        let found = graph.entities(named: name)
        if found.count == 1 { return found[0] }
        if found.isEmpty {
            var message = "error: no entity named '\(name)'"
            if let suggestion = EditDistance.closest(to: name, in: graph.entities.map(\.name.name)) {
                message += "; did you mean '\(suggestion)'?"
            }
            Terminal.standardError(
                message + " (entities: \(graph.entities.map(\.name.description).joined(separator: ", ")))\n")
        } else {
            Terminal.standardError(
                "error: '\(name)' names more than one entity: \(found.map(\.name.description).joined(separator: ", "))\n"
            )
        }
        throw ExitCode(2)
    }

    /// Runs a store operation; a failure is printed and exits 1.
    static func failing<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch {
            Terminal.standardError("error: \(error)\n")
            throw ExitCode(1)
        }
    }
}
