import Foundation

/// Turns text into tokens: NFKC, case folding, lenient diacritics, punctuation dropped around
/// words (kept inside URLs), whitespace collapsed, contractions expanded.
public enum Normalizer {
    /// Longest input accepted, in tokens: a sentence, not a document.
    public static let maximumTokens = 64

    static let contractions: [String: [String]] = [
        "what's": ["what", "is"], "whats": ["what", "is"], "where's": ["where", "is"], "who's": ["who", "is"],
        "how's": ["how", "is"], "it's": ["it", "is"], "that's": ["that", "is"], "there's": ["there", "is"],
        "i'm": ["i", "am"], "im": ["i", "am"], "you're": ["you", "are"], "we're": ["we", "are"],
        "they're": ["they", "are"],
        "i've": ["i", "have"], "i'll": ["i", "will"], "i'd": ["i", "would"], "let's": ["let", "us"],
        "don't": ["do", "not"], "doesn't": ["does", "not"], "didn't": ["did", "not"], "can't": ["can", "not"],
        "cannot": ["can", "not"], "won't": ["will", "not"], "isn't": ["is", "not"], "aren't": ["are", "not"],
        "wasn't": ["was", "not"], "shouldn't": ["should", "not"], "couldn't": ["could", "not"],
        "gibt's": ["gibt", "es"], "geht's": ["geht", "es"], "wie's": ["wie", "es"],
    ]

    static let apostrophes: Set<Character> = ["’", "‘", "`", "´"]
    static let leadingPunctuation: Set<Character> = [
        "\"", "'", "“", "”", "„", "‚", "‘", "’", "«", "»", "(", "[", "{", "¿", "¡", "<",
    ]
    static let trailingPunctuation: Set<Character> = [
        ".", ",", "!", "?", ";", ":", "\"", "'", "“", "”", "‘", "’", "«", "»", ")", "]", "}", "…", ">",
    ]

    /// Tokens of `text`; nil past `maximumTokens`.
    public static func tokens(_ text: String) -> [Token] {
        // Most input is ASCII: read it byte by byte, the same way, without grapheme breaking.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return splittingUnits(asciiTokens(Array(text.utf8), of: text)) }
        return splittingUnits(generalTokens(text))
    }

    package static func generalTokens(_ text: String) -> [Token] {
        // Each character in its compatibility form (NFKC), with the range of `text` it came from,
        // so every token knows its original characters.
        var characters: [Character] = []
        var sources: [Range<String.Index>] = []
        var position = text.startIndex
        while position < text.endIndex {
            let next = text.index(after: position)
            let character = text[position]
            if character.isASCII {
                characters.append(character)
                sources.append(position..<next)
            } else {
                for mapped in String(character).precomposedStringWithCompatibilityMapping {
                    characters.append(apostrophes.contains(mapped) ? "'" : mapped)
                    sources.append(position..<next)
                }
            }
            position = next
        }
        func isSeparator(_ character: Character) -> Bool { character.isWhitespace || character == "\u{0}" }
        var tokens: [Token] = []
        var index = 0
        while index < characters.count {
            while index < characters.count, isSeparator(characters[index]) { index += 1 }
            guard index < characters.count else { break }
            var end = index
            while end < characters.count, !isSeparator(characters[end]) { end += 1 }
            let piece = characters[index..<end].map { $0 == "`" ? "'" : $0 }
            let base = index
            index = end
            /// The original text of piece characters `[a, b)`.
            func source(_ a: Int, _ b: Int) -> Substring {
                text[sources[base + a].lowerBound..<sources[base + b - 1].upperBound]
            }
            var start = 0, stop = piece.count
            while start < stop, leadingPunctuation.contains(piece[start]) { start += 1 }
            var trailingStart = stop
            while trailingStart > start, trailingPunctuation.contains(piece[trailingStart - 1]) { trailingStart -= 1 }
            let trailing = String(piece[trailingStart..<stop])
            stop = trailingStart
            guard start < stop else {
                if !trailing.isEmpty, !tokens.isEmpty { tokens[tokens.count - 1].trailing += trailing }
                continue
            }
            let word = String(piece[start..<stop])
            if looksLikeURL(word) {
                tokens.append(
                    Token(text: word.lowercased(), raw: word, trailing: trailing, source: source(start, stop)))
                continue
            }
            // "3,5" is a number (and "1,000" a thousand), not two words.
            if let comma = word.firstIndex(of: ","), word[..<comma].allSatisfy(\.isNumber), !word[..<comma].isEmpty,
                word[word.index(after: comma)...].allSatisfy(\.isNumber), word.index(after: comma) < word.endIndex
            {
                let number = commaNumber(
                    whole: String(word[..<comma]), fraction: String(word[word.index(after: comma)...]))
                tokens.append(Token(text: number, raw: word, trailing: trailing, source: source(start, stop)))
                continue
            }
            // Words joined by punctuation other than ' - . / : split apart ("milk,eggs").
            var parts: [Range<Int>] = []
            var partStart = start
            for offset in start..<stop {
                let character = piece[offset]
                if !character.isLetter, !character.isNumber, !"'-./:&+@#%°".contains(character) {
                    if partStart < offset { parts.append(partStart..<offset) }
                    partStart = offset + 1
                }
            }
            if partStart < stop { parts.append(partStart..<stop) }
            for (number, part) in parts.enumerated() {
                let raw = String(piece[part])
                appendPart(
                    raw: raw, folded: TextFolding.fold(raw), trailing: number == parts.count - 1 ? trailing : nil,
                    source: source(part.lowerBound, part.upperBound), to: &tokens)
            }
        }
        return tokens
    }

    /// The tokens of one part of a word (both paths): a contraction expanded, a possessive's "'s"
    /// dropped ("milk's" matches "milk"; the raw text keeps it). `trailing` is the word's trailing
    /// punctuation when this is its last part, nil when more parts follow.
    private static func appendPart(
        raw: String, folded: String, trailing: String?, source: Substring, to tokens: inout [Token]
    ) {
        if let expansion = contractions[folded] {
            for (n, expanded) in expansion.enumerated() {
                tokens.append(
                    Token(
                        text: expanded, raw: n == 0 ? raw : expanded,
                        trailing: n == expansion.count - 1 ? trailing ?? "" : "", source: source))
            }
        } else if folded.hasSuffix("'s"), folded.count > 2 {
            tokens.append(Token(text: String(folded.dropLast(2)), raw: raw, trailing: trailing ?? "", source: source))
        } else {
            tokens.append(Token(text: folded, raw: raw, trailing: trailing ?? ",", source: source))
        }
    }

    /// "3,5" read as 3.5 and "1,000" as 1000: a comma before three digits groups thousands.
    private static func commaNumber(whole: String, fraction: String) -> String {
        fraction.count == 3 ? whole + fraction : whole + "." + fraction
    }

    private static let asciiLeading: Set<UInt8> = Set("\"'([{<".utf8)
    private static let asciiTrailing: Set<UInt8> = Set(".,!?;:\"')]}>".utf8)
    private static let asciiJoiners: Set<UInt8> = Set("'-./:&+@#%".utf8)

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
    private static func isLetter(_ byte: UInt8) -> Bool { (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) }

    /// `generalTokens` for ASCII text, on bytes. A test checks that both agree.
    package static func asciiTokens(_ bytes: [UInt8], of text: String) -> [Token] {
        var tokens: [Token] = []
        /// The original text of bytes `[a, b)` (UTF-8 offsets into a native string: O(1)).
        func source(_ a: Int, _ b: Int) -> Substring {
            let utf8 = text.utf8
            return text[utf8.index(utf8.startIndex, offsetBy: a)..<utf8.index(utf8.startIndex, offsetBy: b)]
        }
        func string(_ slice: ArraySlice<UInt8>) -> String { String(decoding: slice, as: UTF8.self) }
        var index = 0
        while index < bytes.count {
            // Whitespace (and NUL) separate pieces.
            while index < bytes.count,
                bytes[index] == 32 || (bytes[index] >= 9 && bytes[index] <= 13) || bytes[index] == 0
            { index += 1 }
            guard index < bytes.count else { break }
            var end = index
            while end < bytes.count, !(bytes[end] == 32 || (bytes[end] >= 9 && bytes[end] <= 13) || bytes[end] == 0) {
                end += 1
            }
            var piece = Array(bytes[index..<end])
            let base = index
            index = end
            for position in piece.indices where piece[position] == UInt8(ascii: "`") {
                piece[position] = UInt8(ascii: "'")
            }
            var start = 0, stop = piece.count
            while start < stop, asciiLeading.contains(piece[start]) { start += 1 }
            var trailingStart = stop
            while trailingStart > start, asciiTrailing.contains(piece[trailingStart - 1]) { trailingStart -= 1 }
            let trailing = string(piece[trailingStart..<stop])
            stop = trailingStart
            guard start < stop else {
                if !trailing.isEmpty, !tokens.isEmpty { tokens[tokens.count - 1].trailing += trailing }
                continue
            }
            let word = piece[start..<stop]
            let wordText = string(word)
            if word.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":") }), looksLikeURL(wordText) {
                tokens.append(
                    Token(
                        text: wordText.lowercased(), raw: wordText, trailing: trailing,
                        source: source(base + start, base + stop)))
                continue
            }
            // "3,5" is a number (and "1,000" a thousand), not two words.
            if let comma = word.firstIndex(of: UInt8(ascii: ",")), comma > word.startIndex, comma + 1 < word.endIndex,
                word[..<comma].allSatisfy(isDigit), word[(comma + 1)...].allSatisfy(isDigit)
            {
                tokens.append(
                    Token(
                        text: commaNumber(whole: string(word[..<comma]), fraction: string(word[(comma + 1)...])),
                        raw: wordText, trailing: trailing, source: source(base + start, base + stop)))
                continue
            }
            // Words joined by punctuation other than ' - . / : split apart ("milk,eggs").
            var parts: [ArraySlice<UInt8>] = []
            var partStart = word.startIndex
            for position in word.indices {
                let byte = word[position]
                if !isLetter(byte), !isDigit(byte), !asciiJoiners.contains(byte) {
                    if partStart < position { parts.append(word[partStart..<position]) }
                    partStart = position + 1
                }
            }
            if partStart < word.endIndex { parts.append(word[partStart..<word.endIndex]) }
            for (number, part) in parts.enumerated() {
                appendPart(
                    raw: string(part), folded: string(ArraySlice(part.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 })),
                    trailing: number == parts.count - 1 ? trailing : nil,
                    source: source(base + part.startIndex, base + part.endIndex), to: &tokens)
            }
        }
        return tokens
    }

    /// The folded words of `text` joined by single spaces: the key replies, choices and entity names
    /// are compared by. Each word folds with `TextFolding.fold`, after tokenizing (punctuation around
    /// words dropped, contractions expanded).
    public static func foldedWords(_ text: String) -> String {
        tokens(text).map(\.text).joined(separator: " ")
    }

    package static func looksLikeURL(_ word: String) -> Bool {
        // Characters, not strings: String.contains(String) goes through Foundation and was a tenth of index building.
        guard word.contains(where: { $0 == "." || $0 == ":" }) else { return false }
        let lower = word.lowercased()
        if lower.contains(where: { $0 == ":" }), lower.split(separator: ":", maxSplits: 1).last?.hasPrefix("//") == true
        {
            return true
        }
        if lower.hasPrefix("www.") { return true }
        // example.com, swift.org/path
        let host = lower.split(separator: "/", maxSplits: 1).first.map(String.init) ?? lower
        let labels = host.split(separator: ".")
        guard labels.count >= 2, let tld = labels.last, tld.count >= 2, tld.count <= 6, tld.allSatisfy(\.isLetter)
        else { return false }
        return labels.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } }
            && !lower.hasSuffix(".")
    }
}
