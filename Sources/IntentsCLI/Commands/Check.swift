import ArgumentParser
import Foundation
import IntentLanguage
import IntentModel
import PhraseMatching

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compile the definitions and print every diagnostic.",
        discussion: "Prints 'file:line:col: error|warning: message' with the source line and a caret. The shortcut files in --shortcuts (default ./Shortcuts, when it exists) are checked against the definitions too. Exits 1 when there are errors."
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

    func run() throws {
        var compilation = try global.compile(directory: directory ?? global.intentsDirectory)
        if let graph = compilation.graph, !noSampling {
            compilation = compilation.adding(ConflictSampler.check(graph))
        }
        Terminal.printDiagnostics(compilation, warnings: true)
        var failed = compilation.hasErrors || (warningsAsErrors && !compilation.diagnostics.isEmpty)
        if let graph = compilation.graph, let files = try? FileManager.default.contentsOfDirectory(atPath: shortcuts) {
            let matcher = Matcher(index: PhraseIndex(graph: graph))
            for file in files.sorted() where file.hasSuffix(".yaml") || file.hasSuffix(".yml") {
                let checked = Shortcuts.compile((shortcuts as NSString).appendingPathComponent(file), graph: graph, matcher: matcher)
                if checked.hasErrors || (warningsAsErrors && !checked.diagnostics.isEmpty) { failed = true }
            }
        }
        if failed { throw ExitCode(1) }
    }
}
