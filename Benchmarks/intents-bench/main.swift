import Foundation

// Benchmarks, not tests: `swift run -c release intents-bench SUITE [options]`; `--help` lists them.

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

let usage = """
    Usage: intents-bench [compile|match|runtime|shortcuts|search|suggest|links|widgets|assistant|robustness|coldsay|big|all] [options]
      compile:   [--intents N] [--runs N] [--only compile|yaml|libyaml]
      match:     [--entities N] [--rounds N] [--domains-only]
      runtime:   [--runs N] [--phrases N]   (cold `intents say` needs the release `intents` built too)
      shortcuts: [--rounds N]
      search:    [--tasks N] [--queries N] [--writes N]   (1,000,000 tasks by default: minutes; not in all)
      suggest:   [--seed N] [--donations N] [--runs N]
      links:     [--rounds N] [--repeats N]
      widgets:   [--runs N] [--tasks N]
      assistant: [--rounds N] [--repeats N] [--entities N] [--apps N] [--store [--cached-only]]   (tail latency on assistant-shaped templates; --store: names in a store)
      robustness: [--samples N] [--load-intents N]   (perturbed, out-of-domain and held-out sentences; not in all)
      coldsay:   [--runs N] [--load-intents N] [--keep DIR]   (cold `intents say` over 5,000 templates and the bundled apps, cache warm and cold; needs the release `intents`)
      serve:     [--requests N] [--connections 1,10,50] [--instances N] [--repeats N] [--binary PATH] [--store postgres://…] [--users N] [--serve-args "…"]   (HTTP load on `intents serve`, SQLite unless --store; the release `intents` by default)
      tagger:    DIR   (the slot tagger alone, gold intents, on DIR/test.jsonl from Benchmarks/nlu/convert.py)
      nlu:       --corpus snips|clinc DIR [--diagnose | --classifier] [--embeddings MODEL_DIR [--transformer] [--embedding-weight W]]   (SNIPS 2017 / CLINC150 converted by Benchmarks/nlu/convert.py; --diagnose: where in-scope accuracy goes, in totals; --classifier: the classifier alone, then stop; not in all)
      embed:     MODEL_DIR [--sentences FILE] [--count N]   (a sentence-transformers model in Swift: CPU per sentence, transformer and static embeddings; not in all)
      paraphrases: [--file F]... [--embeddings MODEL_DIR [--transformer] [--embedding-weight W]]   (Benchmarks/data/paraphrases.tsv, or each F, through both stages, one model; not in all)
      stability: [--without FILE] [--files A,B]   (the classifier's confidences on the development sets, trained with and without FILE under Intents/; not in all)
      lsp:       [--runs N] [--load-intents N]   (`intents lsp` over 1,000 intents: re-check after an edit, completion; needs the release `intents`; not in all)
      training:  [DIR] [--runs N] [--load-intents N]   (the learned model's training alone: CPU per run and the model's digest; the generated load unless DIR; not in all)
      big:       [--sizes 10000,100000,1000000] [--runs N] [--dir D] [--regenerate]   (big stores; minutes; not in all)
    Build with -c release for figures worth reporting (swift run -c release intents-bench compile).
    """
if CommandLine.arguments.dropFirst().first == "coldsay" {
    try coldSayBenchmark()
    exit(0)
}  // issue 11 item 5
if CommandLine.arguments.dropFirst().first == "serve" {
    try serveBenchmark()
    exit(0)
}  // issue 21: [--requests N] [--connections 1,10,50] [--binary PATH]
if CommandLine.arguments.dropFirst().first == "engine" {
    try engineBenchmark()
    exit(0)
}  // issue 21 part 1: [--phrases N] [--repeats N]
if CommandLine.arguments.dropFirst().first == "tagger" {
    try taggerBenchmark()
    exit(0)
}  // issue 20 item 2: DIR
if CommandLine.arguments.dropFirst().first == "nlu" {
    try nluBenchmark()
    exit(0)
}  // issue 20: --corpus snips|clinc DIR
if CommandLine.arguments.dropFirst().first == "embed" {
    try embeddingBenchmark()
    exit(0)
}  // issue 20: MODEL_DIR [--sentences FILE] [--count N]
if CommandLine.arguments.dropFirst().first == "paraphrases" {
    try paraphraseBenchmark()
    exit(0)
}  // issue 20
if CommandLine.arguments.dropFirst().first == "stability" {
    try stabilityBenchmark()
    exit(0)
}  // issue 20: [--without FILE]
if CommandLine.arguments.dropFirst().first == "lsp" {
    try languageServerBenchmark()
    exit(0)
}  // issue 23
if CommandLine.arguments.dropFirst().first == "training" {
    try trainingBenchmark()
    exit(0)
}  // issue 20: [DIR] [--runs N] [--load-intents N]
if CommandLine.arguments.dropFirst().first == "big" {
    try bigStoreBenchmark()
    exit(0)
}  // issue 15: [--sizes 10000,100000,1000000] [--runs N] [--dir D] [--regenerate]
let suites = [
    "compile", "match", "runtime", "shortcuts", "search", "suggest", "links", "widgets", "assistant", "robustness",
    "all",
]
let first = CommandLine.arguments.dropFirst().first
if let first, ["--help", "-h", "help"].contains(first) || CommandLine.arguments.contains("--help") {
    print(usage)
    exit(0)
}
if let first, !first.hasPrefix("-"), !suites.contains(first) {
    FileHandle.standardError.write(Data("error: unknown benchmark '\(first)'\n\n\(usage)\n".utf8))
    exit(2)
}
let suite = suites.contains(first ?? "") ? first! : "all"
if suite == "compile" || suite == "all" { try compileBenchmark() }
if suite == "match" || suite == "all" { try matchBenchmark() }
if suite == "runtime" || suite == "all" { try runtimeBenchmark() }
if suite == "shortcuts" || suite == "all" { try shortcutBenchmark() }
if suite == "search" { try searchBenchmark() }
if suite == "suggest" || suite == "all" { try suggestBenchmark() }
if suite == "links" || suite == "all" { try linksBenchmark() }
if suite == "widgets" || suite == "all" { try widgetBenchmark() }
if suite == "assistant" || suite == "all" { try assistantBenchmark() }
if suite == "robustness" { try robustnessBenchmark() }
