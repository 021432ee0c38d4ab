import Foundation
import IntentModel
import IntentProject
import PhraseMatching

/// The bundled apps asked in words nobody wrote into them (Benchmarks/data/paraphrases.tsv, written
/// before tuning, never trained on): both stages together, as `say` decides. Understood: the right
/// intent runs with every value listed (an intent that deletes: asks to confirm the right intent).
func paraphraseBenchmark() throws {
    // `--file F`: another set in the same format (the development sets, the ones tuned on); several:
    // each scored in turn by one trained model.
    let arguments = CommandLine.arguments
    let given = arguments.indices.filter { arguments[$0] == "--file" && $0 + 1 < arguments.count }
        .map { arguments[$0 + 1] }
    try useSentenceModelIfAsked(arguments)
    let project = try Project.load(intents: "Intents", clock: Clock())
    guard let graph = project.graph, let index = project.index, let matcher = project.matcher() else {
        print("Intents/ does not compile")
        return
    }
    var run = RobustnessRun(graph: graph, index: index, matcher: matcher, samplesPerPhrase: 1)
    for path in given.isEmpty ? ["Benchmarks/data/paraphrases.tsv"] : given {
        try score(path, graph: graph, matcher: matcher, run: &run)
    }
}

private func score(_ path: String, graph: IntentGraph, matcher: Matcher, run: inout RobustnessRun) throws {
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    print("paraphrases: \(lines.count) sentences for the bundled apps (\(path))")
    let verbose = ProcessInfo.processInfo.environment["BENCH_MISSES"] != nil
    var understood = 0, rightIntent = 0, asks = 0, noMatch = 0, wrong = 0
    for line in lines {
        let parts = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2 else { continue }
        let expected = parts[0], text = parts[1]
        var values: [String: String] = [:]
        for pair in (parts.count > 2 ? parts[2] : "").split(separator: ";") {
            let kv = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if kv.count == 2 { values[kv[0]] = kv[1].lowercased() }
        }
        let verdict = run.verdict(text)
        // `BENCH_CONFIDENCES=1`: the classifier's first intent and probability, the expected intent's
        // and none's, one line per sentence, to compare two trainings.
        if ProcessInfo.processInfo.environment["BENCH_CONFIDENCES"] != nil {
            let c = run.stage.classification(text)
            let p = c.ranking.first { $0.intent.description == expected }?.probability ?? 0
            let top = c.ranking.first
            print("DUMP\t\(text)\t\(top?.intent.description ?? "-")\t\(top?.probability ?? 0)\t\(p)\t\(c.none)")
        }
        var outcome: String
        switch verdict {
        case .acts(let candidate):
            if candidate.intent.description != expected {
                wrong += 1
                outcome = "acts \(candidate.intent)"
            } else {
                rightIntent += 1
                let found = candidate.values
                let missing = values.filter { name, value in found[name]?.description.lowercased() != value }
                if missing.isEmpty {
                    understood += 1
                    outcome = "ok"
                } else {
                    outcome = "values " + found.map { "\($0)=\($1)" }.sorted().joined(separator: "; ")
                }
            }
        case .asks(let intent):
            asks += 1
            let name = expected.split(separator: ".", maxSplits: 1).map(String.init)
            let deletes =
                name.count == 2 ? graph.intent(QualifiedName(app: name[0], name: name[1]))?.deletes ?? false : false
            if intent?.description == expected {
                rightIntent += 1
                if deletes { understood += 1 }
            }
            outcome = deletes && intent?.description == expected ? "ok" : "asks \(intent?.description ?? "which")"
        case .noMatch:
            noMatch += 1
            outcome = "no_match"
        }
        if verbose, outcome != "ok" {
            // What the learned stage made of it: its intent, confidence, decision and none's share.
            var detail = ""
            if let guess = run.stage.guess(text, matcher: matcher) {
                detail = String(
                    format: " [learned: %@ %.2f %@, none %.2f%@]", guess.candidate.intent.description, guess.confidence,
                    guess.decision.rawValue, guess.noneProbability,
                    (guess.tagging == nil ? "" : ", tagged")
                        + (guess.demotedBecause.map { ", a step down: " + $0 } ?? ""))
            }
            print("    \(outcome) for \(expected): \(text)\(detail)")
        }
    }
    func pct(_ n: Int) -> String { String(format: "%.1f%%", Double(n) * 100 / Double(max(1, lines.count))) }
    print("  understood (right intent and values): \(understood)/\(lines.count) (\(pct(understood)))")
    print(
        "  right intent: \(rightIntent) (\(pct(rightIntent))); asks \(asks), no_match \(noMatch), wrong intent acted \(wrong)"
    )
}
