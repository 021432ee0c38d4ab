import ArgumentParser
import Foundation
import IntentModel
import IntentRuntime
import ModelStore

struct Suggest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest",
        abstract: "What to offer now, learned from donations: “intents suggest --explain”.",
        discussion: """
            Ranks the intents that declare `donate:` by frequency, recency, time of day, day of week and \
            what usually follows the last intent run; each suggestion carries the parameter values used \
            most. --explain prints the parts of each score. --forget INTENT deletes its donations.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storeOptions: StoreOptions

    @Option(
        help: ArgumentHelp(
            "Suggest for this moment (ISO-8601, or e.g. \"tomorrow at 9\") instead of now.", valueName: "time"))
    var at: String?

    @Flag(help: "Print the suggestions as JSON.")
    var json = false

    @Flag(help: "Print the parts of each score.")
    var explain = false

    @Option(help: "At most this many suggestions.")
    var limit = 3

    @Option(
        help: "Delete every donation of this intent (Name or App.Name).", completion: ShellCompletion.names([.intents]))
    var forget: String?

    func validate() throws {
        if limit < 1 || limit > 100 { throw ValidationError("--limit is between 1 and 100.") }
        if json, forget != nil { throw ValidationError("--forget answers in text; leave out --json") }
    }

    func run() throws {
        let (project, graph) = try global.loadGraph()
        let store = try storeOptions.open(graph, clock: project.clock)
        if let forget {
            let found = graph.intents(named: forget)
            guard found.count == 1, let intent = found.first else {
                let names = graph.intents.map(\.name.name)
                let hint = EditDistance.closest(to: forget, in: names).map { "; did you mean '\($0)'?" } ?? ""
                Terminal.standardError("error: unknown intent '\(forget)'\(hint)\n")
                throw ExitCode(1)
            }
            let count = try StoreCommand.failing { try store.write { try $0.forgetDonations(intent: intent.name) } }
            print("Forgot \(count) donation\(count == 1 ? "" : "s") of \(intent.title).")
            return
        }
        // One parser for `--at`, the widgets'.
        let now = try WidgetDrawingOptions.moment(at, project.clock) ?? project.clock.now
        let suggestions = try StoreCommand.failing {
            try SuggestionModel(graph: graph).suggest(store: store, now: now, limit: limit)
        }
        if json {
            let items: [JSONValue] = suggestions.map { suggestion in
                var parameters: [String: JSONValue] = [:]
                for (name, value) in suggestion.parameters { parameters[name] = value }
                let score = suggestion.score
                return .object([
                    "intent": .string(suggestion.intent.description), "title": .string(suggestion.title),
                    "text": .string(suggestion.text), "parameters": .object(parameters),
                    "confidence": .number((suggestion.confidence * 1000).rounded() / 1000),
                    "score": .object([
                        "frequency": .number(score.frequency), "recency": .number(score.recency),
                        "timeOfDay": .number(score.timeOfDay), "dayOfWeek": .number(score.dayOfWeek),
                        "sequence": .number(score.sequence), "total": .number(score.total),
                    ]),
                ])
            }
            JSONEnvelope.write(JSONValue.object(["suggestions": .array(items)]))
            return
        }
        guard !suggestions.isEmpty else {
            print("No suggestions yet: intents that declare donate: are learned from as they run.")
            return
        }
        for (index, suggestion) in suggestions.enumerated() {
            print("\(index + 1). \(suggestion.text) — \(Int((suggestion.confidence * 100).rounded()))%")
            if explain { print("   \(suggestion.score)") }
        }
    }
}

struct Tips: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tips",
        abstract: "Every Siri tip, where it is shown and whether it was shown or dismissed.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storeOptions: StoreOptions

    @Flag(help: "Print the tips as JSON.")
    var json = false

    func run() throws {
        let (project, graph) = try global.loadGraph()
        let store = try storeOptions.open(graph, clock: project.clock)
        let (entries, off) = try StoreCommand.failing { try TipBoard(graph: graph).entries(store: store) }
        if json {
            let items: [JSONValue] = entries.map { entry in
                .object([
                    "app": .string(entry.tip.app), "intent": .string(entry.tip.intent.description),
                    "placement": .string(entry.tip.placement.rawValue), "language": .string(entry.tip.language),
                    "text": .string(entry.tip.text), "declared": .bool(entry.tip.declared),
                    "shown": entry.shown.map { .string(ISODate.format($0)) } ?? .null,
                    "dismissed": .bool(entry.dismissed),
                ])
            }
            JSONEnvelope.write(JSONValue.object(["off": .bool(off), "tips": .array(items)]))
            return
        }
        if off { print("Tips are off (:tips on at the prompt turns them on).") }
        for entry in entries {
            let state =
                entry.dismissed ? "dismissed" : entry.shown.map { "shown \(project.clock.describe($0))" } ?? "not shown"
            let origin = entry.tip.declared ? "" : " (derived)"
            print(
                "\(entry.tip.app) · \(entry.tip.placement.rawValue) · \(entry.tip.language): \(entry.tip.text)\(origin) — \(state)"
            )
        }
    }
}
