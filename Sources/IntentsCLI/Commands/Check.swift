import ArgumentParser
import IntentLanguage
import PhraseMatching

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compile the definitions and print every diagnostic.",
        discussion: "Prints 'file:line:col: error|warning: message' with the source line and a caret. Exits 1 when there are errors."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The definitions directory (default: --intents).", valueName: "dir"))
    var directory: String?

    @Flag(help: "Treat warnings as errors.")
    var warningsAsErrors = false

    @Flag(help: "Skip matching sampled sentences against the other intents.")
    var noSampling = false

    func run() throws {
        var compilation = try global.compile(directory: directory ?? global.intentsDirectory)
        if let graph = compilation.graph, !noSampling {
            compilation = compilation.adding(ConflictSampler.check(graph))
        }
        Terminal.printDiagnostics(compilation, warnings: true)
        let failed = compilation.hasErrors || (warningsAsErrors && !compilation.diagnostics.isEmpty)
        if failed { throw ExitCode(1) }
    }
}
