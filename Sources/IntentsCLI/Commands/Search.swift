import ArgumentParser
import Foundation
import IntentModel
import IntentRendering
import IntentRuntime
import ModelStore

struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find entities and actions, like Spotlight: “intents search einkaufen milch”.",
        discussion: """
            Entities whose definitions declare `searchable:` are found by their title, description and \
            keywords; intents and app shortcuts are found as actions. Every word must match: as a word, \
            the start of one, its stem, or with one typo (two in longer words). --explain says why each \
            hit matched and why it ranks where it does. At a terminal, choose a hit by its number to open it.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "What to look for.")
    var words: [String] = []

    @Flag(help: "Print the hits as JSON.")
    var json = false

    @Option(help: "At most this many hits.")
    var limit = 10

    @Flag(help: "Say why each hit matched: the words, how they matched, the score parts.")
    var explain = false

    @Option(help: "Open hit number N: print the entity's details or the action's phrases.")
    var open: Int?

    @Flag(help: "Rebuild the search index from the store's records.")
    var reindex = false

    func validate() throws {
        if words.isEmpty && !reindex { throw ValidationError("Say what to look for, or pass --reindex.") }
        if limit < 1 || limit > 1000 { throw ValidationError("--limit is between 1 and 1000.") }
        // Standard output holds envelopes only with --json (docs/json.md); a hit's details are text.
        if json, open != nil { throw ValidationError("--open prints a hit's details as text; leave out --json") }
    }

    func run() throws {
        let (project, graph) = try global.loadGraph()
        let store = try storeOptions.open(graph, clock: project.clock)
        if reindex {
            let started = Date()
            let count = try StoreCommand.failing { try store.write { try $0.reindexSearch() } }
            let seconds = Date().timeIntervalSince(started)
            let note = "Indexed \(count) item\(count == 1 ? "" : "s") in \(String(format: "%.2f", seconds)) s."
            if json { Terminal.standardError(note + "\n") } else { print(note) }
            if words.isEmpty { return }
        }
        let engine = SearchEngine(graph: graph)
        let result = try StoreCommand.failing {
            try engine.search(words.joined(separator: " "), store: store, now: project.clock.now, limit: limit)
        }
        if json {
            JSONEnvelope.write(result.json(graph: graph))
        } else {
            print(SearchRenderer.render(result, explain: explain), terminator: "")
        }
        var choice = open
        if choice == nil, !json, !result.hits.isEmpty, isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 {
            print("Open which? (1–\(result.hits.count), Enter for none) ", terminator: "")
            choice = readLine().flatMap { Int($0.trimmed) }
        }
        guard let choice else { return }
        guard result.hits.indices.contains(choice - 1) else {
            Terminal.standardError("error: there is no hit \(choice) (there are \(result.hits.count))\n")
            throw ExitCode(1)
        }
        print(
            try StoreCommand.failing {
                try SearchRenderer.details(of: result.hits[choice - 1], graph: graph, store: store)
            }, terminator: "")
    }
}
