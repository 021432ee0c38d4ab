import Foundation
import PhraseMatching

/// `embed MODEL_DIR [--sentences FILE] [--count N]`: what a pretrained sentence model costs in Swift
/// (issue 20, embed11): loading it, one sentence's embedding through the transformer and as the mean
/// of its static input embeddings (CPU per sentence, p50 and p99), on the `text` of each line of
/// FILE (CLINC's converted test split by default); and the cosine of two sentence pairs whose
/// similarity sentence-transformers publishes for all-MiniLM-L6-v2 (0.8939 and -0.0327).
func embeddingBenchmark() throws {
    let arguments = CommandLine.arguments
    guard arguments.count > 2, !arguments[2].hasPrefix("-") else {
        throw NLUError(message: "usage: intents-bench embed MODEL_DIR [--sentences FILE.jsonl] [--count N]")
    }
    let directory = arguments[2]
    let file = arguments.firstIndex(of: "--sentences").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    let count = argument("--count", default: 500)
    var started = cpuSeconds()
    let encoder = try SentenceEncoder(directory: directory)
    let c = encoder.configuration
    print(
        String(
            format: "model: %d layers, %d heads, hidden %d, intermediate %d; loaded in %.2f s CPU", c.layers, c.heads,
            c.hidden, c.intermediate, cpuSeconds() - started))
    func cosine(_ a: String, _ b: String) -> Float { zip(encoder.embed(a), encoder.embed(b)).map(*).reduce(0, +) }
    print(
        String(
            format: "cosine: %.4f (published 0.8939), %.4f (published -0.0327)",
            cosine("The new movie is awesome", "The new movie is so great"),
            cosine("A man is playing guitar", "A woman watches TV")))
    let sentences = try NLUSentence.read(file ?? "Benchmarks/.generated/clinc/test.jsonl").prefix(count).map(\.text)
    guard !sentences.isEmpty else { throw NLUError(message: "no sentences to embed (--count 0 or an empty file)") }
    let pieces = sentences.map { Double(encoder.tokenizer.encode($0).count) }.reduce(0, +) / Double(sentences.count)
    func measure(_ name: String, _ body: (String) -> [Float]) {
        var times: [Double] = []
        var check: Float = 0
        for sentence in sentences {
            started = cpuSeconds()
            check += body(sentence)[0]
            times.append(cpuSeconds() - started)
        }
        times.sort()
        let total = times.reduce(0, +)
        print(
            String(
                format:
                    "%@: %d sentences (%.1f pieces each), mean %.1f µs, p50 %.1f µs, p99 %.1f µs CPU; 15,000 would take %.1f s (%g)",
                name, sentences.count, pieces, total / Double(times.count) * 1e6, times[times.count / 2] * 1e6,
                times[min(times.count - 1, times.count * 99 / 100)] * 1e6, total / Double(times.count) * 15000, check))
    }
    measure("transformer, mean-pooled") { encoder.embed($0) }
    measure("static input embeddings, mean") { encoder.staticEmbedding($0) }
}
