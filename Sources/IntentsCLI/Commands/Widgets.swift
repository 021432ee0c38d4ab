import ArgumentParser
import Foundation
import IntentEngine
import IntentModel
import IntentRuntime

extension IntentGraph.WidgetFamily: ExpressibleByArgument {}

/// Options the widget commands share: the moment, drawing, JSON.
struct WidgetDrawingOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Show the widgets as at this moment (ISO-8601, or e.g. \"tomorrow at 9\").", valueName: "time"))
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
        var header = "\(snapshot.widget.app) · \(snapshot.widget.title) · \(family.rawValue)"
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
        self.lines = lines
    }
}

struct Widgets: ParsableCommand {
    static let configuration = CommandConfiguration(
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

    @Flag(help: "Keep drawing: again when the store changes or the minute turns; digits press the top widget's buttons, q quits.")
    var watch = false

    func run() throws {
        let engine = try storeOptions.engine(global)
        let session = engine.session
        let center = WidgetCenter(graph: session.graph, store: session.store)
        func stack() throws -> [(WidgetSnapshot, IntentGraph.WidgetFamily)] {
            try WidgetCommand.failing { try center.stack(family: family, at: drawing.moment(session.clock)) }
                .map { ($0, family ?? $0.widget.families[0]) }
        }
        func text(_ drawn: [(WidgetSnapshot, IntentGraph.WidgetFamily)]) -> String {
            drawn.isEmpty
                ? family.map { "No widget comes in \($0.rawValue)." } ?? "No app declares a widget."
                : drawn.map { drawing.draw($0.0, family: $0.1, clock: session.clock) }.joined(separator: "\n\n")
        }
        if watch {
            try WidgetWatcher(session: session, options: .init()) {
                let drawn = try stack()
                return (text(drawn), drawn.first?.0.widget)
            }.run()
        } else if drawing.json {
            print(try JSONText.pretty(try stack().map { drawing.json($0.0, family: $0.1) }))
        } else {
            print(text(try stack()))
        }
    }
}

struct WidgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widget",
        abstract: "Draw one widget, list its timeline, or press one of its buttons.",
        discussion: """
            NAME is the widget's name (QuickCapture), App.Name or its title. --timeline 2h lists the entries the \
            timeline would hold: one at each refresh and one wherever the content changes with time (a due date \
            passing). --press N runs the widget's button N, then draws the widget again, as WidgetKit reloads it.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var drawing: WidgetDrawingOptions

    @Argument(help: "The widget.")
    var name: String

    @Option(help: "The family to draw it in (default: its first); 'all' draws every family it has.")
    var family: String?

    @Option(help: ArgumentHelp("List the timeline entries over this long, e.g. 2h.", valueName: "duration"))
    var timeline: String?

    @Option(help: ArgumentHelp("Press button N (numbered in the drawing).", valueName: "n"))
    var press: Int?

    @Flag(help: "Confirm without asking, when the button's intent asks.")
    var yes = false

    @Flag(help: "Keep drawing: again when the store changes or the minute turns; digits press buttons, q quits.")
    var watch = false

    func validate() throws {
        if let press, press < 1 { throw ValidationError("--press: buttons are numbered from 1") }
        if let timeline, DurationText.parse(timeline).map({ $0 <= 0 || $0 > 7 * 86_400 }) ?? true {
            throw ValidationError("--timeline: expected a duration up to 7 days, such as 2h or 30m")
        }
    }

    func run() throws {
        let engine = try storeOptions.engine(global)
        let session = engine.session
        let widget = try Self.widget(named: name, in: session.graph)
        let families = try self.families(of: widget)
        let center = WidgetCenter(graph: session.graph, store: session.store)
        if let press {
            let answer = try Self.failing {
                try center.press(press, on: widget, session: session, options: .init(confirmAll: yes))
            }
            guard let answer else {
                Terminal.standardError("error: \(widget.title) has no button \(press) now\n")
                throw ExitCode(2)
            }
            if !drawing.json { print(answer.text) }
            if answer.status == .error || answer.isQuestion {
                if drawing.json { print(try JSONText.compact(answer.json)) }
                throw ExitCode(1)
            }
        }
        let moment = try drawing.moment(session.clock)
        if watch {
            try WidgetWatcher(session: session, options: .init(confirmAll: yes)) {
                let snapshot = try Self.failing { try center.snapshot(widget, at: moment) }
                let drawn = families.map { drawing.draw(snapshot, family: $0, clock: session.clock) }
                return (drawn.joined(separator: "\n\n"), widget)
            }.run()
        } else if let timeline, let span = DurationText.parse(timeline) {
            let entries = try Self.failing {
                try center.timeline(widget, from: moment ?? session.clock.now, span: span)
            }
            try show(entries, families: families, clock: session.clock, timeline: true)
        } else {
            let snapshot = try Self.failing { try center.snapshot(widget, at: moment) }
            try show([snapshot], families: families, clock: session.clock, timeline: false)
        }
    }

    private func show(
        _ entries: [WidgetSnapshot], families: [IntentGraph.WidgetFamily], clock: Clock, timeline: Bool
    ) throws {
        if drawing.json {
            print(try JSONText.pretty(entries.flatMap { entry in families.map { drawing.json(entry, family: $0) } }))
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

    private func families(of widget: IntentGraph.Widget) throws -> [IntentGraph.WidgetFamily] {
        guard let family else { return [widget.families[0]] }
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
                "error: '\(name)' names several widgets: \(found.map { "\($0.app).\($0.name)" }.joined(separator: ", "))\n")
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
