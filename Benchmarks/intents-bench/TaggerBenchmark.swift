import Foundation
import IntentLanguage
import IntentModel
import IntentProject
import PhraseMatching

/// The slot tagger alone: `intents-bench tagger DIR` trains it on DIR/Intents (converted by
/// `Benchmarks/nlu/convert.py`), then tags every DIR/test.jsonl sentence as its gold intent and
/// scores the values (name and value, folded words) the way `intents-bench nlu` does. What the
/// tagger is worth apart from the classifier's mistakes; plus training time and time per sentence.
func taggerBenchmark() throws {
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    guard
        let directory = arguments.first(where: { !$0.hasPrefix("-") && Int($0) == nil })
            ?? (arguments.contains("--load-intents") ? "" : nil)
    else {
        FileHandle.standardError.write(Data("usage: intents-bench tagger DIR\n".utf8))
        exit(2)
    }
    let verbose = ProcessInfo.processInfo.environment["BENCH_MISSES"] != nil
    let passes = arguments.firstIndex(of: "--passes").flatMap { Int(arguments[$0 + 1]) } ?? 8
    if let at = arguments.firstIndex(of: "--load-intents"), let count = Int(arguments[at + 1]) {
        // The generated load of the robustness benchmark (count × 5 templates): training time alone.
        let compiled = IntentCompiler.compile(files: generatedLoad(intents: count), root: "Load")
        guard let graph = compiled.graph else { return }
        let index = PhraseIndex(graph: graph)
        var seconds: [Double] = [], cpu: [Double] = []
        var tagger: SlotTagger?
        for _ in 0..<3 {
            let started = DispatchTime.now().uptimeNanoseconds, startedCPU = taggerCPUNanoseconds()
            tagger = SlotTaggerTrainer.train(index: index, passes: passes)
            seconds.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
            cpu.append(Double(taggerCPUNanoseconds() - startedCPU) / 1e9)
        }
        let size = tagger!.size
        print("tagger on the generated load: \(count) intents, \(count * 5) templates")
        print(
            "  \(size.features) features, \(size.weights) weights, \(size.labels) labels; cache file \(tagger!.encoded(definitionsHash: 0).count) bytes"
        )
        print(
            String(
                format: "  trained in %.2f s min, %.2f s median of 3 (thread CPU time %.2f s min, %.2f s median)",
                seconds.min()!, seconds.sorted()[1], cpu.min()!, cpu.sorted()[1]))
        // Tagging one sentence per template (its first expansion, fixed values), as the learned stage
        // or a free-text match would: what the tagger adds to a sentence's time.
        let stage = LearnedStage(index: index)
        stage.use(tagger!)
        let matcher = Matcher(index: index, clock: Clock())
        var times: [Double] = []
        for app in graph.apps {
            for intent in app.intents {
                for phrase in intent.phrases {
                    guard let pieces = phrase.template.expansions(rules: app.rules, limit: 64)?.first else { continue }
                    let text = pieces.map { piece -> String in
                        switch piece {
                        case .word(let word): return word
                        case .app: return app.name
                        case .slot(let name):
                            switch intent.parameter(name)?.type {
                            case .integer?, .number?: return "5"
                            case .date?: return "tomorrow at 9"
                            case .duration?: return "five minutes"
                            case .enumeration(let e)?: return graph.enumeration(e)?.cases.first?.title ?? "x"
                            default: return "garden party"
                            }
                        }
                    }.joined(separator: " ")
                    let started = taggerCPUNanoseconds()
                    _ = stage.tagging(text, as: intent.name, matcher: matcher)
                    times.append(Double(taggerCPUNanoseconds() - started) / 1e3)
                }
            }
        }
        times.sort()
        if !times.isEmpty {
            print(
                String(
                    format: "  tagging a sentence (%d, thread CPU time): median %.1f µs, p99 %.1f µs", times.count,
                    times[times.count / 2],
                    times[min(times.count - 1, times.count * 99 / 100)]))
        }
        return
    }
    let clock = Clock()
    let project = try Project.load(intents: directory + "/Intents", clock: clock)
    guard let index = project.index else {
        print("\(directory)/Intents does not compile")
        return
    }
    let test = try NLUSentence.read(directory + "/test.jsonl")
    let matcher = Matcher(index: index, clock: clock)
    var seconds: [Double] = [], cpu: [Double] = []
    var tagger: SlotTagger?
    for _ in 0..<3 {
        let started = DispatchTime.now().uptimeNanoseconds, startedCPU = taggerCPUNanoseconds()
        tagger = SlotTaggerTrainer.train(index: index, passes: passes)
        seconds.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
        cpu.append(Double(taggerCPUNanoseconds() - startedCPU) / 1e9)
    }
    let stage = LearnedStage(index: index)
    stage.use(tagger!)
    var gold = 0, predicted = 0, correct = 0
    var times: [Double] = []
    for sentence in test where !sentence.intent.isEmpty {
        let parts = sentence.intent.split(separator: ".", maxSplits: 1).map(String.init)
        let intent = QualifiedName(app: parts[0], name: parts[1])
        let started = taggerCPUNanoseconds()
        let reading = stage.tagging(sentence.text, as: intent, matcher: matcher)
        times.append(Double(taggerCPUNanoseconds() - started) / 1e3)
        var expected = sentence.slots.filter { $0.count == 2 }.map { "\($0[0])=\(NLUTally.folded($0[1]))" }
        gold += expected.count
        var wrong: [String] = []
        for slot in reading?.slots ?? [] {
            guard case .string(let text) = slot.value else { continue }
            predicted += 1
            if let at = expected.firstIndex(of: "\(slot.name)=\(NLUTally.folded(text))") {
                correct += 1
                expected.remove(at: at)
            } else {
                wrong.append("\(slot.name)=\(NLUTally.folded(text))")
            }
        }
        if verbose, !wrong.isEmpty || !expected.isEmpty {
            print("    \(sentence.text)\n      found \(wrong) missed \(expected)")
        }
    }
    let precision = predicted == 0 ? 0 : Double(correct) / Double(predicted)
    let recall = gold == 0 ? 0 : Double(correct) / Double(gold)
    let f1 = precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall)
    times.sort()
    print("tagger: \(test.count) test sentences, gold intents")
    let size = tagger!.size
    print(
        "  \(size.features) features, \(size.weights) weights, \(size.labels) labels; cache file \(tagger!.encoded(definitionsHash: 0).count) bytes"
    )
    print(
        String(
            format: "  trained in %.2f s min, %.2f s median of 3 (thread CPU time %.2f s min, %.2f s median)",
            seconds.min()!, seconds.sorted()[1], cpu.min()!, cpu.sorted()[1]))
    print(
        String(
            format:
                "  slots (name and value exact): precision %.1f%%, recall %.1f%%, F1 %.1f%% (%d right of %d found, %d expected)",
            precision * 100, recall * 100, f1 * 100, correct, predicted, gold))
    if !times.isEmpty {
        print(
            String(
                format: "  per sentence (thread CPU time): median %.0f µs, p99 %.0f µs", times[times.count / 2],
                times[min(times.count - 1, times.count * 99 / 100)]))
    }
}

/// The thread's CPU time: a sentence's cost without the time other processes took the core.
func taggerCPUNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
