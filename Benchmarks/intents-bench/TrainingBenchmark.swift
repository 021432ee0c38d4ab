import Foundation
import IntentLanguage
import IntentModel
import IntentProject
import PhraseMatching

/// Training the learned stage's model alone, as `say` trains it on first need: `intents-bench training`
/// trains on the robustness benchmark's generated load (1,000 intents × 5 templates), or on the
/// definitions under DIR (`Intents`, a converted corpus's `DIR/Intents`) with their `training:`
/// sentences, `--runs` times. Prints each run's CPU time, min and median, and a digest of the model's
/// bytes: two builds that print the same digest trained the same model.
func trainingBenchmark() throws {
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    let runs = max(1, argument("--runs", default: 3))
    let loadIntents = argument("--load-intents", default: 1_000)
    let directory = arguments.enumerated().first {
        !$0.element.hasPrefix("-") && !["--runs", "--load-intents"].contains(arguments[max(0, $0.offset - 1)])
    }?.element
    let index: PhraseIndex
    let training: [QualifiedName: [String]]
    if let directory {
        let project = try Project.load(intents: directory, clock: Clock())
        guard let graph = project.graph, let built = project.index else {
            print("\(directory) does not compile")
            return
        }
        index = built
        training = LearnedStage.trainingSentences(of: graph)
    } else {
        let compiled = IntentCompiler.compile(files: generatedLoad(intents: loadIntents), root: "Load")
        guard let graph = compiled.graph else { return }
        index = PhraseIndex(graph: graph)
        training = [:]
    }
    let intents = index.graph.apps.reduce(0) { $0 + $1.intents.count }
    let templates = index.graph.apps.flatMap(\.intents).reduce(0) { $0 + $1.phrases.count }
    print("training: \(directory ?? "generated load"), \(intents) intents, \(templates) templates")
    var cpu: [Double] = []
    var digests = Set<UInt64>()
    for run in 0..<runs {
        let started = cpuSeconds()
        let model = LearnedTrainer.train(index: index, training: training)
        cpu.append(cpuSeconds() - started)
        // FNV-1a over the model's cache bytes.
        var digest: UInt64 = 0xCBF2_9CE4_8422_2325
        let bytes = model.encoded(definitionsHash: 0)
        for byte in bytes { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01B3 }
        digests.insert(digest)
        print(
            String(
                format: "  run %d: %.2f s of CPU, model %d bytes, digest %016llx", run + 1, cpu.last!, bytes.count,
                digest))
    }
    let sorted = cpu.sorted()
    print(String(format: "  CPU min %.2f s, median %.2f s of %d", sorted[0], sorted[sorted.count / 2], runs))
    if digests.count > 1 { print("  the runs trained different models") }
}
