import Foundation
import IntentLanguage
import IntentModel
import IntentProject
import IntentRuntime
import ModelStore

/// Routing deep links in-process: the pure `LinkRouter` per link, and `open` of a link through a
/// conversation (route, look the radar up in the store, run OpenRadar, journal) per link.
func linksBenchmark() throws {
    let rounds = argument("--rounds", default: 20_000)
    let repeats = argument("--repeats", default: 15)
    let project = try Project.load(intents: "Intents", clock: Clock())
    guard let graph = project.graph else {
        print("Intents/ does not compile")
        return
    }
    let router = LinkRouter(graph: graph)
    let links = [
        "radar://open/quantum%20computing", "radar://create?position=bullish&topic=rust+lang",
        "https://radar.app/radar/3f2a1b2c-0000-4000-8000-000000000000/",
        "focusblox://add?title=buy+milk&urgency=urgent&due=2026-12-01", "fortune://compatibility/leo/the%20maiden",
        "sidebar://save?url=https%3A%2F%2Fswift.org%2Fblog&title=Swift", "radar://opne/x", "radar://open/..",
    ]
    for link in links { _ = router.route(link) }
    func time(_ label: String, _ chosen: [String]) {
        var perLink: [Double] = []
        for _ in 0..<repeats {
            let start = DispatchTime.now().uptimeNanoseconds
            for round in 0..<rounds { _ = router.route(chosen[round % chosen.count]) }
            perLink.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(rounds))
        }
        perLink.sort()
        print(
            String(
                format: "LinkRouter.route, %@: median %.2f µs, min %.2f µs per link (%d links × %d repeats)",
                label, perLink[perLink.count / 2] / 1000, perLink[0] / 1000, rounds, repeats))
    }
    time("6 links that route", Array(links.prefix(6)))
    time("2 refused (unknown route, '..')", Array(links.suffix(2)))

    let directory = NSTemporaryDirectory() + "intents-bench-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let session = try Session(
        graph: graph, store: try Store(path: directory + "/store.sqlite", graph: graph, clock: project.clock),
        index: project.index)
    let conversation = Conversation(session: session)
    _ = conversation.respond(to: "create a radar on quantum computing")
    for dryRun in [true, false] {
        conversation.options.dryRun = dryRun
        var opens: [Double] = []
        let count = max(1, rounds / 20)
        for _ in 0..<repeats {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<count {
                guard case .success(let answer) = conversation.open("radar://open/quantum%20computing"),
                    answer.status == (dryRun ? .ready : .done)
                else {
                    print("open failed")
                    return
                }
            }
            opens.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(count))
        }
        opens.sort()
        print(
            String(
                format:
                    "Conversation.open(radar://open/quantum%%20computing), %@: median %.1f µs, min %.1f µs (%d × %d)",
                dryRun
                    ? "resolved (routed, radar looked up, parameters checked; --dry-run)"
                    : "run (also executed, journaled and committed)", opens[opens.count / 2] / 1000, opens[0] / 1000,
                count, repeats))
    }
}
