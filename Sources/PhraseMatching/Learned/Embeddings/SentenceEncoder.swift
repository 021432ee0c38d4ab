import Foundation

/// A BERT sentence model (such as sentence-transformers' all-MiniLM-L6-v2) read from its folder —
/// `model.safetensors`, `vocab.txt`, `config.json` — and run on the CPU: the sentence's mean-pooled,
/// L2-normalized last hidden states (`embed`), or, far cheaper, the mean of its pieces' input
/// embeddings with no transformer layer (`staticEmbedding`). Immutable; the forward pass is plain
/// Swift with SIMD dot products (no BLAS), one sentence at a time.
public struct SentenceEncoder: Sendable {
    /// The model's sizes.
    public struct Configuration: Sendable, Equatable {
        public var layers: Int
        public var heads: Int
        public var hidden: Int
        public var intermediate: Int
        public var positions: Int
        public var layerNormEpsilon: Float

        public init(layers: Int, heads: Int, hidden: Int, intermediate: Int, positions: Int, layerNormEpsilon: Float) {
            self.layers = layers
            self.heads = heads
            self.hidden = hidden
            self.intermediate = intermediate
            self.positions = positions
            self.layerNormEpsilon = layerNormEpsilon
        }
    }

    struct Layer: Sendable {
        /// Query, key and value weights stacked ([3·hidden, hidden], PyTorch's [out, in]) and biases.
        let qkv: [Float]
        let qkvBias: [Float]
        let output: [Float]
        let outputBias: [Float]
        let norm1: (weight: [Float], bias: [Float])
        let up: [Float]
        let upBias: [Float]
        let down: [Float]
        let downBias: [Float]
        let norm2: (weight: [Float], bias: [Float])
    }

    public let configuration: Configuration
    public let tokenizer: WordPieceTokenizer
    let words: [Float]
    let positionTable: [Float]
    let tokenType: [Float]
    let embeddingNorm: (weight: [Float], bias: [Float])
    let layers: [Layer]

    /// Reads a sentence-transformers folder: `config.json` (`num_attention_heads`,
    /// `layer_norm_eps`), `model.safetensors` and `vocab.txt`.
    public init(directory: String) throws(EmbeddingModelError) {
        let configPath = directory + "/config.json"
        guard let data = FileManager.default.contents(atPath: configPath),
            let config = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let heads = (config["num_attention_heads"] as? NSNumber)?.intValue, heads > 0
        else { throw EmbeddingModelError(path: configPath, message: "has no num_attention_heads") }
        let epsilon = (config["layer_norm_eps"] as? NSNumber)?.floatValue ?? 1e-12
        try self.init(
            file: SafetensorsFile(path: directory + "/model.safetensors"),
            tokenizer: WordPieceTokenizer(path: directory + "/vocab.txt"), heads: heads, layerNormEpsilon: epsilon)
    }

    /// A model from its tensors (BERT's names, without a `bert.` prefix); the sizes are the tensors'.
    public init(
        file: SafetensorsFile, tokenizer: WordPieceTokenizer, heads: Int, layerNormEpsilon: Float = 1e-12
    ) throws(EmbeddingModelError) {
        guard let wordShape = file.shape("embeddings.word_embeddings.weight"), wordShape.count == 2,
            let positionShape = file.shape("embeddings.position_embeddings.weight"), positionShape.count == 2,
            let upShape = file.shape("encoder.layer.0.intermediate.dense.weight"), upShape.count == 2
        else { throw EmbeddingModelError(path: file.path, message: "is not a BERT model (no embeddings or layer 0)") }
        let (vocabulary, hidden, intermediate) = (wordShape[0], wordShape[1], upShape[0])
        guard heads > 0, hidden % heads == 0, vocabulary >= tokenizer.count else {
            throw EmbeddingModelError(
                path: file.path,
                message: "hidden size \(hidden), \(heads) heads and \(vocabulary) word embeddings for "
                    + "\(tokenizer.count) pieces do not fit together")
        }
        var layerCount = 0
        while file.shape("encoder.layer.\(layerCount).attention.self.query.weight") != nil { layerCount += 1 }
        configuration = Configuration(
            layers: layerCount, heads: heads, hidden: hidden, intermediate: intermediate,
            positions: positionShape[0], layerNormEpsilon: layerNormEpsilon)
        self.tokenizer = tokenizer
        words = try file.floats("embeddings.word_embeddings.weight", shape: [vocabulary, hidden])
        positionTable = try file.floats("embeddings.position_embeddings.weight", shape: [positionShape[0], hidden])
        tokenType = Array(
            try file.floats(
                "embeddings.token_type_embeddings.weight",
                shape: file.shape("embeddings.token_type_embeddings.weight")
                    ?? [2, hidden]
            ).prefix(hidden))
        guard tokenType.count == hidden else {
            throw EmbeddingModelError(path: file.path, message: "token type embeddings are not \(hidden) wide")
        }
        embeddingNorm = (
            try file.floats("embeddings.LayerNorm.weight", shape: [hidden]),
            try file.floats("embeddings.LayerNorm.bias", shape: [hidden])
        )
        var layers: [Layer] = []
        for i in 0..<layerCount {
            let p = "encoder.layer.\(i)."
            func matrix(_ name: String, _ rows: Int, _ columns: Int) throws(EmbeddingModelError) -> [Float] {
                try file.floats(p + name, shape: [rows, columns])
            }
            func vector(_ name: String, _ count: Int) throws(EmbeddingModelError) -> [Float] {
                try file.floats(p + name, shape: [count])
            }
            let names = ["query", "key", "value"]
            var qkv: [Float] = []
            var qkvBias: [Float] = []
            for name in names {
                qkv += try matrix("attention.self.\(name).weight", hidden, hidden)
                qkvBias += try vector("attention.self.\(name).bias", hidden)
            }
            layers.append(
                Layer(
                    qkv: qkv, qkvBias: qkvBias,
                    output: try matrix("attention.output.dense.weight", hidden, hidden),
                    outputBias: try vector("attention.output.dense.bias", hidden),
                    norm1: (
                        try vector("attention.output.LayerNorm.weight", hidden),
                        try vector("attention.output.LayerNorm.bias", hidden)
                    ),
                    up: try matrix("intermediate.dense.weight", intermediate, hidden),
                    upBias: try vector("intermediate.dense.bias", intermediate),
                    down: try matrix("output.dense.weight", hidden, intermediate),
                    downBias: try vector("output.dense.bias", hidden),
                    norm2: (try vector("output.LayerNorm.weight", hidden), try vector("output.LayerNorm.bias", hidden))
                ))
        }
        self.layers = layers
    }

    /// The sentence's embedding: the transformer's last hidden states averaged over its pieces
    /// (`[CLS]` and `[SEP]` included, as sentence-transformers pools), L2-normalized.
    public func embed(_ text: String) -> [Float] {
        let pieces = tokenizer.encode(text, limit: configuration.positions)
        let states = hiddenStates(pieces)
        let hidden = configuration.hidden
        var mean = [Float](repeating: 0, count: hidden)
        for t in 0..<pieces.count {
            for i in 0..<hidden { mean[i] += states[t * hidden + i] }
        }
        return Self.normalized(mean)
    }

    /// The mean of the sentence's pieces' input embeddings (no `[CLS]`, `[SEP]` or position),
    /// L2-normalized: what the words mean out of context, at the cost of a table look-up.
    public func staticEmbedding(_ text: String) -> [Float] {
        var pieces = tokenizer.encode(text, limit: .max).dropFirst().dropLast()
        if pieces.isEmpty { pieces = [tokenizer.unknown] }
        let hidden = configuration.hidden
        var mean = [Float](repeating: 0, count: hidden)
        for piece in pieces {
            let row = Int(piece) * hidden
            for i in 0..<hidden { mean[i] += words[row + i] }
        }
        return Self.normalized(mean)
    }

    static func normalized(_ vector: [Float]) -> [Float] {
        let norm = vector.reduce(Float(0)) { $0 + $1 * $1 }.squareRoot()
        return norm > 0 ? vector.map { $0 / norm } : vector
    }

    /// The last hidden states, [pieces, hidden] row-major.
    func hiddenStates(_ pieces: [Int32]) -> [Float] {
        let (hidden, length) = (configuration.hidden, pieces.count)
        var x = [Float](repeating: 0, count: length * hidden)
        for (t, piece) in pieces.enumerated() {
            let (row, position) = (Int(piece) * hidden, t * hidden)
            for i in 0..<hidden { x[t * hidden + i] = words[row + i] + positionTable[position + i] + tokenType[i] }
        }
        layerNorm(&x, embeddingNorm)
        for layer in layers { x = apply(layer, to: x, length: length) }
        return x
    }

    func apply(_ layer: Layer, to x: [Float], length: Int) -> [Float] {
        let (hidden, heads) = (configuration.hidden, configuration.heads)
        let width = hidden / heads
        let qkv = Self.linear(x, rows: length, weights: layer.qkv, bias: layer.qkvBias, inputs: hidden)
        var context = [Float](repeating: 0, count: length * hidden)
        var scores = [Float](repeating: 0, count: length)
        let scale = 1 / Float(width).squareRoot()
        for head in 0..<heads {
            for i in 0..<length {
                let q = i * 3 * hidden + head * width
                var top = -Float.infinity
                for j in 0..<length {
                    let k = j * 3 * hidden + hidden + head * width
                    var dot: Float = 0
                    for d in 0..<width { dot += qkv[q + d] * qkv[k + d] }
                    scores[j] = dot * scale
                    top = max(top, scores[j])
                }
                var sum: Float = 0
                for j in 0..<length {
                    scores[j] = exp(scores[j] - top)
                    sum += scores[j]
                }
                let c = i * hidden + head * width
                for j in 0..<length {
                    let p = scores[j] / sum
                    let v = j * 3 * hidden + 2 * hidden + head * width
                    for d in 0..<width { context[c + d] += p * qkv[v + d] }
                }
            }
        }
        var y = Self.linear(context, rows: length, weights: layer.output, bias: layer.outputBias, inputs: hidden)
        for i in y.indices { y[i] += x[i] }
        layerNorm(&y, layer.norm1)
        var h = Self.linear(y, rows: length, weights: layer.up, bias: layer.upBias, inputs: hidden)
        for i in h.indices { h[i] = 0.5 * h[i] * (1 + erf(h[i] / Float(2).squareRoot())) }
        var z = Self.linear(
            h, rows: length, weights: layer.down, bias: layer.downBias, inputs: configuration.intermediate)
        for i in z.indices { z[i] += y[i] }
        layerNorm(&z, layer.norm2)
        return z
    }

    func layerNorm(_ x: inout [Float], _ norm: (weight: [Float], bias: [Float])) {
        let hidden = configuration.hidden
        for row in stride(from: 0, to: x.count, by: hidden) {
            var mean: Float = 0
            for i in 0..<hidden { mean += x[row + i] }
            mean /= Float(hidden)
            var variance: Float = 0
            for i in 0..<hidden { variance += (x[row + i] - mean) * (x[row + i] - mean) }
            variance /= Float(hidden)
            let inverse = 1 / (variance + configuration.layerNormEpsilon).squareRoot()
            for i in 0..<hidden { x[row + i] = (x[row + i] - mean) * inverse * norm.weight[i] + norm.bias[i] }
        }
    }

    /// `x · Wᵀ + b` for `rows` rows of `inputs` values; `weights` is [outputs, inputs] (PyTorch's
    /// layout), so each output is a dot product of two contiguous rows, eight lanes at a time.
    static func linear(_ x: [Float], rows: Int, weights: [Float], bias: [Float], inputs: Int) -> [Float] {
        let outputs = bias.count
        var y = [Float](repeating: 0, count: rows * outputs)
        guard rows > 0, inputs > 0, x.count >= rows * inputs, weights.count >= outputs * inputs else { return y }
        let lanes = inputs / 8 * 8
        x.withUnsafeBufferPointer { x in
            weights.withUnsafeBufferPointer { w in
                y.withUnsafeMutableBufferPointer { y in
                    let xr = UnsafeRawPointer(x.baseAddress!)
                    let wr = UnsafeRawPointer(w.baseAddress!)
                    for o in 0..<outputs {
                        let wRow = o * inputs
                        for r in 0..<rows {
                            let xRow = r * inputs
                            var sum = SIMD8<Float>()
                            var i = 0
                            while i < lanes {
                                let a = xr.loadUnaligned(fromByteOffset: (xRow + i) * 4, as: SIMD8<Float>.self)
                                let b = wr.loadUnaligned(fromByteOffset: (wRow + i) * 4, as: SIMD8<Float>.self)
                                sum += a * b  // not addProduct: without FMA in the target it is a call to fmaf per lane
                                i += 8
                            }
                            var total = sum.sum()
                            while i < inputs {
                                total += x[xRow + i] * w[wRow + i]
                                i += 1
                            }
                            y[r * outputs + o] = total + bias[o]
                        }
                    }
                }
            }
        }
        return y
    }
}
