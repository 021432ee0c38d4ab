import Foundation
import IntentModel
import IntentProject
import IntentRendering
import IntentRuntime
import ModelStore

/// Every bundled widget computed and drawn in its first family (the Smart Stack), in-process, over a
/// store of `--tasks` tasks (a tenth urgent, a fifth completed, a tenth due within a week); and one
/// widget's 2-hour timeline.
func widgetBenchmark() throws {
    let runs = argument("--runs", default: 21)
    let tasks = argument("--tasks", default: 100_000)
    let directory = NSTemporaryDirectory() + "intents-bench-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let clock = Clock.fixed(Date(timeIntervalSince1970: 1_795_341_600), timeZone: TimeZone(identifier: "UTC")!)
    let project = try Project.load(intents: "Intents", shortcuts: .none, clock: clock)
    guard let graph = project.graph else { throw CocoaError(.featureUnsupported) }
    let store = try Store(path: directory + "/store.sqlite", graph: graph, clock: clock)
    let task = QualifiedName(app: "FocusBlox", name: "Task")
    let seeding = DispatchTime.now().uptimeNanoseconds
    try store.write { transaction in
        for n in 0..<tasks {
            var values: [String: Value] = [
                "title": .string("task number \(n)"), "urgency": .enumCase(n % 10 == 0 ? "urgent" : "not_urgent"),
                "isCompleted": .boolean(n % 5 == 0), "tags": .array([]),
            ]
            if n % 10 == 3 {
                values["due"] = .date(.moment(clock.now.addingTimeInterval(Double(n % 7) * 86_400 + 3_600)))
            }
            _ = try transaction.insert(task, values: values)
        }
    }
    print(
        String(
            format: "widgets over %d tasks (seeded in %.1f s):", tasks,
            Double(DispatchTime.now().uptimeNanoseconds - seeding) / 1e9))
    let center = WidgetCenter(graph: graph, store: store)
    let renderer = WidgetRenderer()
    func stack() throws -> Int {
        try center.stack().reduce(0) { $0 + renderer.render($1, family: $1.widget.families[0]).count }
    }
    _ = try stack()
    var times: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try stack()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    print(
        String(
            format: "  all %d widgets computed and drawn: median %.2f ms, min %.2f ms, max %.2f ms (%d runs)",
            graph.widgets.count, median(times), times.min()!, times.max()!, runs))
    for widget in graph.widgets {
        var each: [Double] = []
        for _ in 0..<max(3, runs / 3) {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = renderer.render(try center.snapshot(widget), family: widget.families[0])
            each.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        print(String(format: "    %@.%@: median %.2f ms", widget.app, widget.name, median(each)))
    }
    let quickCapture = graph.widgets(named: "QuickCapture")[0]
    let start = DispatchTime.now().uptimeNanoseconds
    let entries = try center.timeline(quickCapture, from: clock.now, span: 7_200)
    print(
        String(
            format: "  QuickCapture's 2-hour timeline (120 moments, %d entries): %.0f ms", entries.count,
            Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6))
}
