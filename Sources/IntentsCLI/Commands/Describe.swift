import ArgumentParser
import IntentLanguage
import IntentModel
import IntentProject
import IntentRendering
import IntentRuntime

struct Describe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract:
            "Describe an intent (summary, parameters, phrases, tips), an app, an entity, an enum, or a shortcut file step by step.",
        discussion:
            "NAME is an intent's name, App.Intent when two apps have one of that name, or a shortcut file (Shortcuts/morning-review.yaml)."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(
        help: "The intent, app, entity or enum, e.g. CreateTask, FocusBlox.CreateTask, Task, Urgency.",
        completion: ShellCompletion.names([.intents, .apps, .entities, .enums]))
    var name: String

    @Flag(help: "Print one JSON object (for an intent, app, entity or enum).")
    var json = false

    func run() throws {
        if name.hasSuffix(".yaml") || name.hasSuffix(".yml") || name.contains("/") {
            let project = try global.loadProject(shortcuts: .files([name]))
            guard let graph = project.graph, let shortcut = project.shortcut(at: name) else { throw ExitCode(1) }
            let text = ShortcutDescriber.render(shortcut, graph: graph, clock: project.clock)
            if json {
                JSONEnvelope.write(
                    JSONValue.object(["kind": "shortcut", "file": .string(name), "text": .string(text)]))
            } else {
                print(text, terminator: "")
            }
            return
        }
        let (_, graph) = try global.loadGraph()
        let found = graph.intents(named: name)
        switch found.count {
        case 1:
            if json {
                JSONEnvelope.write(DescribeReport.intent(found[0]))
            } else {
                print(graph.describe(found[0]), terminator: "")
            }
        case 0:
            let others = graph.describables(named: name)
            if let first = others.first {
                if json {
                    JSONEnvelope.write(DescribeReport.item(first))
                } else {
                    print(others.map(graph.describe).joined(separator: "\n"), terminator: "")
                }
                return
            }
            var message = "error: no intent, app, entity or enum named '\(name)'"
            let known =
                graph.intents.map(\.name.name) + graph.apps.map(\.name) + graph.entities.map(\.name.name)
                + graph.enums.map(\.name.name)
            if let suggestion = EditDistance.closest(to: name, in: known) {
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
