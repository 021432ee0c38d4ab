import Foundation
import IntentModel
import IntentProject
import IntentRuntime
import ModelStore

/// `intents-bench search`: a store of many tasks (1,000,000 by default) written with the search
/// index on; then search latency in-process (p50, p99) over a mix of queries, the cost the index
/// adds to a one-record write transaction, and a full `--reindex`.
func searchBenchmark() throws {
    let tasks = argument("--tasks", default: 1_000_000)
    let queries = argument("--queries", default: 2_000)
    let writes = argument("--writes", default: 2_000)
    let repeats = argument("--repeats", default: 3)
    let clock = Clock(timeZone: TimeZone(identifier: "UTC")!)
    let project = try Project.load(intents: "Intents", clock: clock)
    guard let graph = project.graph else {
        print("Intents/ does not compile")
        return
    }
    let directory = NSTemporaryDirectory() + "intents-bench-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // --keep PATH: build the store there once and reuse it (queries only: --writes 0 --reindex 0).
    let kept = CommandLine.arguments.firstIndex(of: "--keep").map { CommandLine.arguments[$0 + 1] }
    let path = kept ?? directory + "/search.sqlite"
    let reuse = kept.map { FileManager.default.fileExists(atPath: $0) } ?? false
    let reindexRuns = argument("--reindex", default: 2)
    let indexer = SearchDocumentBuilder(graph: graph, clock: clock)
    let store = try Store(path: path, graph: graph, clock: clock, indexer: indexer)
    let task = QualifiedName(app: "FocusBlox", name: "Task")

    // A vocabulary of 30,000 made-up words (syllables), tags from 200 of them: each title word is
    // in about 130 of a million titles, each tag in thousands.
    var random = UsageHistory(seed: 7)
    let syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "te", "vi", "do", "pe", "gu", "ba", "zo", "fi", "ho", "ja"]
    var vocabulary: [String] = []
    var seen: Set<String> = []
    while vocabulary.count < 30_000 {
        let count = 2 + Int(random.next() % 3)
        let word = (0..<count).map { _ in random.pick(syllables) }.joined() + String(random.next() % 10)
        if seen.insert(word).inserted { vocabulary.append(word) }
    }
    let tags = Array(vocabulary.prefix(200))
    func title() -> String {
        (0..<(3 + Int(random.next() % 3))).map { _ in random.pick(vocabulary) }.joined(separator: " ")
    }

    // 1. Fill: tasks written in transactions of 10,000, indexed as they are written; 1 in 5 completed
    // (not indexed).
    var watch = Stopwatch()
    var written = 0
    var titles: [String] = []
    if reuse {
        titles = try store.read { transaction in
            try transaction.fetch(RecordQuery(entity: task, limit: 20_000)).compactMap {
                if case .string(let text)? = $0["title"] { return text }
                return nil
            }
        }
        written = tasks
    }
    while written < tasks {
        let batch = min(10_000, tasks - written)
        try store.write { transaction in
            for _ in 0..<batch {
                let text = title()
                if titles.count < 20_000 { titles.append(text) }
                var values: [String: Value] = [
                    "title": .string(text), "tags": .array([.string(random.pick(tags))]),
                    "isCompleted": .boolean(random.chance(0.2)),
                ]
                if random.chance(0.3) { values["notes"] = .string(title()) }
                try transaction.insert(task, values: values)
            }
        }
        written += batch
    }
    let fill = watch.lap() / 1000
    let indexed = try store.read { try $0.searchIndexCount() }
    print(
        String(
            format: "search: %d tasks written with the index on in %.1f s (%.1f µs each), %d indexed", tasks, fill,
            fill * 1e6 / Double(tasks), indexed))

    // 2. Search latency: exact words, two words, prefixes, typos, tags; in-process, 10 hits each.
    let engine = SearchEngine(graph: graph)
    var mix: [(String, String)] = []
    for index in 0..<queries {
        let words = random.pick(titles).split(separator: " ").map(String.init)
        let word = words[0]
        switch index % 5 {
        case 0: mix.append(("word", word))
        case 1: mix.append(("two words", words[0] + " " + words[1]))
        case 2: mix.append(("prefix", String(word.prefix(5))))
        case 3:
            var typo = Array(word)
            typo.remove(at: 2)
            mix.append(("typo", String(typo)))
        default: mix.append(("tag", random.pick(tags)))
        }
    }
    var byKind: [String: [Double]] = [:]
    var cpuByKind: [String: [Double]] = [:]
    var all: [[Double]] = []
    var allCPU: [[Double]] = []
    var hitsFound = 0
    for _ in 0..<repeats {
        var samples: [Double] = []
        var cpuSamples: [Double] = []
        for (kind, query) in mix {
            var lap = Stopwatch()
            let cpuStart = threadCPUNanoseconds()
            let result = try engine.search(query, store: store, now: clock.now, limit: 10)
            let time = lap.lap()
            // The thread's CPU time beside the wall clock: on a shared machine the wall clock is
            // mostly other processes holding the core.
            let cpu = Double(threadCPUNanoseconds() - cpuStart) / 1e6
            samples.append(time)
            cpuSamples.append(cpu)
            byKind[kind, default: []].append(time)
            cpuByKind[kind, default: []].append(cpu)
            if !result.hits.isEmpty { hitsFound += 1 }
        }
        all.append(samples.sorted())
        allCPU.append(cpuSamples.sorted())
    }
    func p(_ sorted: [Double], _ q: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] }
    let p50s = all.map { p($0, 0.5) }, p99s = all.map { p($0, 0.99) }
    print(
        String(
            format:
                "  search (%d queries × %d repeats, %.0f%% with hits): p50 min %.3f / median %.3f ms, p99 min %.2f / median %.2f ms",
            queries, repeats, 100 * Double(hitsFound) / Double(queries * repeats), p50s.min()!, median(p50s),
            p99s.min()!, median(p99s)))
    let cpuP50s = allCPU.map { p($0, 0.5) }, cpuP99s = allCPU.map { p($0, 0.99) }
    print(
        String(
            format: "  cpu: p50 min %.3f / median %.3f ms, p99 min %.2f / median %.2f ms", cpuP50s.min()!,
            median(cpuP50s), cpuP99s.min()!, median(cpuP99s)))
    for kind in ["word", "two words", "prefix", "typo", "tag"] {
        let sorted = (byKind[kind] ?? [0]).sorted(), cpu = (cpuByKind[kind] ?? [0]).sorted()
        print(
            String(
                format: "    %-9@ p50 %.3f ms, p99 %.2f ms; cpu p50 %.3f ms, p99 %.2f ms", kind as NSString,
                p(sorted, 0.5), p(sorted, 0.99), p(cpu, 0.5), p(cpu, 0.99)))
    }

    // Rendering one document (the templates and `where`), alone.
    let sample = try store.read { try $0.fetch(RecordQuery(entity: task, limit: 1000)) }
    var render = Stopwatch()
    try store.read { transaction in
        for record in sample { _ = try indexer.document(for: record, in: transaction) }
    }
    print(String(format: "  rendering a search document: %.1f µs", render.lap() * 1000 / Double(sample.count)))

    // 3. What the index adds to a one-record write transaction: the same inserts into the same
    // store, through a store object with the indexer and one without, interleaved.
    let plain = try Store(path: path, graph: graph, clock: clock)
    var withIndex: [Double] = [], without: [Double] = []
    for index in 0..<(writes * 2) where writes > 0 {
        let target = index % 2 == 0 ? store : plain
        let values: [String: Value] = ["title": .string(title()), "tags": .array([.string(random.pick(tags))])]
        var lap = Stopwatch()
        try target.write { transaction in _ = try transaction.insert(task, values: values) }
        (index % 2 == 0 ? { withIndex.append(lap.lap()) } : { without.append(lap.lap()) })()
    }
    if writes > 0 {
        print(
            String(
                format:
                    "  one-record write transaction (%d each): with index median %.1f µs, without %.1f µs: the index adds %.1f µs",
                writes, median(withIndex) * 1000, median(without) * 1000, (median(withIndex) - median(without)) * 1000))
    }

    // 4. --reindex of everything.
    var reindexTimes: [Double] = []
    var count = 0
    for _ in 0..<reindexRuns {
        var lap = Stopwatch()
        count = try store.write { try $0.reindexSearch() }
        reindexTimes.append(lap.lap() / 1000)
    }
    if !reindexTimes.isEmpty {
        print(
            String(
                format: "  reindex of %d tasks (%d indexed): min %.1f s, median %.1f s", written + writes * 2, count,
                reindexTimes.min()!, median(reindexTimes)))
    }
}
