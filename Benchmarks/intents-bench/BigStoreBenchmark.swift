import Foundation
import IntentModel
import IntentProject
import IntentRendering
import IntentRuntime
import ModelStore
import PhraseMatching

/// Big stores (issue 15): stores of `--sizes` tasks (10k, 100k, 1M), generated once into `--dir`
/// by `intents store import` (timed, with its peak memory) and reused by later runs; then, with the
/// stores side by side in one run: cold `intents say` against each and an empty one, entity-name
/// look-ups in-process (exact, a word with a typo, one word sharing none), `intents store list
/// --where` on an indexed property, and every bundled widget computed.
func bigStoreBenchmark() throws {
    let runs = argument("--runs", default: 11)
    let lookups = argument("--lookups", default: 2_000)
    var sizes = [10_000, 100_000, 1_000_000]
    if let index = CommandLine.arguments.firstIndex(of: "--sizes"), index + 1 < CommandLine.arguments.count {
        sizes = CommandLine.arguments[index + 1].split(separator: ",").compactMap { Int($0) }
    }
    var directory = NSTemporaryDirectory() + "intents-big-bench"
    if let index = CommandLine.arguments.firstIndex(of: "--dir"), index + 1 < CommandLine.arguments.count {
        directory = CommandLine.arguments[index + 1]
    }
    let regenerate = CommandLine.arguments.contains("--regenerate")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
        "intents"
    ).path
    guard FileManager.default.isExecutableFile(atPath: binary) else {
        print("big: build the release 'intents' first (swift build -c release --product intents)")
        return
    }
    let now = "2026-11-22T10:00:00Z"
    let clock = Clock.fixed(ISODate.parse(now, timeZone: .gmt)!, timeZone: TimeZone(identifier: "UTC")!)
    let environment = ["INTENTS_NOW=\(now)", "TZ=UTC", "NO_COLOR=1", "PATH=/usr/bin:/bin"]

    /// A new process: wall time in ms and its peak resident memory in MB.
    func spawn(_ arguments: [String]) throws -> (ms: Double, peakMB: Double, status: Int32, cpuMS: Double) {
        try spawnTimed(binary, arguments, environment: environment)
    }

    let words = [
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima",
        "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey",
        "xray",
    ]
    func title(_ n: Int) -> String { "\(words[n % 24]) \(words[(n / 24) % 24]) \(n)" }
    /// Two letters of the first word swapped: "sierra" → "seirra".
    func typo(_ text: String) -> String {
        var characters = Array(text)
        characters.swapAt(1, 2)
        return String(characters)
    }
    /// The task every phrase names, in every store (the empty one holds only it).
    let named = 4_242
    let base = ISODate.parse("2025-01-01T00:00:00Z", timeZone: .gmt)!

    /// An export of `count` tasks, written a record at a time: a tenth urgent, a fifth completed,
    /// one in a thousand due within a month, one in ten thousand overdue.
    func writeExport(_ path: String, count: Int, only: Int? = nil) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = FileHandle(forWritingAtPath: path)!
        defer { try? handle.close() }
        var buffer = "{\"FocusBlox.Task\": [\n"
        var first = true
        for n in only.map({ [$0] }) ?? Array(0..<count) {
            var fields = [
                "\"id\": \"t\(n)\"", "\"title\": \"\(title(n))\"",
                "\"urgency\": \"\(n % 10 == 0 ? "urgent" : "not_urgent")\"",
                "\"isCompleted\": \(n % 5 == 0 && n != named ? "true" : "false")",
                "\"createdAt\": \"\(ISODate.format(base.addingTimeInterval(Double(n))))\"",
            ]
            if n % 10_000 == 3 {
                fields.append("\"due\": \"2026-11-21T09:00:00Z\"")
            } else if n % 1_000 == 7 {
                fields.append(
                    "\"due\": \"\(ISODate.format(clock.now.addingTimeInterval(Double(n % 30 + 1) * 86_400)))\"")
            }
            buffer += (first ? "" : ",\n") + "{" + fields.joined(separator: ", ") + "}"
            first = false
            if buffer.utf8.count > 1 << 20 {
                try handle.write(contentsOf: Data(buffer.utf8))
                buffer = ""
            }
        }
        buffer += "\n]}\n"
        try handle.write(contentsOf: Data(buffer.utf8))
    }

    // 1. The stores: imported once, reused after.
    print("big stores in \(directory) (\(runs) runs each; release build):")
    var stores: [(size: Int, path: String)] = []
    for size in [0] + sizes {
        let path = directory + "/tasks-\(size).sqlite"
        stores.append((size, path))
        if FileManager.default.fileExists(atPath: path), !regenerate { continue }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let file = directory + "/tasks-\(size).json"
        try writeExport(file, count: size, only: size == 0 ? named : nil)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        let imported = try spawn(["store", "import", "--store", path, file])
        try? FileManager.default.removeItem(atPath: file)
        guard imported.status == 0 else {
            print("  import of \(size) tasks failed (status \(imported.status))")
            return
        }
        let records = max(size, 1)
        print(
            String(
                format:
                    "  store import %@ tasks (%.0f MB of JSON): %.1f s, %.0f records/s; CPU %.1f s, %.0f records per CPU-second; peak %.0f MB",
                size.formatted(), Double(bytes) / 1e6, imported.ms / 1000, Double(records) / (imported.ms / 1000),
                imported.cpuMS / 1000, Double(records) / (imported.cpuMS / 1000), imported.peakMB))
    }

    // 2. Cold `intents say`, the stores in turn within each round.
    let phrases = [
        ("exact", "mark \(title(named)) as done"),
        ("typo", "mark \(typo(title(named))) as done"),
    ]
    for (kind, phrase) in phrases {
        var times: [Int: [Double]] = [:]
        var peaks: [Int: Double] = [:]
        for store in stores { _ = try spawn(["say", "--store", store.path, phrase]) }
        for _ in 0..<runs {
            for store in stores {
                let run = try spawn(["say", "--store", store.path, phrase])
                times[store.size, default: []].append(run.ms)
                peaks[store.size] = max(peaks[store.size] ?? 0, run.peakMB)
            }
        }
        print("  cold intents say (\(kind): \"\(phrase)\"):")
        let empty = median(times[0]!)
        for store in stores {
            let samples = times[store.size]!
            print(
                String(
                    format: "    %9@ tasks: median %.1f ms, min %.1f ms (%.2f× empty), peak %.0f MB",
                    store.size.formatted(), median(samples), samples.min()!, median(samples) / empty,
                    peaks[store.size]!))
        }
    }

    // 3. `store list --where` on an indexed property (Task.due: one in ten thousand overdue).
    var listing: [Int: [Double]] = [:]
    for _ in 0..<runs {
        for store in stores {
            listing[store.size, default: []].append(
                try spawn(["store", "list", "Task", "--store", store.path, "--where", "due < now()"]).ms)
        }
    }
    print("  intents store list Task --where 'due < now()' (indexed; matches one task in ten thousand):")
    for store in stores {
        let samples = listing[store.size]!
        print(
            String(
                format: "    %9@ tasks: median %.1f ms, min %.1f ms", store.size.formatted(), median(samples),
                samples.min()!))
    }

    // 4. In-process: name look-ups and widgets over each store.
    let project = try Project.load(intents: "Intents", shortcuts: .none, clock: clock)
    guard let graph = project.graph else { throw CocoaError(.featureUnsupported) }
    let task = QualifiedName(app: "FocusBlox", name: "Task")
    for store in stores where store.size > 0 {
        let opened = try Store(path: store.path, graph: graph, clock: clock)
        var seed: UInt64 = 7
        func next() -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(seed >> 33)
        }
        var kinds: [(String, [String])] = [("exact", []), ("word typo", []), ("one word, none", [])]
        for _ in 0..<lookups {
            let name = title(next() % store.size)
            kinds[0].1.append(EntityNameKey.key(name).key)
            var typo = Array(EntityNameKey.key(name).key)
            let at = next() % 3
            typo.swapAt(at, at + 1)
            kinds[1].1.append(String(typo))
            var word = Array(words[next() % words.count] + words[next() % words.count])
            word.remove(at: next() % word.count)
            kinds[2].1.append(String(word))
        }
        // The machine is shared: each kind's look-ups are timed `repeats` times, and the p50 and
        // p99 of each pass reported as min / median over the passes.
        let repeats = argument("--repeats", default: 5)
        // As the matcher looks names up (issue 25): each text a phrase of its own, through
        // `StoredEntityNames.forPhrase()` (the name index in memory up to 50,000 keys, else on disk).
        // The first phrase after opening pays for reading the index into memory.
        let names = StoredEntityNames(store: opened)
        let firstStart = DispatchTime.now().uptimeNanoseconds
        _ = names.forPhrase().lookup(kinds[0].1[0], entity: task)
        let first = Double(DispatchTime.now().uptimeNanoseconds - firstStart) / 1e3
        print(
            String(
                format: "  entity look-ups over %@ names: the first phrase after opening %.0f µs (%@)",
                store.size.formatted(), first, "\(type(of: names.forPhrase()))"))
        print(
            "  entity look-ups over \(store.size.formatted()) names (\(lookups) each, \(repeats) passes, µs, min / median of the passes):"
        )
        for (kind, texts) in kinds {
            var p50s: [Double] = [], p99s: [Double] = []
            var found = 0
            for _ in 0..<repeats {
                var times: [Double] = []
                found = 0
                for text in texts {
                    let start = DispatchTime.now().uptimeNanoseconds
                    let hits = names.forPhrase().lookup(text, entity: task)
                    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3)
                    if !hits.isEmpty { found += 1 }
                }
                times.sort()
                p50s.append(times[times.count / 2])
                p99s.append(times[times.count * 99 / 100])
            }
            print(
                String(
                    format: "    %-14@ p50 %.0f / %.0f, p99 %.0f / %.0f (%d of %d found)", kind, p50s.min()!,
                    median(p50s),
                    p99s.min()!, median(p99s), found, texts.count))
        }
        let center = WidgetCenter(graph: graph, store: opened)
        let renderer = WidgetRenderer()
        func stack() throws -> Int {
            try center.stack().reduce(0) { $0 + renderer.render($1, family: $1.widget.families[0]).count }
        }
        _ = try stack()
        var widgetTimes: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try stack()
            widgetTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        print(
            String(
                format: "  all %d widgets computed and drawn over %@ tasks: median %.2f ms, min %.2f ms",
                graph.widgets.count, store.size.formatted(), median(widgetTimes), widgetTimes.min()!))
    }
}
