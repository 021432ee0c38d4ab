import Foundation

// Benchmarks, not tests: `swift run -c release intents-bench [compile|match|all] [options]`.
//   compile: [--intents N] [--runs N] [--only compile|yaml|libyaml]
//   match:   [--entities N] [--rounds N]

func argument(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let number = Int(arguments[index + 1]) else { return value }
    return number
}

let suite = CommandLine.arguments.dropFirst().first { !$0.hasPrefix("-") && Int($0) == nil && !["compile", "yaml", "libyaml"].contains($0) || ["compile", "match", "all"].contains($0) } ?? "all"
if suite == "compile" || suite == "all" { try compileBenchmark() }
if suite == "match" || suite == "all" { try matchBenchmark() }
