import Foundation
import TestSupport
import Testing

/// `intents store stats`, `store vacuum`, and a streamed import and export through the binary.
@Suite("Big stores from the command line: stats, vacuum, streamed import and export", .tags(.slow), .skippedWhenFast)
struct BigStoreCommandTests {
    let scratch = ScratchDirectory("big")
    var store: String { scratch.path + "/store.sqlite" }

    func intents(_ arguments: [String]) throws -> CommandLineTests.Run {
        try ConversationCommandTests.run(arguments, store: store)
    }

    @Test("stats counts records per entity and names the store's own indexes; vacuum says what it gave back")
    func statsAndVacuum() throws {
        let none = try intents(["store", "stats"])
        #expect(none.status == 0 && none.stdout.contains("No store yet"))
        var tasks: [String] = []
        for n in 0..<300 { tasks.append(#"{"id": "t\#(n)", "title": "task number \#(n)"}"#) }
        let file = scratch.path + "/tasks.json"
        try #"{"Task": [\#(tasks.joined(separator: ",\n"))]}"#.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try intents(["store", "import", file])
        #expect(imported.stdout == "Imported 300 records.\n", "\(imported.stderr)")

        let stats = try intents(["store", "stats"])
        #expect(stats.status == 0, "\(stats.stderr)")
        let taskLine = try #require(stats.stdout.split(separator: "\n").first { $0.contains("FocusBlox.Task") })
        #expect(taskLine.contains(" 300 ") && taskLine.contains("indexes"), "\(taskLine)")
        #expect(stats.stdout.contains("names") && stats.stdout.contains("journal"))
        // Task.due is indexed: true; the widgets' queries add indexes led by isCompleted.
        let indexes = try intents(["store", "stats", "--indexes"])
        #expect(indexes.stdout.contains("\n    \"due\""), "\(indexes.stdout)")
        #expect(indexes.stdout.contains("\n    \"isCompleted\", \"urgency\""), "\(indexes.stdout)")
        let json = try intents(["store", "stats", "--json"])
        let object: [String: Any]? = try CommandLineTests.result(json)
        let entities = try #require(object?["entities"] as? [[String: Any]])
        #expect(entities.first { $0["name"] as? String == "FocusBlox.Task" }?["records"] as? Int == 300)

        #expect(try intents(["undo"]).status == 0)
        let vacuum = try intents(["store", "vacuum"])
        #expect(vacuum.status == 0 && vacuum.stdout.hasPrefix("Vacuumed "), "\(vacuum.stderr)")
        let after = try intents(["store", "stats", "--json"])
        #expect(after.stdout.contains("\"freeBytes\":0"))
    }

    @Test("A streamed export imports into a new store as the same export; a broken file changes nothing")
    func exportImportRoundTrip() throws {
        #expect(try intents(["say", "add buy milk to my tasks"]).status == 0)
        #expect(try intents(["say", "add an urgent task pay the rent"]).status == 0)
        let file = scratch.path + "/export.json"
        #expect(try intents(["store", "export", "-o", file]).status == 0)
        let exported = try String(contentsOfFile: file, encoding: .utf8)
        #expect(exported == (try intents(["store", "export"])).stdout)
        let other = scratch.path + "/other.sqlite"
        let imported = try ConversationCommandTests.run(["store", "import", file], store: other)
        #expect(imported.stdout == "Imported 2 records.\n", "\(imported.stderr)")
        #expect(try ConversationCommandTests.run(["store", "export"], store: other).stdout == exported)

        let broken = scratch.path + "/broken.json"
        try String(exported.dropLast(20)).write(toFile: broken, atomically: true, encoding: .utf8)
        let refused = try ConversationCommandTests.run(["store", "import", broken], store: other)
        // The place and the reason: "broken.json:20:4: not JSON: the text ends inside a string".
        #expect(refused.status == 2 && refused.stderr.contains("broken.json:"), "\(refused.stderr)")
        #expect(
            refused.stderr.contains("not JSON: ") && refused.stderr.contains("nothing was imported"),
            "\(refused.stderr)")
        #expect(try ConversationCommandTests.run(["store", "export"], store: other).stdout == exported)
    }

    @Test("On PostgreSQL: import (all or nothing, undone as one), stats, vacuum and a streamed export")
    func postgresImportStatsVacuum() throws {
        let url = try PostgresCluster.freshStore("bigcli")
        func intents(_ arguments: [String], store: String? = nil) throws -> CommandLineTests.Run {
            try ConversationCommandTests.run(arguments, store: store ?? url)
        }
        var tasks: [String] = []
        for n in 0..<300 { tasks.append(#"{"id": "t\#(n)", "title": "task number \#(n)"}"#) }
        let file = scratch.path + "/tasks.json"
        try #"{"Task": [\#(tasks.joined(separator: ",\n"))]}"#.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try intents(["store", "import", file])
        #expect(imported.stdout == "Imported 300 records.\n", "\(imported.stderr)")
        #expect(try intents(["say", "mark task number 7 as done"]).status == 0)

        // A file with one bad record changes nothing, wherever the record is.
        let twice = scratch.path + "/twice.json"
        try #"{"Task": [{"id": "x1", "title": "new one"}, {"id": "x1", "title": "again"}]}"#
            .write(toFile: twice, atomically: true, encoding: .utf8)
        let refused = try intents(["store", "import", twice])
        #expect(refused.status != 0 && refused.stderr.contains("already taken"), "\(refused.stderr)")

        let stats = try intents(["store", "stats"])
        #expect(stats.status == 0, "\(stats.stderr)")
        #expect(stats.stdout.hasPrefix("postgres://"), "\(stats.stdout)")
        let taskLine = try #require(stats.stdout.split(separator: "\n").first { $0.contains("FocusBlox.Task") })
        #expect(taskLine.contains(" 300 ") && taskLine.contains("indexes"), "\(taskLine)")
        #expect(stats.stdout.contains("names") && stats.stdout.contains("journal"))
        let indexes = try intents(["store", "stats", "--indexes"])
        #expect(indexes.stdout.contains("\n    due"), "\(indexes.stdout)")
        let json = try intents(["store", "stats", "--json"])
        let object: [String: Any]? = try CommandLineTests.result(json)
        let entities = try #require(object?["entities"] as? [[String: Any]])
        #expect(entities.first { $0["name"] as? String == "FocusBlox.Task" }?["records"] as? Int == 300)

        // A streamed export imports into another schema as the same export.
        let exported = try intents(["store", "export"]).stdout
        let exportFile = scratch.path + "/export.json"
        try exported.write(toFile: exportFile, atomically: true, encoding: .utf8)
        let other = try PostgresCluster.freshStore("bigcli2")
        #expect(try intents(["store", "import", exportFile], store: other).stdout == "Imported 300 records.\n")
        #expect(try intents(["store", "export"], store: other).stdout == exported)

        // Undo takes the last intent back, then the whole import.
        #expect(try intents(["undo"]).status == 0)
        #expect(try intents(["undo"]).status == 0)
        let after = try intents(["store", "stats", "--json"])
        let afterObject: [String: Any]? = try CommandLineTests.result(after)
        let afterEntities = try #require(afterObject?["entities"] as? [[String: Any]])
        #expect(afterEntities.first { $0["name"] as? String == "FocusBlox.Task" }?["records"] as? Int == 0)
        let vacuum = try intents(["store", "vacuum"])
        #expect(
            vacuum.status == 0 && vacuum.stdout.hasPrefix("Vacuumed postgres://"), "\(vacuum.stdout)\(vacuum.stderr)")
    }
}
