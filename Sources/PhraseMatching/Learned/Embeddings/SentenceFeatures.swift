/// A sentence model's embedding as features of the intent classifier: `e:0` … `e:N-1`, each the
/// embedding's value times `weight`, beside the word, pair and letter features (every sentence has
/// them, so their inverse document frequency is 1, and the sentence's vector is normalized with them).
/// The words the classifier knows or not are all read ("erase" means something to the model); free
/// text sampled into a training sentence is left out, as its words are.
///
/// Opt-in and, for now, a measurement: `intents-bench nlu --embeddings MODEL_DIR` sets
/// `LearnedTrainer.sentenceFeatures` for its process (BENCHMARKS.md, embed11). A model trained with
/// it must be read with it; the compiled cache knows nothing of it, so nothing but that benchmark
/// sets it.
public struct SentenceFeatures: Sendable {
    public let encoder: SentenceEncoder
    /// Through the transformer (`embed`, ~23 ms a sentence) or the static input embeddings (~24 µs).
    public let transformer: Bool
    public let weight: Float
    /// "e:0" …: built once.
    let names: [String]

    public init(encoder: SentenceEncoder, transformer: Bool, weight: Float) {
        self.encoder = encoder
        self.transformer = transformer
        self.weight = weight
        names = (0..<encoder.configuration.hidden).map { "e:\($0)" }
    }

    /// The embedding of the sentence's words (free text left out), times `weight`.
    func values(_ words: [LearnedClassifier.Word]) -> [Float] {
        let text = words.filter { !$0.free }.map(\.said).joined(separator: " ")
        guard !text.isEmpty else { return [] }
        let embedding = transformer ? encoder.embed(text) : encoder.staticEmbedding(text)
        return embedding.map { $0 * weight }
    }

    /// The features by name, for reading a sentence.
    func named(_ words: [LearnedClassifier.Word]) -> [(String, Float)] {
        values(words).enumerated().map { (names[$0.offset], $0.element) }
    }
}
