import Foundation
import IntentModel
import IntentProject
import PhraseMatching

/// A verdict as a line: what ran with which values, what was asked, or nothing.
private func describe(_ verdict: Verdict) -> String {
    switch verdict {
    case .acts(let candidate):
        "acts \(candidate.intent) " + candidate.values.map { "\($0)=\($1)" }.sorted().joined(separator: "; ")
    case .asks(let intent): "asks \(intent?.description ?? "which")"
    case .noMatch: "no match"
    }
}

/// How much the classifier's confidences move when an unrelated definition file is added: the
/// bundled apps trained with and without `--without FILE` (Intents/focusblox/changes.yaml by
/// default), every development sentence classified by both, the changes compared. A sentence whose
/// expected intent lives in the file left out is not compared (the file is related to it).
func stabilityBenchmark() throws {
    let arguments = CommandLine.arguments
    func option(_ name: String) -> String? {
        arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    }
    let without = option("--without") ?? "Intents/focusblox/changes.yaml"
    let files =
        option("--files")?.split(separator: ",").map(String.init)
        ?? ["", "2", "3", "4", "5"].map { "Benchmarks/data/paraphrases-dev\($0).tsv" }
    let fm = FileManager.default
    let copy = NSTemporaryDirectory() + "intents-stability-\(getpid())"
    try? fm.removeItem(atPath: copy)
    try fm.copyItem(atPath: "Intents", toPath: copy)
    defer { try? fm.removeItem(atPath: copy) }
    let relative = without.hasPrefix("Intents/") ? String(without.dropFirst("Intents/".count)) : without
    try fm.removeItem(atPath: copy + "/" + relative)

    func run(_ folder: String) throws -> (RobustnessRun, IntentGraph) {
        let project = try Project.load(intents: folder, clock: Clock())
        guard let graph = project.graph, let index = project.index, let matcher = project.matcher() else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return (RobustnessRun(graph: graph, index: index, matcher: matcher, samplesPerPhrase: 1), graph)
    }
    var (with, _) = try run("Intents")
    var (less, lessGraph) = try run(copy)
    let verbose = ProcessInfo.processInfo.environment["BENCH_VERBOSE"] != nil

    var top: [Double] = [], expected: [Double] = [], none: [Double] = []
    var intentChanged = 0, verdictChanged = 0, compared = 0
    for file in files {
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        for line in lines {
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard parts.count >= 2 else { continue }
            let name = parts[0].split(separator: ".", maxSplits: 1).map(String.init)
            guard name.count == 2, lessGraph.intent(QualifiedName(app: name[0], name: name[1])) != nil else { continue }
            let text = parts[1]
            compared += 1
            let a = with.stage.classification(text), b = less.stage.classification(text)
            func p(_ c: (ranking: [(intent: QualifiedName, probability: Double)], none: Double)) -> Double {
                c.ranking.first { $0.intent.description == parts[0] }?.probability ?? 0
            }
            let dTop = abs((a.ranking.first?.probability ?? 0) - (b.ranking.first?.probability ?? 0))
            top.append(dTop)
            expected.append(abs(p(a) - p(b)))
            none.append(abs(a.none - b.none))
            if a.ranking.first?.intent != b.ranking.first?.intent { intentChanged += 1 }
            let va = with.verdict(text), vb = less.verdict(text)
            let changed = describe(va) != describe(vb)
            if changed { verdictChanged += 1 }
            if verbose, dTop >= 0.1 || changed {
                print(
                    String(
                        format: "    %.2f → %.2f %@ → %@%@: %@", b.ranking.first?.probability ?? 0,
                        a.ranking.first?.probability ?? 0, b.ranking.first?.intent.description ?? "-",
                        a.ranking.first?.intent.description ?? "-", changed ? " (answer changed)" : "", text))
            }
        }
    }
    func summary(_ values: [Double]) -> String {
        let sorted = values.sorted()
        let mean = values.reduce(0, +) / Double(max(1, values.count))
        let p90 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, sorted.count * 9 / 10)]
        return String(format: "mean %.3f, p90 %.3f, max %.3f", mean, p90, sorted.last ?? 0)
    }
    print("stability: \(compared) development sentences, trained with and without \(without)")
    print("  |Δ| top intent's probability: \(summary(top))")
    print("  |Δ| expected intent's probability: \(summary(expected))")
    print("  |Δ| none's probability: \(summary(none))")
    print("  top intent changed: \(intentChanged); answer changed (acts/asks/no match, intent): \(verdictChanged)")
}
