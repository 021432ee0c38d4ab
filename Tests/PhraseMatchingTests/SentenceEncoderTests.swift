import Foundation
import TestSupport
import Testing

@testable import PhraseMatching

/// A sentence model read from a folder as sentence-transformers ships it, on a tiny BERT generated
/// here (no third-party weights in git): two layers, hidden size 8, two heads. The expected values
/// are what an independent numpy implementation of the same forward pass gives for the same
/// tensors (BENCHMARKS.md, embed11).
@Suite("A pretrained sentence model: safetensors, WordPiece, the forward pass")
struct SentenceEncoderTests {
    static let vocabulary = [
        "[PAD]", "[UNK]", "[CLS]", "[SEP]", "hello", "world", "the", "cat", "##s", "sit", "##ting", ",", "on", "mat",
    ]
    static let (hidden, intermediate, layers, positions) = (8, 16, 2, 16)

    /// The tensors in the order the generator numbers them, with their shapes.
    static var tensors: [(name: String, shape: [Int])] {
        var tensors: [(String, [Int])] = [
            ("embeddings.word_embeddings.weight", [vocabulary.count, hidden]),
            ("embeddings.position_embeddings.weight", [positions, hidden]),
            ("embeddings.token_type_embeddings.weight", [2, hidden]),
            ("embeddings.LayerNorm.weight", [hidden]), ("embeddings.LayerNorm.bias", [hidden]),
        ]
        for layer in 0..<layers {
            let p = "encoder.layer.\(layer)."
            for name in ["query", "key", "value"] {
                tensors += [
                    (p + "attention.self.\(name).weight", [hidden, hidden]),
                    (p + "attention.self.\(name).bias", [hidden]),
                ]
            }
            tensors += [
                (p + "attention.output.dense.weight", [hidden, hidden]), (p + "attention.output.dense.bias", [hidden]),
                (p + "attention.output.LayerNorm.weight", [hidden]), (p + "attention.output.LayerNorm.bias", [hidden]),
                (p + "intermediate.dense.weight", [intermediate, hidden]),
                (p + "intermediate.dense.bias", [intermediate]),
                (p + "output.dense.weight", [hidden, intermediate]), (p + "output.dense.bias", [hidden]),
                (p + "output.LayerNorm.weight", [hidden]), (p + "output.LayerNorm.bias", [hidden]),
            ]
        }
        return tensors
    }

    /// Value `i` of tensor `k`: a fixed pseudo-random number in [-0.5, 0.5) (1 more for a layer
    /// norm's weights), the same formula as the numpy side's.
    static func value(_ k: Int, _ i: Int, layerNormWeight: Bool) -> Float {
        let x = (UInt64(i) * 2_654_435_761 + UInt64(k) * 97 + 12345) % 1_000_003
        return Float(Double(x) / 1_000_003 - 0.5 + (layerNormWeight ? 1 : 0))
    }

    /// The safetensors file's bytes: header (with an I64 tensor the model never reads, as real BERT
    /// files have), then each tensor little-endian.
    static func modelBytes(extraHeader: String = "") -> [UInt8] {
        var body: [UInt8] = []
        var entries = [#""__metadata__":{"format":"pt"}"#]
        for (k, tensor) in tensors.enumerated() {
            let count = tensor.shape.reduce(1, *)
            let start = body.count
            for i in 0..<count {
                let bits = value(k, i, layerNormWeight: tensor.name.hasSuffix("LayerNorm.weight")).bitPattern
                body += [UInt8(bits & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 24)]
            }
            entries.append(
                #""\#(tensor.name)":{"dtype":"F32","shape":\#(tensor.shape),"data_offsets":[\#(start),\#(body.count)]}"#
            )
        }
        let idsStart = body.count
        body += [UInt8](repeating: 0, count: 8 * positions)
        entries.append(
            #""embeddings.position_ids":{"dtype":"I64","shape":[1,\#(positions)],"data_offsets":[\#(idsStart),\#(body.count)]}"#
        )
        let header = Array(("{" + entries.joined(separator: ",") + extraHeader + "}").utf8)
        let length = UInt64(header.count)
        return (0..<8).map { UInt8(length >> (8 * $0) & 0xFF) } + header + body
    }

    let scratch = ScratchDirectory("encoder")

    func writeModel() throws -> String {
        let folder = scratch.path + "/model"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(Self.modelBytes()).write(to: URL(fileURLWithPath: folder + "/model.safetensors"))
        try (Self.vocabulary.joined(separator: "\n") + "\n").write(
            toFile: folder + "/vocab.txt", atomically: true, encoding: .utf8)
        try #"{"num_hidden_layers": 2, "num_attention_heads": 2, "hidden_size": 8, "layer_norm_eps": 1e-12}"#.write(
            toFile: folder + "/config.json", atomically: true, encoding: .utf8)
        return folder
    }

    static func expectClose(_ got: [Float], _ expected: [Float], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(got.count == expected.count, sourceLocation: sourceLocation)
        let worst = zip(got, expected).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst < 1e-4, "largest difference \(worst)", sourceLocation: sourceLocation)
    }

    @Test func tokenizesAsBERTDoes() throws {
        let encoder = try SentenceEncoder(directory: writeModel())
        // Lowercased, accents stripped, punctuation split off, words cut into pieces, "!" unknown.
        #expect(
            encoder.tokenizer.encode("Hello, the cats sitting on the mat!") == [
                2, 4, 11, 6, 7, 8, 9, 10, 12, 6, 13, 1, 3,
            ])
        #expect(encoder.tokenizer.encode("HÉLLO\tworld") == [2, 4, 5, 3])
        #expect(encoder.tokenizer.encode("") == [2, 3])
        #expect(
            encoder.configuration
                == .init(layers: 2, heads: 2, hidden: 8, intermediate: 16, positions: 16, layerNormEpsilon: 1e-12))
    }

    @Test func hiddenStatesAgreeWithNumpy() throws {
        let encoder = try SentenceEncoder(directory: writeModel())
        let pieces = encoder.tokenizer.encode("hello, world")
        #expect(pieces == [2, 4, 11, 5, 3])
        Self.expectClose(
            encoder.hiddenStates(pieces),
            [
                -1.176307, 1.063093, 2.777972, -0.102071, 0.721073, -0.894021, -0.656688, -0.797936,
                -1.163412, 1.064247, 2.823781, -0.099481, 0.638288, -0.888814, -0.676388, -0.790361,
                -1.170438, 1.069106, 2.802795, -0.111573, 0.671304, -0.899718, -0.659158, -0.783861,
                -1.182251, 1.039482, 2.764436, -0.084726, 0.773852, -0.890154, -0.656017, -0.810608,
                -1.184724, 1.021533, 2.759563, -0.073874, 0.805550, -0.889353, -0.662526, -0.814309,
            ])
    }

    @Test func sentenceEmbeddingsAgreeWithNumpy() throws {
        let encoder = try SentenceEncoder(directory: writeModel())
        let sentence = "Hello, the cats sitting on the mat!"
        Self.expectClose(
            encoder.embed(sentence),
            [-0.330589, 0.297462, 0.782974, -0.026480, 0.201194, -0.250611, -0.184910, -0.225835])
        Self.expectClose(
            encoder.staticEmbedding(sentence),
            [0.143713, 0.408537, -0.077088, 0.562960, -0.297889, 0.342159, -0.518690, 0.121359])
        Self.expectClose(
            encoder.embed("world"),
            [-0.332715, 0.297114, 0.778352, -0.026665, 0.213932, -0.251252, -0.183878, -0.227544])
        Self.expectClose(
            encoder.staticEmbedding("world"),
            [-0.438866, 0.060795, 0.560456, -0.107867, 0.391794, -0.276529, 0.223132, -0.445192])
    }

    /// A malformed file is an error naming it, never a trap.
    static let malformed: [(name: String, bytes: [UInt8], message: String)] = {
        let good = modelBytes()
        var longHeader = good
        longHeader[5] = 0x01
        let pastEnd = modelBytes(extraHeader: #","x":{"dtype":"F32","shape":[4],"data_offsets":[0,99999999]}"#)
        return [
            ("empty", [], "too short for a safetensors header (0 bytes)"),
            ("header length past the end", longHeader, "runs past the end of the file (\(good.count) bytes)"),
            ("truncated", Array(good.prefix(20)), "runs past the end of the file"),
            ("not JSON", [3, 0, 0, 0, 0, 0, 0, 0, 0x7B, 0x7B, 0x7D], "the header is not JSON"),
            ("a tensor past the end", pastEnd, "tensor 'x' lies outside the file"),
            (
                "a tensor without offsets", Array(#"{"a":{"dtype":"F32","shape":[1]}}"#.utf8).withLength,
                "tensor 'a' has no dtype, shape or data_offsets"
            ),
        ]
    }()

    @Test(arguments: Self.malformed.indices) func refusesMalformedFiles(_ index: Int) {
        let c = Self.malformed[index]
        #expect {
            _ = try SafetensorsFile(bytes: c.bytes, path: "m/model.safetensors")
        } throws: { error in
            guard let error = error as? EmbeddingModelError else { return false }
            return error.path == "m/model.safetensors" && error.message.contains(c.message)
        }
    }

    @Test func refusesTensorsOfAnotherTypeOrShape() throws {
        let file = try SafetensorsFile(bytes: Self.modelBytes(), path: "m/model.safetensors")
        #expect(
            throws: EmbeddingModelError(
                path: "m/model.safetensors", message: "tensor 'embeddings.position_ids' is I64, not F32")
        ) {
            try file.floats("embeddings.position_ids", shape: [1, 16])
        }
        #expect(
            throws: EmbeddingModelError(
                path: "m/model.safetensors", message: "tensor 'embeddings.LayerNorm.bias' has shape [8], expected [9]")
        ) {
            try file.floats("embeddings.LayerNorm.bias", shape: [9])
        }
        #expect(
            throws: EmbeddingModelError(path: "m/model.safetensors", message: "has no tensor 'pooler.dense.weight'")
        ) {
            try file.floats("pooler.dense.weight", shape: [8, 8])
        }
    }

    /// A shape whose sizes multiply past the largest integer is refused, not a trap: the file says
    /// the shape, and a model's `config.json` the size expected.
    @Test func refusesAShapeThatOverflows() throws {
        let huge = 1 << 31
        let bytes = Self.modelBytes(
            extraHeader: #","big":{"dtype":"F32","shape":[\#(huge),\#(huge),\#(huge)],"data_offsets":[0,0]}"#)
        let file = try SafetensorsFile(bytes: bytes, path: "m/model.safetensors")
        #expect(throws: EmbeddingModelError(path: "m/model.safetensors", message: "tensor 'big' has a bad shape")) {
            try file.floats("big", shape: [huge, huge, huge])
        }
    }

    @Test func aFolderWithoutAModelSaysWhichFile() throws {
        let folder = try writeModel()
        try FileManager.default.removeItem(atPath: folder + "/model.safetensors")
        #expect(throws: EmbeddingModelError(path: folder + "/model.safetensors", message: "cannot be read")) {
            try SentenceEncoder(directory: folder)
        }
    }
}

extension [UInt8] {
    /// The bytes as a safetensors file: their length, 8 bytes little-endian, then the bytes.
    fileprivate var withLength: [UInt8] {
        (0..<8).map { UInt8(UInt64(count) >> (8 * $0) & 0xFF) } + self
    }
}
