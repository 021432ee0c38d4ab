import ArgumentParser
import Foundation
import IntentEngine
import IntentModel
import IntentRendering
import IntentRuntime

extension LiveActivityRenderer.Presentation: ExpressibleByArgument {}

struct Activities: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activities",
        abstract: "Live activities: what runs now, with its progress, countdown and state.",
        discussion: """
            Activities are started, updated and ended by intents and shortcut steps and kept in the store, so \
            every shell sees the same ones. Each is a line: its title, progress bar, countdown or percentage, \
            and state (active; stale when not updated for its stale time or when its countdown has passed; \
            ended, still shown on the lock screen until it is dismissed). The system ends an activity eight \
            hours after it starts. --presentation draws one of the Dynamic Island's presentations or the lock \
            screen banner instead.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storeOptions: StoreOptions

    @Option(
        help: ArgumentHelp(
            "Show the activities as at this moment (ISO-8601, or e.g. \"today at 9\").", valueName: "time"))
    var at: String?

    @Option(help: "Draw this presentation of each: compact, minimal, expanded or lockScreen.")
    var presentation: LiveActivityRenderer.Presentation?

    @Flag(help: "Include activities dismissed in the last day.")
    var all = false

    @Flag(help: "Draw with ASCII instead of Unicode.")
    var ascii = false

    @Flag(help: "Keep drawing, every second and when the store changes; q quits.")
    var watch = false

    @Flag(help: "Print JSON instead of drawing.")
    var json = false

    func run() throws {
        let engine = try storeOptions.engine(global)
        let session = engine.session
        let center = LiveActivityCenter(graph: session.graph, store: session.store)
        let moment = try WidgetDrawingOptions.moment(at, session.clock)
        let renderer = LiveActivityRenderer(ascii: ascii || ProcessInfo.processInfo.environment["TERM"] == "dumb")
        func current() throws -> [LiveActivitySnapshot] {
            try WidgetCommand.failing { try center.current(at: moment, dismissed: all) }
        }
        func text(_ snapshots: [LiveActivitySnapshot]) -> String {
            guard !snapshots.isEmpty else { return "No live activity." }
            let clock = Clock.fixed(moment ?? session.clock.now, timeZone: session.clock.timeZone)
            guard let presentation else { return renderer.lines(snapshots, clock: clock).joined(separator: "\n") }
            return snapshots.map { snapshot in
                (["\(snapshot.activity.app) · \(snapshot.activity.title) · \(presentation.rawValue)"]
                    + renderer.render(snapshot, presentation, clock: clock)).joined(separator: "\n")
            }.joined(separator: "\n\n")
        }
        if watch {
            try WidgetWatcher(session: session, options: .init(), draw: { (text(try current()), nil) }, tick: 1).run()
        } else if json {
            JSONEnvelope.write(JSONValue.object(["activities": .array(try current().map(\.json))]))
        } else {
            print(text(try current()))
        }
    }
}
