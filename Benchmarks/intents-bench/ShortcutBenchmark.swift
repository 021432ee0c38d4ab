import Foundation
import IntentLanguage
import IntentModel
import IntentRuntime
import ModelStore
import PhraseMatching

/// Steps per second for a shortcut whose `repeat` calls CreateTask 10,000 times.
func shortcutBenchmark() throws {
    let rounds = argument("--rounds", default: 10_000)
    let directory = NSTemporaryDirectory() + "intents-bench-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let file = directory + "/bulk.yaml"
    try """
    shortcut: Bulk
    steps:
      - repeat: \(rounds)
        as: n
        do:
          - intent: FocusBlox.CreateTask
            with: { title: "task ${n}" }
    """.write(toFile: file, atomically: true, encoding: .utf8)

    guard let graph = try IntentCompiler.compile(directory: "Intents").graph else { print("Intents/ does not compile"); return }
    let index = PhraseIndex(graph: graph)
    let matcher = Matcher(index: index)
    let compilation = ShortcutCompiler.compile(path: file, graph: graph, matcher: matcher)
    guard let shortcut = compilation.shortcut else { print("the benchmark shortcut does not compile"); return }
    for atomic in [false, true] {
        let session = try Session(graph: graph, store: try Store(path: directory + "/store-\(atomic).sqlite", graph: graph), index: index)
        var options = ShortcutRunner.Options()
        options.atomic = atomic
        let runner = ShortcutRunner(session: session, shortcuts: compilation.shortcuts, options: options, prompt: nil)
        let start = DispatchTime.now().uptimeNanoseconds
        let result = runner.run(shortcut)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if case .failed(let failure) = result.ending { print("failed: \(failure.message)"); return }
        let tasks = try session.store.read { try $0.count(RecordQuery(entity: QualifiedName(app: "FocusBlox", name: "Task"))) }
        print(String(format: "shortcut repeat %d × CreateTask%@: %d steps in %.2f s = %.0f steps per second (%d tasks stored)",
                     rounds, atomic ? " (--atomic, one transaction)" : " (a transaction each)", result.steps, seconds, Double(result.steps) / seconds, tasks))
    }
}
