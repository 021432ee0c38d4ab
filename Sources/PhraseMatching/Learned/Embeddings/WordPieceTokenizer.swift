import Foundation

/// BERT's uncased tokenizer: control characters dropped, lowercased, accents stripped, split at white
/// space and around each punctuation mark and CJK character, then each word cut greedily into the
/// longest pieces `vocab.txt` has ("sitting" → "sit", "##ting"); a word with no such cut is `[UNK]`.
public struct WordPieceTokenizer: Sendable {
    let ids: [String: Int32]
    let unknown: Int32
    let start: Int32
    let end: Int32
    /// The number of pieces (lines of the vocabulary).
    public let count: Int

    /// A vocabulary: one piece a line, its line number its id.
    public init(vocabulary: [String], path: String = "vocab.txt") throws(EmbeddingModelError) {
        var ids: [String: Int32] = [:]
        for (id, piece) in vocabulary.enumerated() where ids[piece] == nil { ids[piece] = Int32(id) }
        guard let unknown = ids["[UNK]"], let start = ids["[CLS]"], let end = ids["[SEP]"] else {
            throw EmbeddingModelError(path: path, message: "lacks [UNK], [CLS] or [SEP]")
        }
        self.ids = ids
        self.unknown = unknown
        self.start = start
        self.end = end
        count = vocabulary.count
    }

    /// Reads `vocab.txt` at `path`.
    public init(path: String) throws(EmbeddingModelError) {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else { throw EmbeddingModelError(path: path, message: "cannot be read as UTF-8") }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
        }
        if lines.last == "" { lines.removeLast() }
        try self.init(vocabulary: lines, path: path)
    }

    /// The sentence's piece ids framed by `[CLS]` and `[SEP]`, at most `limit` in all.
    public func encode(_ text: String, limit: Int = 256) -> [Int32] {
        var pieces = [start]
        for word in words(text) { pieces.append(contentsOf: self.pieces(word)) }
        if pieces.count > limit - 1 { pieces.removeLast(pieces.count - (limit - 1)) }
        pieces.append(end)
        return pieces
    }

    /// The words BERT's basic tokenizer makes of `text`.
    func words(_ text: String) -> [String] {
        var spaced = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let category = scalar.properties.generalCategory
            if scalar.value == 0 || scalar.value == 0xFFFD { continue }
            if scalar == "\t" || scalar == "\n" || scalar == "\r" || category == .spaceSeparator {
                spaced.append(" ")
            } else if category == .control || category == .format {
                continue
            } else if Self.isCJK(scalar.value) {
                spaced.append(" ")
                spaced.append(scalar)
                spaced.append(" ")
            } else {
                spaced.append(scalar)
            }
        }
        var words: [String] = []
        for chunk in String(spaced).split(separator: " ") {
            let folded = chunk.lowercased().decomposedStringWithCanonicalMapping
            var word = String.UnicodeScalarView()
            for scalar in folded.unicodeScalars where scalar.properties.generalCategory != .nonspacingMark {
                if Self.isPunctuation(scalar) {
                    if !word.isEmpty { words.append(String(word)) }
                    word = String.UnicodeScalarView()
                    words.append(String(scalar))
                } else {
                    word.append(scalar)
                }
            }
            if !word.isEmpty { words.append(String(word)) }
        }
        return words
    }

    /// A word cut into the longest pieces the vocabulary has, left to right.
    func pieces(_ word: String) -> [Int32] {
        let scalars = Array(word.unicodeScalars)
        guard scalars.count <= 100 else { return [unknown] }
        var found: [Int32] = []
        var from = 0
        while from < scalars.count {
            var to = scalars.count
            var piece: Int32?
            while from < to {
                var text = String(String.UnicodeScalarView(scalars[from..<to]))
                if from > 0 { text = "##" + text }
                if let id = ids[text] {
                    piece = id
                    break
                }
                to -= 1
            }
            guard let piece else { return [unknown] }
            found.append(piece)
            from = to
        }
        return found
    }

    static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if (33...47).contains(v) || (58...64).contains(v) || (91...96).contains(v) || (123...126).contains(v) {
            return true
        }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation:
            return true
        default: return false
        }
    }

    static func isCJK(_ v: UInt32) -> Bool {
        (0x4E00...0x9FFF).contains(v) || (0x3400...0x4DBF).contains(v) || (0x20000...0x2A6DF).contains(v)
            || (0x2A700...0x2B73F).contains(v) || (0x2B740...0x2B81F).contains(v) || (0x2B820...0x2CEAF).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0x2F800...0x2FA1F).contains(v)
    }
}
