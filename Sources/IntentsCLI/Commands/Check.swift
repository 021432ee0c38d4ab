import ArgumentParser
import Foundation
import IntentLanguage
import IntentModel
import IntentProject

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Compile the definitions and print every diagnostic.",
        discussion:
            "Prints 'file:line:col: error|warning: message' with the source line and a caret. The shortcut files that belong with the definitions (the Shortcuts folder beside them, e.g. ./Shortcuts for ./Intents), or those named by --shortcuts, are checked against the definitions too. Exits 1 when there are errors."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The definitions directory (default: --intents).", valueName: "dir"))
    var directory: String?

    @Flag(help: "Treat warnings as errors.")
    var warningsAsErrors = false

    @Flag(help: "Skip matching sampled sentences against the other intents.")
    var noSampling = false

    @Option(
        help: ArgumentHelp(
            "A folder of shortcut files, or one file, to check against the definitions (default: the Shortcuts folder beside the definitions).",
            valueName: "path"))
    var shortcuts: String?

    @Flag(help: "Print the diagnostics as one JSON object on standard output instead.")
    var json = false

    /// The Shortcuts folder beside the definitions (`DIR/../Shortcuts`), or what --shortcuts names.
    var shortcutFiles: Project.Shortcuts {
        if let shortcuts {
            return shortcuts.hasSuffix(".yaml") || shortcuts.hasSuffix(".yml")
                ? .files([shortcuts]) : .directory(shortcuts)
        }
        let definitions = directory ?? global.intentsDirectory
        return .directory(PathText.appending(PathText.deletingLastComponent(definitions), "Shortcuts"))
    }

    func run() throws {
        let project = try global.loadProject(
            directory: directory, shortcuts: shortcutFiles, sampleConflicts: !noSampling, warnings: true,
            quiet: json)
        if json { try JSONEnvelope.write(CheckReport(project.diagnostics)) }
        if project.hasErrors || (warningsAsErrors && !project.diagnostics.isEmpty) { throw ExitCode(1) }
    }
}
