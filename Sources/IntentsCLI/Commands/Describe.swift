import ArgumentParser
import IntentLanguage

struct Describe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Describe an intent: summary, parameters, phrases and tips.",
        discussion: "NAME is an intent's name, or App.Intent when two apps have one of that name."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The intent, e.g. CreateTask or FocusBlox.CreateTask.")
    var name: String

    func run() throws {
        let graph = try global.loadGraph()
        let found = graph.intents(named: name)
        switch found.count {
        case 1:
            print(graph.describe(found[0]), terminator: "")
        case 0:
            var message = "error: no intent named '\(name)'"
            if let suggestion = EditDistance.closest(to: name, in: graph.intents.map(\.name.name)) {
                message += "; did you mean '\(suggestion)'?"
            }
            Terminal.standardError(message + "\n")
            throw ExitCode(1)
        default:
            Terminal.standardError("error: '\(name)' names more than one intent: \(found.map(\.name.description).joined(separator: ", "))\n")
            throw ExitCode(1)
        }
    }
}
