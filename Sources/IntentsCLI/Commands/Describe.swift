import ArgumentParser
import IntentLanguage
import IntentModel
import IntentProject
import IntentRuntime

struct Describe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Describe an intent (summary, parameters, phrases, tips), or a shortcut file step by step.",
        discussion:
            "NAME is an intent's name, App.Intent when two apps have one of that name, or a shortcut file (Shortcuts/morning-review.yaml)."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The intent, e.g. CreateTask or FocusBlox.CreateTask.")
    var name: String

    func run() throws {
        if name.hasSuffix(".yaml") || name.hasSuffix(".yml") || name.contains("/") {
            let project = try global.loadProject(shortcuts: .files([name]))
            guard let graph = project.graph, let shortcut = project.shortcut(at: name) else { throw ExitCode(1) }
            print(ShortcutDescriber.render(shortcut, graph: graph, clock: project.clock), terminator: "")
            return
        }
        let (_, graph) = try global.loadGraph()
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
            Terminal.standardError(
                "error: '\(name)' names more than one intent: \(found.map(\.name.description).joined(separator: ", "))\n"
            )
            throw ExitCode(1)
        }
    }
}
