import Foundation
import Testing

/// Issue 23, `intents init`: a new app that `check`, `test` and `say` accept at once, never
/// written over an existing one.
struct InitCommandTests {
    let scratch = ScratchDirectory("init")
    var directory: String { scratch.path }

    func intents(_ arguments: [String]) throws -> CommandLineTests.Run {
        try CommandLineTests.intents(arguments + [], in: directory)
    }

    @Test("A new app checks clean, passes its examples and answers its own sentence")
    func newAppWorksAtOnce() throws {
        let created = try intents(["init", "Groceries"])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stderr.isEmpty)
        try CommandLineTests.golden("init-output.txt", created.stdout)
        let file = directory + "/Intents/groceries/app.yaml"
        try CommandLineTests.golden("init-app.yaml", try String(contentsOfFile: file, encoding: .utf8))

        let check = try intents(["check"])
        #expect(check.status == 0)
        #expect(check.stderr.isEmpty, "\(check.stderr)")
        let test = try intents(["test"])
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        #expect(test.stdout.contains("3 passed, 0 failed"), "\(test.stdout)")
        let say = try intents(["say", "--store", directory + "/store.sqlite", "add milk to groceries"])
        #expect(say.status == 0, "\(say.stderr)")
        #expect(say.stdout == "Added “milk”.\n")
        let widgets = try intents(["widgets", "--store", directory + "/store.sqlite"])
        #expect(widgets.status == 0, "\(widgets.stderr)")
        #expect(widgets.stdout.contains("milk"), "\(widgets.stdout)")
    }

    @Test("A second app beside the first, named in two words, checks and tests clean together")
    func secondAppBesideTheFirst() throws {
        #expect(try intents(["init", "Groceries"]).status == 0)
        let second = try intents(["init", "PackingList"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(!second.stdout.contains("started a new project"))
        #expect(second.stdout.contains("intents say \"add milk to packing list\""))
        let check = try intents(["check"])
        #expect(check.status == 0, "\(check.stderr)")
        let test = try intents(["test"])
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        let say = try intents(["say", "--store", directory + "/store.sqlite", "put socks on my packing list"])
        #expect(say.stdout == "Added “socks”.\n", "\(say.stdout)\(say.stderr)")
    }

    @Test("An existing app folder is never written over")
    func refusesToOverwrite() throws {
        #expect(try intents(["init", "Groceries"]).status == 0)
        let file = directory + "/Intents/groceries/app.yaml"
        try "app: Groceries\n# mine\n".write(toFile: file, atomically: true, encoding: .utf8)
        let again = try intents(["init", "Groceries"])
        #expect(again.status == 1)
        #expect(
            again.stderr
                == "error: 'Intents/groceries' already exists; nothing was written (choose another name, or remove the folder)\n"
        )
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "app: Groceries\n# mine\n")
    }

    @Test(arguments: [
        ("two words", "an app's name is one word of letters and digits, like Groceries or PackingList"),
        ("9lives", "an app's name starts with a letter (A–Z), like Groceries or PackingList"),
        ("../escape", "an app's name starts with a letter (A–Z), like Groceries or PackingList"),
    ])
    func badNamesAreRefused(name: String, why: String) throws {
        let run = try intents(["init", name])
        #expect(run.status == 2)
        #expect(run.stderr.contains("'\(name)' cannot name an app: \(why)."), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/Intents"))
    }

    @Test("Where the definitions folder is a file, nothing is written")
    func definitionsFolderIsAFile() throws {
        try "not a folder".write(toFile: directory + "/Intents", atomically: true, encoding: .utf8)
        let run = try intents(["init"])
        #expect(run.status == 1)
        #expect(run.stderr == "error: 'Intents' is a file, not a definitions folder; nothing was written\n")
    }
}
