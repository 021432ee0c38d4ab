import ArgumentParser
import Foundation
import IntentModel
import IntentRuntime
import ModelStore

/// `intents widget add NAME --set name=value`: a configurable widget added with its values chosen,
/// kept in the store; the Smart Stack shows it from then on.
struct WidgetAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a configurable widget with its parameters chosen: --set name=value.",
        discussion: """
            Values are checked as a deep link's are: an enum case by id, title or synonym; an entity by id or \
            exactly its name; numbers, dates and durations as written. Every parameter without a default needs \
            a value. The widget is drawn as added; 'intents widgets' shows it in the Smart Stack.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var drawing: WidgetDrawingOptions

    @Argument(help: "The widget.", completion: ShellCompletion.names([.widgets]))
    var name: String

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp("A parameter's value: name=value (repeatable).", valueName: "name=value"),
        completion: ShellCompletion.widgetSettings)
    var settings: [String] = []

    @Option(help: "The family it is added in (default: its first).")
    var family: IntentGraph.WidgetFamily?

    func validate() throws {
        _ = try WidgetCommand.settings(settings)
    }

    func run() throws {
        let session = try storeOptions.engine(global).session
        let widget = try WidgetCommand.widget(named: name, in: session.graph)
        guard widget.isConfigurable else {
            Terminal.standardError(
                "error: \(widget.title) has no parameters: it is in the Smart Stack already ('intents widget \(widget.name)')\n"
            )
            throw ExitCode(2)
        }
        if let family, !widget.families.contains(family) {
            throw ValidationError(
                "\(widget.title) does not come in \(family.rawValue); it comes in \(widget.families.map(\.rawValue).joined(separator: ", "))"
            )
        }
        let center = WidgetCenter(graph: session.graph, store: session.store)
        let parameters = try WidgetCommand.configure(widget, settings, center: center, session: session)
        let id = try WidgetCommand.failing {
            try session.store.write { transaction in
                try transaction.addWidgetInstance(
                    "\(widget.app).\(widget.name)", family: family?.rawValue, parameters: parameters,
                    at: session.clock.now)
            }
        }
        let instance = WidgetInstance(widget, id: id, family: family, parameters: parameters)
        let snapshot = try WidgetCommand.failing { try center.snapshot(instance, at: drawing.moment(session.clock)) }
        let shown = family ?? widget.families[0]
        if drawing.json {
            try JSONEnvelope.write(Added(added: id, widgets: [drawing.json(snapshot, family: shown)]))
        } else {
            let settings = snapshot.settings.isEmpty ? "" : " (\(WidgetCommand.describe(snapshot.settings)))"
            print("Added \(widget.title) #\(id)\(settings).")
            print(drawing.draw(snapshot, family: shown, clock: session.clock))
        }
    }
}

/// `widget add --json`'s result: the instance's number and the widget as drawn.
private struct Added: Encodable {
    var added: Int64
    var widgets: [WidgetJSON]
}

/// `intents widget list`: the added widgets, by number.
struct WidgetList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the added configurable widgets, by number.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storeOptions: StoreOptions

    @Flag(help: "Print JSON.")
    var json = false

    struct Entry: Encodable {
        var id: Int64
        var widget: String
        var title: String?
        var family: String?
        var parameters: [String: JSONValue]
        var declared: Bool
    }

    func run() throws {
        let session = try storeOptions.engine(global).session
        let stored = try WidgetCommand.failing { try session.store.read { try $0.widgetInstances() } }
        let entries = stored.map { instance in
            let widget = session.graph.widgets.first { "\($0.app).\($0.name)" == instance.widget }
            return Entry(
                id: instance.id, widget: instance.widget, title: widget?.title, family: instance.family,
                parameters: instance.parameters, declared: widget != nil)
        }
        if json {
            try JSONEnvelope.write(["instances": entries])
            return
        }
        if entries.isEmpty {
            print("No widget is added; add a configurable one with 'intents widget add NAME --set name=value'.")
            return
        }
        let center = WidgetCenter(graph: session.graph, store: session.store)
        for (entry, instance) in zip(entries, stored) {
            var line = "#\(entry.id)  \(ControlCharacters.escaped(TerminalText.oneLine(entry.widget)))"
            if let family = entry.family { line += "  \(family)" }
            if let widget = session.graph.widgets.first(where: { "\($0.app).\($0.name)" == instance.widget }),
                let snapshot = try? center.snapshot(WidgetInstance(widget, instance))
            {
                if !snapshot.settings.isEmpty {
                    line += "  \(ControlCharacters.escaped(WidgetCommand.describe(snapshot.settings)))"
                }
            } else {
                line += "  (no longer declared)"
            }
            print(line)
        }
    }
}

/// `intents widget remove N`: takes an added widget away.
struct WidgetRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove an added widget, by its number in 'intents widget list'.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The added widget's number.")
    var number: Int64

    func run() throws {
        let session = try storeOptions.engine(global).session
        let stored = try WidgetCommand.failing { try session.store.read { try $0.widgetInstances() } }
        guard let instance = stored.first(where: { $0.id == number }) else {
            Terminal.standardError("error: no added widget is numbered \(number); see 'intents widget list'\n")
            throw ExitCode(2)
        }
        _ = try WidgetCommand.failing { try session.store.write { try $0.removeWidgetInstance(number) } }
        let title = session.graph.widgets.first { "\($0.app).\($0.name)" == instance.widget }?.title ?? instance.widget
        print("Removed \(ControlCharacters.escaped(TerminalText.oneLine(title))) #\(number).")
    }
}
