import Foundation
import Testing

/// Issue 22, item 14, through the binary: an import's JSON syntax error says where and why; a store
/// whose own tables another program changed says which file, table, row and column.
@Suite("Damaged input: where and what")
struct DamagedInputCommandTests {
    let scratch = ScratchDirectory("damaged")
    var store: String { scratch.path + "/store.sqlite" }

    func intents(_ arguments: [String]) throws -> CommandLineTests.Run {
        try ConversationCommandTests.run(arguments, store: store)
    }

    @Test("store import: a syntax error is file:line:column and the reason; nothing is imported")
    func importSyntaxErrorSaysWhere() throws {
        let file = scratch.path + "/broken.json"
        let cases = [
            (
                "{\"Radar\": [\n  {\"topic\": \"rust\",}\n]}\n",
                "2:20: not JSON: expected a field name in double quotes, found '}'"
            ),
            ("{\"Radar\": [{\"topic\": \"rust\"}]} trailing", "1:32: not JSON: text after the end of the export"),
            ("{\"Radar\": [{\"topic\": \"a\\q\"}]}", "1:24: not JSON: '\\q' is not an escape JSON has"),
        ]
        for (text, message) in cases {
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let run = try intents(["store", "import", file])
            #expect(run.status == 2)
            #expect(run.stderr == "error: \(file):\(message); nothing was imported\n", "\(text)")
        }
        #expect(try intents(["store", "list", "Radar"]).stdout.hasPrefix("No radar records"))
    }

    @Test(
        "A value of the store's own tables changed by another program is named, not a DecodingError",
        arguments: [
            (
                "UPDATE _live_activities SET attributes = 'garbage'", ["activities"],
                "_live_activities row 1, column attributes holds \"garbage\", not a JSON object"
            ),
            (
                "UPDATE _widget_instances SET parameters = 1", ["widget", "list"],
                "_widget_instances row 1, column parameters holds \"1\", not a JSON object"
            ),
            (
                "UPDATE _activities SET keywords = '[1'", ["search", "rust"],
                "_activities row 1, column keywords holds \"[1\", not a JSON list of texts"
            ),
            (
                "UPDATE _changes SET \"before\" = 'x' WHERE \"before\" IS NOT NULL", ["undo"],
                "_changes row 0, column before holds \"x\", not a record as JSON"
            ),
        ])
    func damagedOwnTablesAreNamed(_ sql: String, _ arguments: [String], _ place: String) throws {
        for phrase in [
            "start a focus block on writing for 25 minutes", "track rust", "open rust radar", "refresh rust",
        ] {
            #expect(try intents(["say", phrase]).status == 0, "\(phrase)")
        }
        #expect(try intents(["widget", "add", "OneRadar", "--set", "radar=rust"]).status == 0)
        try DefectsCommandTests.sqlite(store, sql)
        let run = try intents(arguments)
        #expect(run.status == 1)
        #expect(!run.stderr.contains("DecodingError"), "\(run.stderr)")
        #expect(
            run.stderr.hasPrefix("error: the store \(store) is damaged: \(place) (it was changed outside intents)"),
            "\(run.stderr)")
    }
}
