import Foundation

// Benchmarks, not tests: `swift run -c release intents-bench [compile|match|all] [options]`.
//   compile: [--intents N] [--runs N] [--only compile|yaml|libyaml]
//   match:   [--entities N] [--rounds N] [--domains-only]
//   runtime: [--runs N] [--phrases N]   (cold `intents say` needs the release `intents` built too)
//   shortcuts: [--rounds N]

func argument(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name) else { return value }
    // A count: a whole number from 0, or the run stops here with a message (never a trap later).
    guard index + 1 < arguments.count, let number = Int(arguments[index + 1]), number >= 0 else {
        let given = index + 1 < arguments.count ? "'\(arguments[index + 1])'" : "nothing"
        FileHandle.standardError.write(Data("error: \(name) takes a whole number from 0, not \(given)\n".utf8))
        exit(2)
    }
    return number
}

let first = CommandLine.arguments.dropFirst().first
let suite = ["compile", "match", "runtime", "shortcuts", "all"].contains(first ?? "") ? first! : "all"
if suite == "compile" || suite == "all" { try compileBenchmark() }
if suite == "match" || suite == "all" { try matchBenchmark() }
if suite == "runtime" || suite == "all" { try runtimeBenchmark() }
if suite == "shortcuts" || suite == "all" { try shortcutBenchmark() }
