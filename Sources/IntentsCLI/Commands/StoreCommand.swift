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
        subcommands: [List.self, Export.self, Import.self, History.self, Stats.self, Vacuum.self]
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List what the store holds of one entity.",
            discussion:
                "ENTITY is an entity's name (Task) or App.Entity. --where takes a condition in the definitions' expression language, e.g. --where '!isCompleted && urgency == urgent'."
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: "The entity, e.g. Task or FocusBlox.Task.", completion: ShellCompletion.names([.entities]))
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
            guard storeOptions.mayExist else {
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
                JSONEnvelope.write(JSONValue.object(["records": .array(listing.map { .object($0.json) })]))
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
            commandName: "export",
            abstract: "Write every record as JSON: {\"App.Entity\": [records]}.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var storeOptions: StoreOptions

        @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
        var output: String?

        func run() throws {
            let (project, graph) = try global.loadGraph()
            let store =
                storeOptions.mayExist
                ? try storeOptions.openForReading(graph, clock: project.clock)
                : try storeOptions.open(graph, clock: project.clock)
            // Written as it is read, a record at a time; a file appears whole (renamed into place).
            let temporary = output.map { $0 + ".partial-\(getpid())" }
            let handle: FileHandle
            if let output, let temporary {
                guard FileManager.default.createFile(atPath: temporary, contents: nil),
                    let opened = FileHandle(forWritingAtPath: temporary)
                else {
                    Terminal.standardError("error: cannot write \(output)\n")
                    throw ExitCode(1)
                }
                handle = opened
            } else {
                handle = FileHandle.standardOutput
            }
            var pending: [UInt8] = []
            pending.reserveCapacity(1 << 20)
            do {
                try StoreCommand.failing {
                    try store.read { transaction in
                        try transaction.export(
                            to: { text in
                                pending += text.utf8
                                if pending.count >= 1 << 20 {
                                    try handle.write(contentsOf: pending)
                                    pending.removeAll(keepingCapacity: true)
                                }
                            },
                            unreadable: { problem in
                                // Exported as stored, so nothing is lost; `store import` refuses it by name.
                                Terminal.standardError(
                                    ControlCharacters.escaped(
                                        "warning: \(problem); exported as stored (store import refuses it until it is corrected)\n"
                                    ))
                            })
                    }
                }
                try handle.write(contentsOf: pending)
                if let output, let temporary {
                    try handle.close()
                    guard rename(temporary, output) == 0 else { throw CocoaError(.fileWriteUnknown) }
                }
            } catch let exit as ExitCode {
                if let temporary { try? FileManager.default.removeItem(atPath: temporary) }
                throw exit
            } catch {
                if let temporary { try? FileManager.default.removeItem(atPath: temporary) }
                Terminal.standardError("error: cannot write \(output ?? "the export"): \(error.localizedDescription)\n")
                throw ExitCode(1)
            }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
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
            // Read a chunk at a time and written as read, in one transaction: a bad record
            // anywhere leaves the store as it was, and memory does not grow with the file.
            let handle: FileHandle
            if file == "-" {
                handle = FileHandle.standardInput
            } else {
                guard FileManager.default.isReadableFile(atPath: file), let opened = FileHandle(forReadingAtPath: file)
                else {
                    Terminal.standardError("error: cannot read \(file)\n")
                    throw ExitCode(1)
                }
                handle = opened
            }
            var stream = JSONRecordStream(handle: handle)
            // The text must at least open like an export before the store is opened (or made).
            guard stream.startsLikeAnExport() else {
                Terminal.standardError("error: \(file) is not a JSON object of the form {\"App.Entity\": [records]}\n")
                throw ExitCode(2)
            }
            let store = try storeOptions.open(graph, clock: project.clock)
            let count: Int
            do {
                count = try store.write { transaction in
                    try transaction.importRecords(
                        from: &stream, journalAs: QualifiedName(app: "intents", name: "import"),
                        parameters: ["file": .string(file)])
                }
            } catch let problem as JSONRecordStream.Problem {
                if case .syntax(let line, let column, let reason) = problem {
                    Terminal.standardError(
                        "error: \(file):\(line):\(column): not JSON: \(reason); nothing was imported\n")
                } else {
                    Terminal.standardError("error: \(file) is \(problem)\n")
                }
                throw ExitCode(2)
            } catch {
                _ = try StoreCommand.failing { throw error }
                return
            }
            print("Imported \(count) record\(count == 1 ? "" : "s").")
        }
    }

    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
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
            guard storeOptions.mayExist else {
                if json {
                    JSONEnvelope.write(JSONValue.object([donations ? "donations" : "executions": .array([])]))
                } else {
                    print("Nothing has run yet.")
                }
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
                JSONEnvelope.write(JSONValue.object([donations ? "donations" : "executions": .array(entries)]))
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
