import PhraseMatching

// A sentence model's files as `intents-bench --embeddings DIR` reads them, from any bytes: the
// input is a safetensors file, and its last line or so a WordPiece vocabulary. Properties: the
// reader gives a file or an `EmbeddingModelError` naming it, never a trap; every tensor it lists is
// read back at its own shape as values or refused with a reason; a vocabulary tokenizes any text
// into ids below its size.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSentenceModel(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    readModel(bytes)
    readVocabulary(bytes)
    return 0
}

func readModel(_ bytes: [UInt8]) {
    let file: SafetensorsFile
    do {
        file = try SafetensorsFile(bytes: bytes, path: "fuzz/model.safetensors")
    } catch {
        guard error.path == "fuzz/model.safetensors", !error.message.isEmpty else {
            fatalError("FuzzSentenceModel: refused without a path or reason: \(error)")
        }
        return
    }
    for name in file.names {
        guard let shape = file.shape(name) else { fatalError("FuzzSentenceModel: '\(name)' listed without a shape") }
        do {
            let values = try file.floats(name, shape: shape)
            guard values.count == shape.reduce(1, *) else {
                fatalError("FuzzSentenceModel: '\(name)' of shape \(shape) read as \(values.count) values")
            }
        } catch {
            guard error.path == "fuzz/model.safetensors", error.message.contains(name) else {
                fatalError("FuzzSentenceModel: '\(name)' refused without naming it: \(error)")
            }
        }
    }
}

func readVocabulary(_ bytes: [UInt8]) {
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        .map(String.init)
    guard let tokenizer = try? WordPieceTokenizer(vocabulary: lines, path: "fuzz/vocab.txt") else { return }
    for text in ["add buy milk to my tasks", lines.last ?? "", String(decoding: bytes.prefix(64), as: UTF8.self)] {
        let ids = tokenizer.encode(text, limit: 32)
        guard ids.count <= 32, ids.allSatisfy({ 0 <= $0 && Int($0) < tokenizer.count }) else {
            fatalError("FuzzSentenceModel: '\(text)' tokenized as \(ids) with \(tokenizer.count) words")
        }
    }
}
