import Foundation

/// Cold `intents say` (a new process each run, wall time from posix_spawn to exit) over the
/// generated load (1,000 intents × 5 phrases = 5,000 templates, as `robustness` builds it) and over
/// the bundled apps: with the compiled cache warm (`.intents/*.bin` beside the store written by an
/// earlier run) and cold (every cache file removed before each run). `--keep DIR` writes the load
/// there and keeps it, for profiling by hand.
func coldSayBenchmark() throws {
    let runs = argument("--runs", default: 7)
    let loadIntents = argument("--load-intents", default: 1_000)
    let arguments = CommandLine.arguments
    let kept = arguments.firstIndex(of: "--keep").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    let directory = kept ?? NSTemporaryDirectory() + "intents-coldsay-" + UUID().uuidString
    let manager = FileManager.default
    try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { if kept == nil { try? manager.removeItem(atPath: directory) } }
    for file in generatedLoad(intents: loadIntents) {
        let path = directory + "/" + file.path
        try manager.createDirectory(
            atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        guard manager.createFile(atPath: path, contents: Data(file.bytes)) else { throw CocoaError(.fileWriteUnknown) }
    }
    if kept != nil { print("coldsay: the load is in \(directory)/Load") }
    // No runs: the load written and kept, nothing spawned (Benchmarks/instructions.sh counts on it).
    guard runs > 0 else { return }

    let binary = URL(fileURLWithPath: arguments[0]).deletingLastPathComponent().appendingPathComponent("intents").path
    guard manager.isExecutableFile(atPath: binary) else {
        print("coldsay: build the release 'intents' first (swift build -c release --product intents)")
        return
    }
    let environment = ["INTENTS_NOW=2026-11-22T10:00:00Z", "TZ=UTC", "NO_COLOR=1", "PATH=/usr/bin:/bin"]

    /// A new process: wall time and CPU time in ms, and its exit status.
    func spawn(_ arguments: [String]) throws -> (ms: Double, cpuMS: Double, status: Int32) {
        let run = try spawnTimed(binary, arguments, environment: environment, keepErrors: false)
        return (run.ms, run.cpuMS, run.status)
    }

    /// The compiled cache files beside a store.
    func removeCaches(_ cacheDirectory: String) {
        for name in (try? manager.contentsOfDirectory(atPath: cacheDirectory)) ?? [] where name.hasSuffix(".bin") {
            try? manager.removeItem(atPath: cacheDirectory + "/" + name)
        }
    }

    let cases: [(name: String, intents: String, phrase: String)] = [
        ("5,000 templates, exact", directory + "/Load", "add the invoice called quarterly numbers"),
        ("5,000 templates, learned stage", directory + "/Load", "add invoice quarterly numbers elephant please"),
        ("bundled apps, exact", "Intents", "add buy milk to my tasks"),
    ]
    print("cold intents say (\(runs) runs each, new process each; min / median / max ms):")
    for (number, item) in cases.enumerated() {
        let cacheDirectory = directory + "/store-\(number)"
        let store = cacheDirectory + "/store.sqlite"
        let command = ["say", "--intents", item.intents, "--store", store, item.phrase]
        // Warm: the first run writes the store and the cache.
        let first = try spawn(command)
        var warm: [Double] = [], cold: [Double] = [], warmCPU: [Double] = [], coldCPU: [Double] = []
        for _ in 0..<runs {
            let run = try spawn(command)
            warm.append(run.ms)
            warmCPU.append(run.cpuMS)
        }
        for _ in 0..<runs {
            removeCaches(cacheDirectory)
            let run = try spawn(command)
            cold.append(run.ms)
            coldCPU.append(run.cpuMS)
        }
        _ = try spawn(command)
        func line(_ samples: [Double]) -> String {
            String(format: "%.1f / %.1f / %.1f", samples.min()!, median(samples), samples.max()!)
        }
        print("  \(item.name) (\"\(item.phrase)\", status \(first.status)):")
        print("    cache warm: \(line(warm)); CPU \(line(warmCPU))")
        print("    cache cold: \(line(cold)); CPU \(line(coldCPU))")
    }
}
