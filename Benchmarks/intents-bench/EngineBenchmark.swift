import Foundation
import IntentEngine
import IntentModel
import IntentProject
import IntentRuntime
import ModelStore

/// The front door's cost per request against the runtime's `Conversation` it wraps, measured in one
/// run, interleaved: the same phrases through a bare conversation and through `IntentEngine.respond`
/// (which reads the conversation's state from the store and writes it back when it changed), each
/// over its own store. `intents-bench engine [--phrases N] [--repeats N]`.
func engineBenchmark() throws {
    let phrases = argument("--phrases", default: 500)
    let repeats = argument("--repeats", default: 5)
    let directory = NSTemporaryDirectory() + "intents-bench-engine-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let clock = Clock()
    let project = try Project.load(intents: "Intents", clock: clock)
    guard let graph = project.graph, let index = project.index else {
        print("Intents/ does not compile")
        return
    }
    let kinds: [(name: String, phrase: (Int) -> String, dryRun: Bool)] = [
        ("CreateTask, executed", { "add task number \($0) to my tasks" }, false),
        ("CheckCompatibility, executed", { _ in "how compatible are leo and virgo" }, false),
        ("CreateTask, dry run", { "add task number \($0) to my tasks" }, true),
    ]
    print("engine vs bare conversation, \(phrases) phrases × \(repeats) repeats, interleaved (µs per phrase):")
    for kind in kinds {
        var bare: [Double] = [], door: [Double] = []
        for round in 0..<repeats {
            let session = try Session(
                graph: graph,
                store: try Store(
                    path: directory + "/bare-\(kind.name.hashValue)-\(round).sqlite", graph: graph, clock: clock,
                    indexer: SearchDocumentBuilder(graph: graph, clock: clock)),
                index: index)
            let conversation = Conversation(session: session, options: .init(dryRun: kind.dryRun, handoff: true))
            let engine = try IntentEngine(
                .init(
                    definitions: "Intents", store: directory + "/engine-\(kind.name.hashValue)-\(round).sqlite",
                    clock: clock, cacheDirectory: directory))
            let request = EngineRequest(conversation: .make(), dryRun: kind.dryRun)
            var bareNanos: UInt64 = 0, doorNanos: UInt64 = 0
            for number in 0..<phrases {
                let text = kind.phrase(number)
                var start = DispatchTime.now().uptimeNanoseconds
                _ = conversation.respond(to: text)
                bareNanos += DispatchTime.now().uptimeNanoseconds - start
                start = DispatchTime.now().uptimeNanoseconds
                _ = engine.respond(to: text, request)
                doorNanos += DispatchTime.now().uptimeNanoseconds - start
            }
            bare.append(Double(bareNanos) / 1e3 / Double(phrases))
            door.append(Double(doorNanos) / 1e3 / Double(phrases))
        }
        let ratios = zip(door, bare).map { $0 / $1 }
        print(
            String(
                format: "  %@: bare min %.0f median %.0f; engine min %.0f median %.0f; ratio min %.2f median %.2f",
                kind.name, bare.min()!, median(bare), door.min()!, median(door), ratios.min()!, median(ratios)))
    }
}
