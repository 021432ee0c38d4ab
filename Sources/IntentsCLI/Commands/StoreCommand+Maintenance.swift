import ArgumentParser
import Foundation
import IntentModel
import ModelStore

extension StoreCommand {
    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: "How big the store is: records per entity, the file, and the indexes it keeps.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var storeOptions: StoreOptions

        @Flag(help: "Print a JSON object instead.")
        var json = false

        @Flag(help: "List each entity's indexes: what each holds and its size.")
        var indexes = false

        func run() throws {
            let (project, graph) = try global.loadGraph()
            guard storeOptions.mayExist else {
                print("No store yet at \(storeOptions.path) (it is created by the first intent that runs).")
                return
            }
            let store = try storeOptions.openForReading(graph, clock: project.clock)
            let stats = try StoreCommand.failing { try store.stats() }
            if json {
                JSONEnvelope.write(StoreCommand.json(stats))
                return
            }
            print(StoreCommand.render(stats, indexes: indexes), terminator: "")
        }
    }

    struct Vacuum: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "vacuum",
            abstract: "Rewrite the store file without its free space and merge its full-text indexes.",
            discussion: "Takes the write lock for as long as it runs (seconds for a million records).")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var storeOptions: StoreOptions

        func run() throws {
            let (project, graph) = try global.loadGraph()
            guard storeOptions.mayExist else {
                print("No store yet at \(storeOptions.path): nothing to vacuum.")
                return
            }
            let store = try storeOptions.open(graph, clock: project.clock)
            let (before, after) = try StoreCommand.failing { try store.vacuum() }
            print("Vacuumed \(storeOptions.path): \(StoreCommand.size(before)) → \(StoreCommand.size(after)).")
        }
    }

    /// Bytes for people: `812 B`, `4.1 KB`, `212.5 MB`.
    static func size(_ bytes: Int) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }

    static func render(_ stats: StoreStats, indexes: Bool = false) -> String {
        var out = "\(stats.path): \(size(stats.fileBytes))"
        if stats.walBytes > 0 { out += " (+ \(size(stats.walBytes)) write-ahead log)" }
        if stats.freeBytes > 0 { out += ", \(size(stats.freeBytes)) free (intents store vacuum gives it back)" }
        out += "\n\nRecords:\n"
        let width = max(6, stats.entities.map(\.name.count).max() ?? 0)
        for entity in stats.entities {
            var line = "  " + entity.name.padding(toLength: width, withPad: " ", startingAt: 0)
            line +=
                String(repeating: " ", count: max(1, 10 - entity.records.formatted().count))
                + entity.records.formatted()
            if let table = entity.tableBytes { line += "  table \(size(table))" }
            if entity.indexes > 0 {
                line += ", \(entity.indexes) index\(entity.indexes == 1 ? "" : "es")"
                if let bytes = entity.indexBytes { line += " \(size(bytes))" }
            }
            out += line + "\n"
            guard indexes else { continue }
            for index in entity.indexDetails {
                let size = index.bytes.map { "  \(self.size($0))" } ?? ""
                out += "    \(index.terms ?? "id (the key)")\(size)\n"
            }
        }
        out += "\nKept by intents:\n"
        let partWidth = stats.parts.map(\.name.count).max() ?? 0
        for part in stats.parts {
            var line = "  " + part.name.padding(toLength: partWidth, withPad: " ", startingAt: 0)
            line += String(repeating: " ", count: max(1, 10 - part.rows.formatted().count)) + part.rows.formatted()
            if let bytes = part.bytes { line += "  \(size(bytes))" }
            out += line + "  (\(part.purpose))\n"
        }
        return out
    }

    static func json(_ stats: StoreStats) -> JSONValue {
        func bytes(_ value: Int?) -> JSONValue { value.map { .integer($0) } ?? .null }
        return .object([
            "path": .string(stats.path), "fileBytes": .integer(stats.fileBytes), "walBytes": .integer(stats.walBytes),
            "freeBytes": .integer(stats.freeBytes),
            "entities": .array(
                stats.entities.map {
                    .object([
                        "name": .string($0.name), "records": .integer($0.records), "tableBytes": bytes($0.tableBytes),
                        "indexes": .integer($0.indexes), "indexBytes": bytes($0.indexBytes),
                        "indexDetails": .array(
                            $0.indexDetails.map { index in
                                .object([
                                    "name": .string(index.name), "terms": index.terms.map { .string($0) } ?? .null,
                                    "bytes": bytes(index.bytes),
                                ])
                            }),
                    ])
                }),
            "kept": .array(
                stats.parts.map {
                    .object([
                        "name": .string($0.name), "purpose": .string($0.purpose), "rows": .integer($0.rows),
                        "bytes": bytes($0.bytes),
                    ])
                }),
        ])
    }
}
