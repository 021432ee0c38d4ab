import ArgumentParser
import Foundation
import IntentLanguage
import IntentModel
import IntentProject

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compile the definitions and print every diagnostic.",
        discussion:
            "Prints 'file:line:col: error|warning: message' with the source line and a caret. The shortcut files in --shortcuts (default ./Shortcuts, when it exists) are checked against the definitions too. Exits 1 when there are errors."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The definitions directory (default: --intents).", valueName: "dir"))
    var directory: String?

    @Flag(help: "Treat warnings as errors.")
    var warningsAsErrors = false

    @Flag(help: "Skip matching sampled sentences against the other intents.")
    var noSampling = false

    @Option(help: ArgumentHelp("Shortcut files to check against the definitions.", valueName: "dir"))
    var shortcuts = "Shortcuts"

    @Flag(help: "Print the diagnostics as one JSON object on standard output instead.")
    var json = false

    func run() throws {
        let project = try global.loadProject(
            directory: directory, shortcuts: .directory(shortcuts), sampleConflicts: !noSampling, warnings: true,
            quiet: json)
        if json { print(try JSONText.compact(CheckReport(project.diagnostics))) }
        if project.hasErrors || (warningsAsErrors && !project.diagnostics.isEmpty) { throw ExitCode(1) }
    }
}
