import Foundation
import IntentLanguage
import IntentModel
import IntentProject
import IntentRuntime
import ModelStore
import PhraseMatching

/// A cold `intents say` end to end (a new process each time), where its time goes, and
/// executions per second for 10,000 CreateTask phrases in one run.
func runtimeBenchmark() throws {
    let runs = argument("--runs", default: 21)
    let phrases = argument("--phrases", default: 10_000)
    let directory = NSTemporaryDirectory() + "intents-bench-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }

    // 1. Cold `intents say`, as a user runs it: the release binary next to this one.
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
        "intents"
    ).path
    if FileManager.default.isExecutableFile(atPath: binary) {
        func say(_ text: String, store: String) throws -> Double {
            try spawnTimed(binary, ["say", "--store", store, text]).ms
        }
        var fresh: [Double] = [], existing: [Double] = []
        let shared = directory + "/shared.sqlite"
        _ = try say("add warm up to my tasks", store: shared)
        for run in 0..<runs {
            fresh.append(try say("add buy milk to my tasks", store: directory + "/fresh\(run).sqlite"))
            existing.append(try say("add pay rent \(run) to my tasks", store: shared))
        }
        print("cold intents say (\(runs) runs, new process each):")
        print(
            String(
                format: "  new store:      median %.1f ms, min %.1f ms, max %.1f ms", median(fresh), fresh.min()!,
                fresh.max()!))
        print(
            String(
                format: "  existing store: median %.1f ms, min %.1f ms, max %.1f ms", median(existing), existing.min()!,
                existing.max()!))
    } else {
        print("cold intents say: build the release 'intents' first (swift build -c release)")
    }

    // Where a cold start goes, in this process.
    var clock = Stopwatch()
    let project = try Project.load(intents: "Intents", clock: Clock())
    guard let graph = project.graph, let index = project.index else {
        print("Intents/ does not compile")
        return
    }
    let loading = clock.lap()
    let store = try Store(path: directory + "/parts.sqlite", graph: graph, clock: project.clock)
    let opening = clock.lap()
    let session = try Session(graph: graph, store: store, index: index)
    let conversation = Conversation(session: session)
    _ = conversation.respond(to: "add buy milk to my tasks")
    let answering = clock.lap()
    print(
        String(
            format: "  parts: compile + phrase index %.1f ms, store open + migrate %.1f ms, first answer %.1f ms",
            loading, opening, answering))

    // 2. Executions per second: CreateTask phrases, each matched, resolved and executed in its own transaction.
    let bulk = try Session(
        graph: graph, store: try Store(path: directory + "/bulk.sqlite", graph: graph, clock: project.clock),
        index: index)
    let runner = Conversation(session: bulk)
    var failed = 0
    let start = DispatchTime.now().uptimeNanoseconds
    for number in 0..<phrases {
        if runner.respond(to: "add task number \(number) to my tasks").status != .done { failed += 1 }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print(
        String(
            format: "executions: %d CreateTask phrases in %.2f s = %.0f per second (%.0f µs each), %d not done",
            phrases, seconds, Double(phrases) / seconds, seconds * 1e6 / Double(phrases), failed))
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

struct Stopwatch {
    private var last = DispatchTime.now().uptimeNanoseconds

    /// Milliseconds since the last lap.
    mutating func lap() -> Double {
        let now = DispatchTime.now().uptimeNanoseconds
        defer { last = now }
        return Double(now - last) / 1e6
    }
}
