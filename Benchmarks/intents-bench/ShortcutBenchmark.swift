import Foundation
import IntentLanguage
import IntentModel
import IntentProject
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

    let project = try Project.load(intents: "Intents", shortcuts: .files([file]), clock: Clock())
    guard let graph = project.graph, let index = project.index else {
        print("Intents/ does not compile")
        return
    }
    guard let shortcut = project.shortcut(at: file) else {
        print("the benchmark shortcut does not compile")
        return
    }
    for atomic in [false, true] {
        let session = try Session(
            graph: graph,
            store: try Store(path: directory + "/store-\(atomic).sqlite", graph: graph, clock: project.clock),
            index: index)
        var options = ShortcutRunner.Options()
        options.atomic = atomic
        let runner = ShortcutRunner(session: session, shortcuts: project.shortcuts, options: options, prompt: nil)
        let start = DispatchTime.now().uptimeNanoseconds
        let result = runner.run(shortcut)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if case .failed(let failure) = result.ending {
            print("failed: \(failure.message)")
            return
        }
        let tasks = try session.store.read {
            try $0.count(RecordQuery(entity: QualifiedName(app: "FocusBlox", name: "Task")))
        }
        print(
            String(
                format:
                    "shortcut repeat %d × CreateTask%@: %d steps in %.2f s = %.0f steps per second (%d tasks stored)",
                rounds, atomic ? " (--atomic, one transaction)" : " (a transaction each)", result.steps, seconds,
                Double(result.steps) / seconds, tasks))
    }
}
