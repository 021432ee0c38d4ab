import ArgumentParser
import Foundation
import IntentEngine
import IntentModel
import IntentRendering
import IntentRuntime

extension IntentGraph.WidgetFamily: ExpressibleByArgument {}

/// Options the widget commands share: the moment, drawing, JSON.
struct WidgetDrawingOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Show the widgets as at this moment (ISO-8601, or e.g. \"tomorrow at 9\").", valueName: "time"))
    var at: String?

    @Flag(help: "Draw with ASCII instead of Unicode box drawing.")
    var ascii = false

    @Flag(help: "Say which relevance rule gave each widget its score.")
    var explain = false

    @Flag(help: "Print JSON instead of drawing.")
    var json = false

    /// `--at` as a moment of the store's clock.
    func moment(_ clock: Clock) throws -> Date? { try Self.moment(at, clock) }

    static func moment(_ at: String?, _ clock: Clock) throws -> Date? {
        guard let at else { return nil }
        if let date = ISODate.parse(at, timeZone: clock.timeZone) { return date }
        if let value = DateValue.parse(at) { return clock.resolve(value) }
        throw ValidationError("--at: expected an ISO-8601 moment or a date like \"tomorrow at 9\", not '\(at)'")
    }

    /// How to draw, as a plain value: a hand-built `ParsableArguments` cannot be read (the REPL
    /// draws with `WidgetDrawing()`, never with `WidgetDrawingOptions()`).
    var style: WidgetDrawing { WidgetDrawing(ascii: ascii, explain: explain) }

    func draw(_ snapshot: WidgetSnapshot, family: IntentGraph.WidgetFamily, clock: Clock) -> String {
        style.draw(snapshot, family: family, clock: clock)
    }

    func json(_ snapshot: WidgetSnapshot, family: IntentGraph.WidgetFamily) -> WidgetJSON {
        style.json(snapshot, family: family)
    }
}

/// Draws widget snapshots: Unicode boxes (ASCII when asked or on a dumb terminal), a header line.
struct WidgetDrawing {
    var ascii = false
    /// Say which relevance rule gave each widget its score.
    var explain = false

    var renderer: WidgetRenderer {
        WidgetRenderer(ascii: ascii || ProcessInfo.processInfo.environment["TERM"] == "dumb")
    }

    func draw(_ snapshot: WidgetSnapshot, family: IntentGraph.WidgetFamily, clock: Clock) -> String {
        var header = "\(snapshot.widget.app) · \(snapshot.widget.title)"
        if let instance = snapshot.instance { header += " #\(instance)" }
        if !snapshot.settings.isEmpty { header += " (\(WidgetCommand.describe(snapshot.settings)))" }
        header += " · \(family.rawValue)"
        if explain { header += " · relevance \(snapshot.relevance.explanation)" }
        return ([header] + renderer.render(snapshot, family: family)).joined(separator: "\n")
    }

    func json(_ snapshot: WidgetSnapshot, family: IntentGraph.WidgetFamily) -> WidgetJSON {
        WidgetJSON(snapshot, family: family, lines: renderer.render(snapshot, family: family))
    }
}

/// A widget snapshot as `--json` prints it.
struct WidgetJSON: Encodable {
    struct Relevance: Encodable {
        var score: Int
        var rule: Int?
        var explanation: String
    }

    struct Item: Encodable {
        var id: String
        var line: String
        var detail: String?
        var link: String?
        var buttons: [Button]
    }

    struct Button: Encodable {
        var number: Int
        var title: String
    }

    struct Figure: Encodable {
        var value: String
        var label: String?
    }

    var app: String
    var widget: String
    var title: String?
    var family: String
    var date: String
    var relevance: Relevance
    var value: String?
    var label: String?
    var gauge: Double?
    var items: [Item]
    var empty: String?
    var text: String?
    var figures: [Figure]
    var link: String?
    var buttons: [Button]
    var instance: Int64?
    var parameters: [String: String]
    var lines: [String]

    init(_ snapshot: WidgetSnapshot, family: IntentGraph.WidgetFamily, lines: [String]) {
        app = snapshot.widget.app
        widget = snapshot.widget.name
        title = snapshot.title
        self.family = family.rawValue
        date = ISODate.format(snapshot.date)
        relevance = Relevance(
            score: snapshot.relevance.score, rule: snapshot.relevance.rule.map { $0 + 1 },
            explanation: snapshot.relevance.explanation)
        value = snapshot.value
        label = snapshot.label
        gauge = snapshot.gauge
        items = snapshot.items.map { item in
            Item(
                id: item.id, line: item.line, detail: item.detail, link: item.link,
                buttons: item.buttons.map { Button(number: $0.number, title: $0.title) })
        }
        empty = snapshot.empty
        text = snapshot.text
        figures = snapshot.figures.map { Figure(value: $0.value, label: $0.label) }
        link = snapshot.link
        buttons = snapshot.buttons.map { Button(number: $0.number, title: $0.title) }
        instance = snapshot.instance
        parameters = Dictionary(snapshot.settings.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        self.lines = lines
    }
}

struct Widgets: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widgets",
        abstract: "The Smart Stack: every widget, most relevant first, drawn in its family.",
        discussion: """
            Each widget is computed from the store and ranked by its first relevance rule that holds; ties keep \
            the order the apps declare them in. --family draws every widget that has that family in it; \
            otherwise each is drawn in its first family.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var drawing: WidgetDrawingOptions

    @Option(help: "Only widgets of this family, drawn in it.")
    var family: IntentGraph.WidgetFamily?

    @Flag(
        help:
            "Keep drawing: again when the store changes or the minute turns; digits press the top widget's buttons, q quits."
    )
    var watch = false

    func run() throws {
        let engine = try storeOptions.engine(global)
        let session = engine.session
        let center = WidgetCenter(graph: session.graph, store: session.store)
        func stack() throws -> [(WidgetSnapshot, IntentGraph.WidgetFamily)] {
            try WidgetCommand.failing { try center.stack(family: family, at: drawing.moment(session.clock)) }
                .map { ($0, family ?? $0.family ?? $0.widget.families[0]) }
        }
        func text(_ drawn: [(WidgetSnapshot, IntentGraph.WidgetFamily)]) -> String {
            drawn.isEmpty
                ? family.map { "No widget comes in \($0.rawValue)." } ?? "No app declares a widget."
                : drawn.map { drawing.draw($0.0, family: $0.1, clock: session.clock) }.joined(separator: "\n\n")
        }
        if watch {
            try WidgetWatcher(session: session, options: .init()) {
                let drawn = try stack()
                return (text(drawn), drawn.first.map { $0.0.source ?? WidgetInstance($0.0.widget) })
            }.run()
        } else if drawing.json {
            try JSONEnvelope.write(["widgets": try stack().map { drawing.json($0.0, family: $0.1) }])
        } else {
            print(text(try stack()))
        }
    }
}

/// `intents widget NAME …` (drawn by `show`, the default), `widget add`, `widget list`, `widget remove`.
struct WidgetGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widget",
        abstract: "Draw one widget, press its buttons, open its links; add, list and remove configured ones.",
        discussion: """
            'intents widget NAME' draws a widget ('show' is the default subcommand). A configurable widget \
            (one with parameters, like WidgetKit's AppIntentConfiguration) is added with its values chosen: \
            'intents widget add RadarFocus --set radar=rust'; the Smart Stack then shows it, 'widget list' \
            lists the added ones and 'widget remove N' takes one away.
            """,
        subcommands: [WidgetCommand.self, WidgetAdd.self, WidgetList.self, WidgetRemove.self],
        defaultSubcommand: WidgetCommand.self
    )
}

struct WidgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Draw one widget, list its timeline, press one of its buttons or open a link.",
        discussion: """
            NAME is the widget's name (QuickCapture), App.Name or its title. --timeline 2h lists the entries the \
            timeline would hold: one at each refresh and one wherever the content changes with time (a due date \
            passing). --press N runs the widget's button N, then draws the widget again, as WidgetKit reloads it. \
            --open N taps item N (from 1, in the order drawn) and --open widget taps the widget itself: the \
            link it opens runs its intent, as 'intents open' does. A configurable widget is drawn as added \
            (--instance N chooses one of several), or as previewed with --set name=value.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var drawing: WidgetDrawingOptions

    @Argument(help: "The widget.", completion: ShellCompletion.names([.widgets]))
    var name: String

    @Option(help: "The family to draw it in (default: its first); 'all' draws every family it has.")
    var family: String?

    @Option(help: ArgumentHelp("List the timeline entries over this long, e.g. 2h.", valueName: "duration"))
    var timeline: String?

    @Option(help: ArgumentHelp("Press button N (numbered in the drawing).", valueName: "n"))
    var press: Int?

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "A configurable widget's parameter, as a preview: name=value (repeatable).", valueName: "name=value"),
        completion: ShellCompletion.widgetSettings)
    var settings: [String] = []

    @Option(help: ArgumentHelp("Which added widget, by its number in 'intents widget list'.", valueName: "n"))
    var instance: Int64?

    @Option(
        help: ArgumentHelp(
            "Tap item N's link (from 1), or 'widget' for the widget's own: run its intent.", valueName: "n|widget"))
    var open: String?

    @Flag(help: "Confirm without asking, when the button's intent asks.")
    var yes = false

    @Flag(help: "Keep drawing: again when the store changes or the minute turns; digits press buttons, q quits.")
    var watch = false

    func validate() throws {
        if let press, press < 1 { throw ValidationError("--press: buttons are numbered from 1") }
        if let open, open != "widget", (Int(open) ?? 0) < 1 {
            throw ValidationError("--open: expected an item's number (from 1) or 'widget', not '\(open)'")
        }
        if press != nil, open != nil { throw ValidationError("--press and --open: one at a time") }
        if instance != nil, !settings.isEmpty { throw ValidationError("--set and --instance: choose one") }
        _ = try Self.settings(settings)
        if let timeline, DurationText.parse(timeline).map({ $0 <= 0 || $0 > 7 * 86_400 }) ?? true {
            throw ValidationError("--timeline: expected a duration up to 7 days, such as 2h or 30m")
        }
    }

    func run() throws {
        let engine = try storeOptions.engine(global)
        let session = engine.session
        let widget = try Self.widget(named: name, in: session.graph)
        let center = WidgetCenter(graph: session.graph, store: session.store)
        let instances = try self.instances(of: widget, center: center, session: session)
        if press != nil || open != nil || watch || timeline != nil, instances.count > 1 {
            let numbers = instances.compactMap(\.id).map { "#\($0)" }.joined(separator: ", ")
            Terminal.standardError(
                "error: \(widget.title) is added \(instances.count) times (\(numbers)): choose one with --instance N\n")
            throw ExitCode(2)
        }
        if let press {
            let answer = try Self.failing {
                try center.press(press, on: instances[0], session: session, options: .init(confirmAll: yes))
            }
            guard let answer else {
                Terminal.standardError("error: \(widget.title) has no button \(press) now\n")
                throw ExitCode(2)
            }
            if !drawing.json { print(answer.text) }
            if answer.status == .error || answer.isQuestion {
                if drawing.json { try JSONEnvelope.write(answer.json) }
                throw ExitCode(1)
            }
        }
        if let open {
            try self.open(open, on: instances[0], center: center, engine: engine)
            return
        }
        let moment = try drawing.moment(session.clock)
        if watch {
            let families = try self.families(of: instances[0])
            try WidgetWatcher(session: session, options: .init(confirmAll: yes)) {
                let snapshot = try Self.failing { try center.snapshot(instances[0], at: moment) }
                let drawn = families.map { drawing.draw(snapshot, family: $0, clock: session.clock) }
                return (drawn.joined(separator: "\n\n"), instances[0])
            }.run()
        } else if let timeline, let span = DurationText.parse(timeline) {
            let entries = try Self.failing {
                try center.timeline(instances[0], from: moment ?? session.clock.now, span: span)
            }
            try show(entries, families: try families(of: instances[0]), clock: session.clock, timeline: true)
        } else {
            var entries: [(WidgetSnapshot, [IntentGraph.WidgetFamily])] = []
            for instance in instances {
                entries.append(
                    (try Self.failing { try center.snapshot(instance, at: moment) }, try families(of: instance)))
            }
            if drawing.json {
                try JSONEnvelope.write([
                    "widgets": entries.flatMap { entry in entry.1.map { drawing.json(entry.0, family: $0) } }
                ])
            } else {
                print(
                    entries.flatMap { entry in entry.1.map { drawing.draw(entry.0, family: $0, clock: session.clock) } }
                        .joined(separator: "\n\n"))
            }
        }
    }

    /// Taps the widget or one of its items: the link it opens now runs its intent, as `intents open`.
    private func open(_ which: String, on instance: WidgetInstance, center: WidgetCenter, engine: IntentEngine) throws {
        let item = which == "widget" ? nil : Int(which)
        let link = try Self.failing { try center.link(item, on: instance) }
        guard let link else {
            Terminal.standardError(
                item.map { "error: \(instance.widget.title) has no item \($0) now\n" }
                    ?? "error: \(instance.widget.title) has no link of its own; its items may: --open 1\n")
            throw ExitCode(2)
        }
        if !drawing.json { print("Opening \(TerminalText.oneLine(link))") }
        let request = EngineRequest(conversation: .make(), confirmAll: yes, kept: false)
        switch engine.open(link, request) {
        case .failure(let error):
            throw Open.refuse(error, json: drawing.json)
        case .success(let answer):
            try Conversing.finish(answer, in: engine, request, json: drawing.json)
        }
    }

    /// The widgets to draw: the one added as --instance N; a preview configured with --set; the
    /// added ones of a configurable widget; or the widget itself.
    private func instances(
        of widget: IntentGraph.Widget, center: WidgetCenter, session: Session
    ) throws -> [WidgetInstance] {
        let qualified = "\(widget.app).\(widget.name)"
        if let instance {
            let stored = try Self.failing { try session.store.read { try $0.widgetInstances() } }
            guard let found = stored.first(where: { $0.id == instance && $0.widget == qualified }) else {
                Terminal.standardError(
                    "error: no added \(widget.title) is numbered \(instance); see 'intents widget list'\n")
                throw ExitCode(2)
            }
            return [WidgetInstance(widget, found)]
        }
        if widget.isConfigurable, settings.isEmpty {
            let added = try Self.failing { try session.store.read { try $0.widgetInstances() } }
                .filter { $0.widget == qualified }
            if !added.isEmpty { return added.map { WidgetInstance(widget, $0) } }
        }
        let parameters = try Self.configure(widget, settings, center: center, session: session)
        return [WidgetInstance(widget, parameters: parameters)]
    }

    /// `--set` values checked against the widget's parameters; a problem is an error with status 2.
    static func configure(
        _ widget: IntentGraph.Widget, _ settings: [String], center: WidgetCenter, session: Session
    ) throws -> [String: JSONValue] {
        switch center.configure(widget, settings: try Self.settings(settings), router: session.linkRouter) {
        case .success(let parameters): return parameters
        case .failure(let error):
            let hint =
                widget.isConfigurable && settings.isEmpty
                ? "\nhint: add it with 'intents widget add \(widget.name) "
                    + widget.parameters.filter(\.isRequired).map { "--set \($0.name)=…" }.joined(separator: " ") + "'"
                : ""
            Terminal.standardError("error: \(ControlCharacters.escaped(TerminalText.oneLine(error.message)))\(hint)\n")
            throw ExitCode(2)
        }
    }

    /// `name=value` pairs as typed.
    static func settings(_ raw: [String]) throws -> [(name: String, value: String)] {
        try raw.map { text in
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw ValidationError(
                    "--set: expected name=value, not '\(ControlCharacters.escaped(TerminalText.oneLine(text)))'")
            }
            return (String(text[..<equals]), String(text[text.index(after: equals)...]))
        }
    }

    /// `radar: rust, position: Positive`.
    static func describe(_ settings: [WidgetSnapshot.Setting]) -> String {
        settings.map { "\($0.name): \($0.value)" }.joined(separator: ", ")
    }

    private func show(
        _ entries: [WidgetSnapshot], families: [IntentGraph.WidgetFamily], clock: Clock, timeline: Bool
    ) throws {
        if drawing.json {
            try JSONEnvelope.write([
                "widgets": entries.flatMap { entry in families.map { drawing.json(entry, family: $0) } }
            ])
            return
        }
        var blocks: [String] = []
        for entry in entries {
            for family in families {
                let drawn = drawing.draw(entry, family: family, clock: clock)
                blocks.append(timeline ? "at \(clock.describe(entry.date, at: entries[0].date)) · \(drawn)" : drawn)
            }
        }
        print(blocks.joined(separator: "\n\n"))
    }

    private func families(of instance: WidgetInstance) throws -> [IntentGraph.WidgetFamily] {
        let widget = instance.widget
        guard let family else { return [instance.family ?? widget.families[0]] }
        if family == "all" { return widget.families }
        guard let known = IntentGraph.WidgetFamily(rawValue: family) else {
            throw ValidationError(
                "--family: unknown family '\(family)'; one of \(IntentGraph.WidgetFamily.allCases.map(\.rawValue).joined(separator: ", ")), all"
            )
        }
        guard widget.families.contains(known) else {
            throw ValidationError(
                "\(widget.title) does not come in \(family); it comes in \(widget.families.map(\.rawValue).joined(separator: ", "))"
            )
        }
        return [known]
    }

    static func widget(named name: String, in graph: IntentGraph) throws -> IntentGraph.Widget {
        let found = graph.widgets(named: name)
        if found.count == 1 { return found[0] }
        let all = graph.widgets.map { "\($0.app).\($0.name)" }
        if found.isEmpty {
            let names = graph.widgets.flatMap { [$0.name, $0.title] }
            let hint =
                EditDistance.closest(to: name, in: names).map { "; did you mean '\($0)'?" }
                ?? (all.isEmpty ? "" : "; widgets: \(all.joined(separator: ", "))")
            Terminal.standardError("error: no widget named '\(name)'\(hint)\n")
        } else {
            Terminal.standardError(
                "error: '\(name)' names several widgets: \(found.map { "\($0.app).\($0.name)" }.joined(separator: ", "))\n"
            )
        }
        throw ExitCode(2)
    }

    /// Runs `body`; a failure computing a widget (an expression that cannot be evaluated over this
    /// store) is an error with exit status 1.
    static func failing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ValidationError {
            throw error
        } catch {
            Terminal.standardError("error: \(error)\n")
            throw ExitCode(1)
        }
    }
}
