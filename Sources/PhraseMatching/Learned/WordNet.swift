import Foundation

/// WordNet's database as Debian's `wordnet-base` installs it (`/usr/share/wordnet`; another folder
/// through `INTENTS_WORDNET`): which synonym sets a verb or noun belongs to, so that "list" and
/// "enumerate", "monitor" and "supervise" share a feature of the classifier. Read, never written:
/// the sorted index files are searched in place (as WordNet's own library does), a word's sets
/// read from the data files at their offsets. Used only while training; the model keeps what it needs.
struct WordNet {
    /// Senses per part of speech taken for a word: the commonest come first in the index.
    static let senses = 3

    enum PartOfSpeech: String, CaseIterable {
        case verb, noun
        var letter: String { self == .verb ? "v" : "n" }
    }

    private let index: [PartOfSpeech: [UInt8]]
    private let data: [PartOfSpeech: [UInt8]]

    /// The folder WordNet is read from.
    static var directory: String {
        ProcessInfo.processInfo.environment["INTENTS_WORDNET"] ?? "/usr/share/wordnet"
    }

    /// nil when the database is not installed (or not readable).
    init?(directory: String = WordNet.directory) {
        var index: [PartOfSpeech: [UInt8]] = [:], data: [PartOfSpeech: [UInt8]] = [:]
        for pos in PartOfSpeech.allCases {
            guard let i = FileManager.default.contents(atPath: directory + "/index." + pos.rawValue),
                let d = FileManager.default.contents(atPath: directory + "/data." + pos.rawValue)
            else { return nil }
            index[pos] = Array(i)
            data[pos] = Array(d)
        }
        self.index = index
        self.data = data
    }

    /// The synonym sets of `word` ("v01234567"), its commonest senses first, verbs then nouns; an
    /// inflected form ("tracking", "notes") is read as its base form.
    func synsets(of word: String) -> [String] {
        guard word.utf8.count >= 2, word.utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A || $0 == 0x2D }) else { return [] }
        var found: [String] = []
        for pos in PartOfSpeech.allCases {
            for base in Self.bases(of: word, pos) {
                guard let offsets = offsets(of: base, pos) else { continue }
                found += offsets.prefix(Self.senses).map { pos.letter + $0 }
                break
            }
        }
        return found
    }

    /// A synonym set's words (single words only), the more general sets it is a kind of ("@"), and
    /// the more specific sets that are kinds of it ("~").
    struct Entry {
        var words: [String] = []
        var hypernyms: [String] = []
        var hyponyms: [String] = []
    }

    func entry(_ synset: String) -> Entry {
        guard let pos = PartOfSpeech.allCases.first(where: { synset.hasPrefix($0.letter) }),
            let offset = Int(synset.dropFirst()), let bytes = data[pos], offset < bytes.count
        else { return Entry() }
        let end = bytes[offset...].firstIndex(of: 0x0A) ?? bytes.count
        let fields = bytes[offset..<end].split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) }
        // offset lex_filenum ss_type w_cnt(hex) [word lex_id]… p_cnt [symbol offset pos source/target]…
        guard fields.count > 4, let count = Int(fields[3], radix: 16), 4 + 2 * count < fields.count,
            let pointers = Int(fields[4 + 2 * count])
        else { return Entry() }
        var entry = Entry()
        entry.words = (0..<count).map { fields[4 + 2 * $0].lowercased() }.filter {
            !$0.contains("_") && !$0.contains("(")
        }
        let first = 5 + 2 * count
        for p in 0..<pointers where first + 4 * p + 2 < fields.count {
            let symbol = fields[first + 4 * p], target = fields[first + 4 * p + 1], letter = fields[first + 4 * p + 2]
            guard letter == pos.letter else { continue }
            if symbol == "@" || symbol == "@i" { entry.hypernyms.append(letter + target) }
            if symbol == "~" || symbol == "~i" { entry.hyponyms.append(letter + target) }
        }
        return entry
    }

    /// WordNet's own base-form rules ("morphy" without the exception lists): the word, then it with
    /// an inflection's ending taken off.
    static func bases(of word: String, _ pos: PartOfSpeech) -> [String] {
        let rules: [(String, String)] =
            pos == .verb
            ? [("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", ""), ("s", "")]
            : [("ses", "s"), ("xes", "x"), ("ches", "ch"), ("shes", "sh"), ("men", "man"), ("ies", "y"), ("s", "")]
        var bases = [word]
        for (ending, replacement) in rules where word.hasSuffix(ending) && word.count > ending.count + 1 {
            bases.append(String(word.dropLast(ending.count)) + replacement)
        }
        return bases
    }

    /// The synset offsets of a lemma in the index of `pos` (binary search over its sorted lines).
    private func offsets(of lemma: String, _ pos: PartOfSpeech) -> [String]? {
        guard let bytes = index[pos] else { return nil }
        let key = Array(lemma.utf8)
        var low = 0, high = bytes.count
        while low < high {
            let middle = (low + high) / 2
            // The line that holds `middle`.
            var start = middle
            while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
            var end = middle
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            let line = bytes[start..<end]
            // Licence lines start with two spaces and sort first.
            if line.first == 0x20 {
                low = end + 1
                continue
            }
            let lemmaEnd = line.firstIndex(of: 0x20) ?? end
            let lineKey = Array(bytes[start..<lemmaEnd])
            if lineKey == key {
                let fields = line.split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) }
                // lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…
                guard fields.count > 4, let synsets = Int(fields[2]), let pointers = Int(fields[3]) else { return nil }
                let first = 4 + pointers + 2
                guard first + synsets <= fields.count else { return nil }
                return Array(fields[first..<(first + synsets)])
            }
            if lineKey.lexicographicallyPrecedes(key) { low = end + 1 } else { high = start }
        }
        return nil
    }
}
