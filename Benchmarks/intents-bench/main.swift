import Foundation

// Benchmarks, not tests: `swift run -c release intents-bench [compile|match|all] [options]`.
//   compile: [--intents N] [--runs N] [--only compile|yaml|libyaml]
//   match:   [--entities N] [--rounds N] [--domains-only]
//   runtime: [--runs N] [--phrases N]   (cold `intents say` needs the release `intents` built too)
//   shortcuts: [--rounds N]
//   widgets: [--runs N] [--tasks N]

func argument(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
        let number = Int(arguments[index + 1])
    else { return value }
    return number
}

let first = CommandLine.arguments.dropFirst().first
let suite = ["compile", "match", "runtime", "shortcuts", "widgets", "all"].contains(first ?? "") ? first! : "all"
if suite == "compile" || suite == "all" { try compileBenchmark() }
if suite == "match" || suite == "all" { try matchBenchmark() }
if suite == "runtime" || suite == "all" { try runtimeBenchmark() }
if suite == "shortcuts" || suite == "all" { try shortcutBenchmark() }
if suite == "widgets" || suite == "all" { try widgetBenchmark() }
