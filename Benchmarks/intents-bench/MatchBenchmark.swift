import Foundation
import IntentLanguage
import IntentModel
import IntentProject
import IntentRendering
import PhraseMatching

/// Match latency on the example domains and on a generated load of 1,000 intents × 10 templates
/// with 100,000 entity names; index build time; resident memory.
func matchBenchmark() throws {
    let rounds = argument("--rounds", default: 50)
    let entityCount = argument("--entities", default: 100_000)

    // 1. The example domains, their own example sentences.
    let bundled = try Project.load(intents: "Intents", clock: Clock())
    guard let graph = bundled.graph, let matcher = bundled.matcher() else {
        print("Intents/ does not compile")
        return
    }
    let sentences = graph.apps.flatMap { $0.examples + $0.intents.flatMap(\.examples) }.map(\.say)
    let domains = latencies(matcher, sentences, rounds: rounds)
    print("example domains: \(sentences.count) sentences × \(rounds) rounds")
    print(String(format: "  match p50 %.1f µs, p99 %.1f µs, max %.1f µs", domains.p50, domains.p99, domains.max))
    if CommandLine.arguments.contains("--domains-only") { return }

    // 2. Generated: 10 apps × 100 intents × 10 templates, 100,000 entity names.
    let before = residentMegabytes()
    var files: [(path: String, bytes: [UInt8])] = []
    for app in 0..<10 {
        var yaml = """
            app: Load\(app)
            enums:
              Level: { cases: { low: { synonyms: [minor] }, high: { synonyms: [major, urgent] } } }
            entities:
              Thing:
                properties: { name: string, done: { type: boolean, default: false } }
                matchBy: [name]
            intents:

            """
        for i in 0..<100 {
            let noun = "gadget\(app)x\(i)"
            yaml += """
                  Act\(i):
                    parameters:
                      name: { type: string, optional: true }
                      item: { type: Thing, optional: true }
                      count: { type: integer, default: 1 }
                      when: { type: date, optional: true }
                      level: { type: Level, default: low }
                    phrases:
                      - "(add|create) [a] [new] \(noun) {name}"
                      - "show [me] my \(noun) list"
                      - "open [the] \(noun) {item}"
                      - "delete the \(noun) {item} [in {app}]"
                      - "mark \(noun) {item} as (done|finished)"
                      - "start \(noun) for {count} minutes"
                      - "remind me about \(noun) {when}"
                      - "what's next for \(noun)"
                      - "set \(noun) level to {level}"
                      - "\(noun) {item} please"
                    result: { dialog: "${name} ${item} ${count} ${when} ${level}" }
                    examples: [ { say: "show my \(noun) list" } ]

                """
        }
        files.append(("Load/app\(app)/app.yaml", Array(yaml.utf8)))
    }
    let compiled = IntentCompiler.compile(files: files, root: "Load")
    guard let loadGraph = compiled.graph else {
        print(DiagnosticPrinter(sources: compiled.sources).render(Array(compiled.diagnostics.prefix(3))))
        return
    }
    let words = [
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima",
        "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey",
        "xray",
    ]
    var names: [String] = []
    names.reserveCapacity(entityCount)
    var seed: UInt64 = 42
    func next() -> Int {
        seed = seed &* 6364136223846793005 &+ 1442695040888963407
        return Int(seed >> 33)
    }
    for n in 0..<entityCount {
        names.append("\(words[next() % words.count]) \(words[next() % words.count]) \(n)")
    }
    let buildStart = DispatchTime.now().uptimeNanoseconds
    let index = PhraseIndex(graph: loadGraph)
    let phraseBuild = Double(DispatchTime.now().uptimeNanoseconds - buildStart) / 1e6
    var entities = EntityNameIndex()
    for app in 0..<10 {
        entities.add(
            names[(app * entityCount / 10)..<((app + 1) * entityCount / 10)],
            for: QualifiedName(app: "Load\(app)", name: "Thing"))
    }
    let totalBuild = Double(DispatchTime.now().uptimeNanoseconds - buildStart) / 1e6
    let after = residentMegabytes()
    let loadMatcher = Matcher(index: index, entities: entities, clock: Clock())

    var loadSentences: [String] = []
    for k in 0..<2000 {
        let app = next() % 10, i = next() % 100
        let noun = "gadget\(app)x\(i)"
        let name = names[app * entityCount / 10 + next() % (entityCount / 10)]
        switch k % 8 {
        case 0: loadSentences.append("add a new \(noun) buy more coffee")
        case 1: loadSentences.append("show me my \(noun) list")
        case 2: loadSentences.append("open the \(noun) \(name)")
        case 3: loadSentences.append("hey, mark \(noun) \(name) as done please")
        case 4: loadSentences.append("start \(noun) for twenty five minutes")
        case 5: loadSentences.append("remind me about \(noun) tomorrow at 9")
        case 6: loadSentences.append("set \(noun) level to urgent")
        default: loadSentences.append("what's the weather like in paris")
        }
    }
    let load = latencies(loadMatcher, loadSentences, rounds: max(1, rounds / 10))
    if let index = CommandLine.arguments.firstIndex(of: "--repeat-sentence"), index + 1 < CommandLine.arguments.count {
        // For profiling one sentence on the generated load.
        for _ in 0..<20_000 { _ = loadMatcher.recognize(CommandLine.arguments[index + 1]) }
    }
    if CommandLine.arguments.contains("--slowest") {
        var timed: [(Double, String)] = []
        for sentence in loadSentences {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = loadMatcher.recognize(sentence)
            timed.append((Double(DispatchTime.now().uptimeNanoseconds - start) / 1000, sentence))
        }
        for (micros, sentence) in timed.sorted(by: { $0.0 > $1.0 }).prefix(12) {
            print(String(format: "  %7.1f µs  %@", micros, sentence))
        }
    }
    print(
        "generated load: \(loadGraph.intents.count) intents, \(loadGraph.intents.reduce(0) { $0 + $1.phrases.count }) templates, \(index.nodeCount) trie nodes, \(entities.count) entity names"
    )
    print(
        String(
            format:
                "  index build: phrases %.0f ms, with entity names %.0f ms; resident memory +%.0f MiB (%.0f MiB in all)",
            phraseBuild, totalBuild, after - before, after))
    print(
        String(
            format: "  match p50 %.1f µs, p99 %.1f µs, max %.1f µs (%d sentences × %d rounds)", load.p50, load.p99,
            load.max, loadSentences.count, max(1, rounds / 10)))
}

func latencies(_ matcher: Matcher, _ sentences: [String], rounds: Int) -> (p50: Double, p99: Double, max: Double) {
    for sentence in sentences { _ = matcher.recognize(sentence) }
    var samples: [Double] = []
    samples.reserveCapacity(sentences.count * rounds)
    for _ in 0..<rounds {
        for sentence in sentences {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = matcher.recognize(sentence)
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
        }
    }
    samples.sort()
    return (samples[samples.count / 2], samples[min(samples.count - 1, samples.count * 99 / 100)], samples.last!)
}

func residentMegabytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
        let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { return 0 }
    return kilobytes / 1024
}
