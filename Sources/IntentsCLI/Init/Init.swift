import ArgumentParser
import Foundation
import IntentModel

/// `intents init [NAME]`: writes a new app folder that `check`, `test` and `say` accept at once.
struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a new app: one intent, an entity, phrases, examples and a widget.",
        discussion:
            "Writes DIR/<name>/app.yaml (DIR is --intents, ./Intents by default). Outside a project (no such DIR) it starts one there. Never overwrites: when the app's folder exists, nothing is written and the exit status is 1."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The app's name: one word of letters and digits.", valueName: "name"))
    var name: String = "MyApp"

    func validate() throws {
        if let problem = NewAppTemplate.problem(with: name) {
            throw ValidationError("'\(name)' cannot name an app: \(problem).")
        }
    }

    func run() throws {
        let template = NewAppTemplate(name: name)
        let files = FileManager.default
        let definitions = global.intentsDirectory
        let folder = PathText.appending(definitions, template.folder)
        var isDirectory: ObjCBool = false
        let projectExists = files.fileExists(atPath: definitions, isDirectory: &isDirectory)
        if projectExists && !isDirectory.boolValue {
            Terminal.standardError("error: '\(definitions)' is a file, not a definitions folder; nothing was written\n")
            throw ExitCode(1)
        }
        if files.fileExists(atPath: folder) {
            Terminal.standardError(
                "error: '\(folder)' already exists; nothing was written (choose another name, or remove the folder)\n")
            throw ExitCode(1)
        }
        do {
            try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let file = PathText.appending(folder, "app.yaml")
            try Data(template.appYAML.utf8).write(to: URL(fileURLWithPath: file), options: .withoutOverwriting)
        } catch {
            Terminal.standardError("error: cannot write '\(folder)': \(error.localizedDescription)\n")
            throw ExitCode(1)
        }
        var lines: [String] = []
        if !projectExists {
            lines.append("No '\(definitions)' folder here: started a new project in it.")
        }
        lines.append("Created \(PathText.appending(folder, "app.yaml")): the app \(name) with the intent AddItem,")
        lines.append("the entity Item, an App Shortcut and the widget OpenItems. Next:")
        let intentsOption = definitions == "Intents" ? "" : " --intents \(definitions)"
        lines.append("  intents check\(intentsOption)")
        lines.append("  intents test\(intentsOption)")
        lines.append("  intents say\(intentsOption) \"\(template.sampleSentence)\"")
        print(lines.joined(separator: "\n"))
    }
}
