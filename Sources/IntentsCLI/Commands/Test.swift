import ArgumentParser
import IntentLanguage
import IntentModel
import IntentProject
import PhraseMatching

struct Test: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run every examples: case in the definitions.",
        discussion: "Prints each failure with its place, then 'N passed, N failed'. Exits 1 when any failed."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The definitions directory (default: --intents).", valueName: "dir"))
    var directory: String?

    @Flag(name: .shortAndLong, help: "List passing examples too.")
    var verbose = false

    func run() throws {
        let (project, _) = try global.loadGraph(directory: directory)
        guard let matcher = project.matcher() else { throw ExitCode(1) }
        var runner = ExampleRunner(matcher: matcher)
        if let index = project.index {
            // Values as `say` would use them: an exact match's free text may be divided anew by the tagger.
            var options = StoreOptions()
            options.storePath = nil  // $INTENTS_STORE or ./.intents: where `say` keeps the cache
            let stage = options.learnedStage(project, index: index)
            runner.revise = { candidate, text in
                stage.revise(candidate, text: text, matcher: matcher)?.candidate ?? candidate
            }
        }
        let report = runner.run()
        for failure in report.failures {
            print("\(failure.example.location.start): FAIL \"\(failure.example.say)\": \(failure.reason)")
        }
        if verbose {
            let failed = Set(report.failures.map { $0.example.location.start })
            for example in runner.examples where !failed.contains(example.location.start) {
                print("\(example.location.start): ok \"\(example.say)\"")
            }
        }
        print("\(report.passed) passed, \(report.failures.count) failed")
        if !report.failures.isEmpty { throw ExitCode(1) }
    }
}
