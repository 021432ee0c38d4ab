import Foundation
import Testing

/// Issue 23, part 4: the shell's Tab on names from the definitions. The completion scripts
/// argument-parser writes call `intents ---completion [SUBCOMMAND …] -- ARGUMENT INDEX CURSOR WORDS…`;
/// these tests call it the same way and read the candidates, one a line.
struct ShellCompletionTests {
    let scratch = ScratchDirectory("completion")
    var directory: String { scratch.path }

    static let shelves = """
        enums:
          Shelf:
            cases: { top: Top, bottom: Bottom }

        widgets:
          OneShelf:
            title: One Shelf
            families: [small]
            parameters:
              shelf: { type: Shelf }
              done: boolean
            content:
              title: "Shelf"

        """

    func candidates(_ path: [String], _ argument: String, _ words: [String]) throws -> [String] {
        let typed = words.last ?? ""
        let arguments =
            ["---completion"] + path + ["--", argument, String(words.count - 1), String(typed.count)] + words
        let run = try CommandLineTests.intents(arguments, in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout.split(separator: "\n").map(String.init)
    }

    @Test("Intent, app, entity and enum names for describe; controls, entities and apps where they are asked")
    func names() throws {
        #expect(try CommandLineTests.intents(["init", "Groceries"], in: directory).status == 0)
        try Self.shelves.write(toFile: directory + "/Intents/groceries/shelves.yaml", atomically: true, encoding: .utf8)
        #expect(try candidates(["describe"], "positional@0", ["intents", "describe", "Add"]) == ["AddItem"])
        #expect(
            try candidates(["describe"], "positional@0", ["intents", "describe", ""])
                == ["AddItem", "Groceries", "Item", "Shelf"])
        #expect(try candidates(["store", "list"], "positional@0", ["intents", "store", "list", "I"]) == ["Item"])
        #expect(try candidates(["suggest"], "--forget", ["intents", "suggest", "--forget", ""]) == ["AddItem"])
        #expect(try candidates(["share"], "--to", ["intents", "share", "--to", "G"]) == ["Groceries"])
        #expect(
            try candidates(["widget", "show"], "positional@0", ["intents", "widget", "show", "O"]) == [
                "OpenItems", "OneShelf",
            ])
    }

    @Test("The definitions named by --intents on the line; a name two apps declare also as App.Name")
    func otherDefinitions() throws {
        let bundled = CommandLineTests.root + "/Intents"
        let found = try candidates(
            ["describe"], "positional@0", ["intents", "describe", "--intents", bundled, "Create"])
        #expect(found.contains("CreateTask") && found.contains("CreateRadar"), "\(found)")
        let controls = try candidates(["control"], "positional@0", ["intents", "control", "--intents=\(bundled)", ""])
        #expect(controls.contains("Focus") && controls.contains("RefreshFortune"), "\(controls)")
        // No definitions: no candidates, and no error.
        #expect(
            try candidates(["describe"], "positional@0", ["intents", "describe", "--intents", "/nowhere", ""]).isEmpty)
    }

    @Test("A configurable widget's --set: its parameters, then an enum's cases or true and false")
    func widgetSettings() throws {
        #expect(try CommandLineTests.intents(["init", "Groceries"], in: directory).status == 0)
        try Self.shelves.write(toFile: directory + "/Intents/groceries/shelves.yaml", atomically: true, encoding: .utf8)
        let words = ["intents", "widget", "add", "OneShelf", "--set"]
        #expect(try candidates(["widget", "add"], "--set", words + [""]) == ["shelf=", "done="])
        #expect(try candidates(["widget", "add"], "--set", words + ["shelf="]) == ["shelf=top", "shelf=bottom"])
        #expect(
            try candidates(["widget", "show"], "--set", ["intents", "widget", "show", "OneShelf", "--set", "done=t"])
                == ["done=true"])
    }

    @Test("A shortcut file's --input: its inputs, then an enum input's cases")
    func shortcutInputs() throws {
        let root = CommandLineTests.root
        let words = [
            "intents", "run", "--intents", root + "/Intents", root + "/Shortcuts/fortune-for-every-sign.yaml",
            "--input",
        ]
        #expect(try candidates(["run"], "--input", words + [""]) == ["mySign=", "signs="])
        #expect(try candidates(["run"], "--input", words + ["mySign=ca"]) == ["mySign=cancer", "mySign=capricorn"])
        #expect(try candidates(["run"], "--input", ["intents", "run", "--input", "x="]).isEmpty, "no file named yet")
    }
}
