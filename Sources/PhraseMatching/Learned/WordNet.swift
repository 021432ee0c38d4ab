import Foundation

/// WordNet's database as Debian's `wordnet-base` installs it (`/usr/share/wordnet`; another folder
/// through `INTENTS_WORDNET`): which synonym sets a verb or noun belongs to, the words derived from
/// it and the irregular forms of a word, so that a word the author never wrote ("erase", "display",
/// "keep an eye on", "wrote") is linked to one they did ("delete", "show", "watch", "write"). Read,
/// never written: the sorted index files are searched in place (as WordNet's own library does), a
/// word's sets read from the data files at their offsets. Used only while training; the model keeps
/// what it needs (`lexicon`).
struct WordNet {
    /// Senses per part of speech taken for a word: the commonest come first in the index.
    static let senses = 3

    enum PartOfSpeech: String, CaseIterable {
        case verb, noun
        var letter: String { self == .verb ? "v" : "n" }
    }

    private let index: [PartOfSpeech: [UInt8]]
    private let data: [PartOfSpeech: [UInt8]]
    /// Irregular form → base forms, per part of speech ("took" → "take", "children" → "child").
    private let exceptions: [PartOfSpeech: [String: [String]]]

    /// The folder WordNet is read from.
    static var directory: String {
        ProcessInfo.processInfo.environment["INTENTS_WORDNET"] ?? "/usr/share/wordnet"
    }

    /// nil when the database is not installed (or not readable).
    init?(directory: String = WordNet.directory) {
        var index: [PartOfSpeech: [UInt8]] = [:], data: [PartOfSpeech: [UInt8]] = [:]
        var exceptions: [PartOfSpeech: [String: [String]]] = [:]
        for pos in PartOfSpeech.allCases {
            guard let i = FileManager.default.contents(atPath: directory + "/index." + pos.rawValue),
                let d = FileManager.default.contents(atPath: directory + "/data." + pos.rawValue)
            else { return nil }
            index[pos] = Array(i)
            data[pos] = Array(d)
            // "inflected base…" per line; a missing list only loses irregular forms.
            var table: [String: [String]] = [:]
            if let e = FileManager.default.contents(atPath: directory + "/" + pos.rawValue + ".exc") {
                for line in e.split(separator: 0x0A) {
                    let fields = line.split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) }
                    guard fields.count >= 2 else { continue }
                    table[fields[0], default: []] += fields.dropFirst()
                }
            }
            exceptions[pos] = table
        }
        self.index = index
        self.data = data
        self.exceptions = exceptions
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

    /// A synonym set's words (single words only), its lemmas (phrases too, words separated by spaces:
    /// "keep an eye on"), the more general sets it is a kind of ("@"), the more specific sets that
    /// are kinds of it ("~"), and the words derived from its lemmas ("+": "thought" from "think").
    struct Entry {
        var words: [String] = []
        var lemmas: [String] = []
        var hypernyms: [String] = []
        var hyponyms: [String] = []
        /// Derivationally related forms: the lemma (by its index in `lemmas`, nil for all of them)
        /// and the synset and lemma number (1-based, 0 for all) it is related to.
        var derived: [(from: Int?, synset: String, word: Int)] = []
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
        entry.lemmas = (0..<count).map { at in
            // An adjective's marker ("(a)") comes off; "_" joins a phrase's words.
            let lemma = fields[4 + 2 * at].lowercased()
            let bare = lemma.firstIndex(of: "(").map { String(lemma[..<$0]) } ?? lemma
            return bare.replacingOccurrences(of: "_", with: " ")
        }
        entry.words = (0..<count).map { fields[4 + 2 * $0].lowercased() }.filter {
            !$0.contains("_") && !$0.contains("(")
        }
        let first = 5 + 2 * count
        for p in 0..<pointers where first + 4 * p + 3 < fields.count {
            let symbol = fields[first + 4 * p], target = fields[first + 4 * p + 1], letter = fields[first + 4 * p + 2]
            if symbol == "+", let other = PartOfSpeech.allCases.first(where: { $0.letter == letter }) {
                // source/target: two hex digits each, the lemma numbers (00: the whole set).
                let numbers = fields[first + 4 * p + 3]
                guard numbers.count == 4, let source = Int(numbers.prefix(2), radix: 16),
                    let word = Int(numbers.suffix(2), radix: 16)
                else { continue }
                entry.derived.append((source == 0 ? nil : source - 1, other.letter + target, word))
            }
            guard letter == pos.letter else { continue }
            if symbol == "@" || symbol == "@i" { entry.hypernyms.append(letter + target) }
            if symbol == "~" || symbol == "~i" { entry.hyponyms.append(letter + target) }
        }
        return entry
    }

    /// The base forms of `word` as `pos` that WordNet has: the word itself, its irregular base
    /// ("took" → "take", from the exception lists), or it with a regular ending taken off.
    func baseForms(of word: String, _ pos: PartOfSpeech) -> [String] {
        var found: [String] = []
        for base in [word] + (exceptions[pos]?[word] ?? []) + Self.bases(of: word, pos).dropFirst()
        where !found.contains(base) && offsets(of: base.replacingOccurrences(of: " ", with: "_"), pos) != nil {
            found.append(base)
        }
        return found
    }

    /// The synonym sets of `lemma` (a word or a phrase with spaces) as `pos`, commonest first, when
    /// WordNet has it in that form.
    func senses(of lemma: String, _ pos: PartOfSpeech) -> [String] {
        (offsets(of: lemma.replacingOccurrences(of: " ", with: "_"), pos) ?? []).map { pos.letter + $0 }
    }

    /// Base form → its irregular forms ("write" → "written", "wrote"), per the exception lists.
    func irregularForms() -> [String: [String]] {
        var forms: [String: Set<String>] = [:]
        for pos in PartOfSpeech.allCases {
            for (form, bases) in exceptions[pos] ?? [:] {
                for base in bases where base != form { forms[base, default: []].insert(form) }
            }
        }
        return forms.mapValues { $0.sorted() }
    }

    /// Senses per word when linking words: a set counts only when it is among the commonest senses
    /// of both words (so "taxes" is not a "task", though "task" and "tax" share a rare sense).
    static let linkSenses = 3

    /// What a person may say → the definitions' words it stands for, for the classifier to read an
    /// unknown word as the words it means (`LearnedModel.links`): per word of `vocabulary` (the
    /// definitions' words), the other lemmas of its commonest verb and noun senses ("erase" →
    /// "delete", "keep an eye on" → "watch"), the words derived from them ("thoughts" → "think"),
    /// each only when the set is a common sense of that lemma too; and its irregular forms, marked
    /// "=" ("wrote" → "=write": the same word). Sorted, so the model is the same bytes on every run.
    func lexicon(_ vocabulary: [String]) -> [String: [String]] {
        let known = Set(vocabulary)
        let irregular = irregularForms()
        var links: [String: Set<String>] = [:]
        func link(_ lemma: String, _ pos: PartOfSpeech, synset: String, to word: String) {
            guard lemma != word, !known.contains(lemma), Self.linkable(lemma),
                senses(of: lemma, pos).prefix(Self.linkSenses).contains(synset)
            else { return }
            links[lemma, default: []].insert(word)
        }
        for word in vocabulary where !word.contains(" ") {
            for form in irregular[word] ?? [] where !known.contains(form) && !form.contains("_") {
                links[form, default: []].insert("=" + word)
            }
            guard Self.linkable(word) else { continue }
            // A part of speech never seen in WordNet's tagged texts while another was is a rare use
            // ("task" as a verb, "to tax"): its senses are not linked.
            let bases = PartOfSpeech.allCases.map { baseForms(of: word, $0).first }
            let tagged = zip(PartOfSpeech.allCases, bases).map { pos, base in
                base.flatMap { taggedSenses(of: $0, pos) } ?? 0
            }
            for (at, pos) in PartOfSpeech.allCases.enumerated() {
                guard let base = bases[at], tagged[at] > 0 || tagged.allSatisfy({ $0 == 0 }) else { continue }
                for synset in senses(of: base, pos).prefix(Self.linkSenses) {
                    let entry = entry(synset)
                    for lemma in entry.lemmas { link(lemma, pos, synset: synset, to: word) }
                    let own = entry.lemmas.firstIndex(of: base)
                    for derived in entry.derived where derived.from == nil || derived.from == own {
                        guard let other = PartOfSpeech.allCases.first(where: { derived.synset.hasPrefix($0.letter) })
                        else { continue }
                        let target = self.entry(derived.synset)
                        let lemmas =
                            derived.word == 0
                            ? target.lemmas
                            : derived.word <= target.lemmas.count ? [target.lemmas[derived.word - 1]] : []
                        for lemma in lemmas { link(lemma, other, synset: derived.synset, to: word) }
                    }
                }
            }
        }
        return links.mapValues { words in
            // The same word in another form first: `LearnedModel.ids` reads it as that word.
            words.sorted { ($0.hasPrefix("=") ? 0 : 1, $0) < ($1.hasPrefix("=") ? 0 : 1, $1) }
        }
    }

    /// Whether a word (or phrase) may be linked: three letters or more, letters only, and not one of
    /// the everyday verbs and small words that mean too many things to stand for one.
    static func linkable(_ lemma: String) -> Bool {
        lemma.utf8.count >= 3
            && lemma.utf8.allSatisfy { $0 >= 0x61 && $0 <= 0x7A || $0 == 0x20 || $0 == 0x2D }
            && !LearnedWords.lightWords.contains(lemma) && !LearnedWords.functionWords.contains(lemma)
            && !lemma.split(separator: " ").contains { ["someone", "something", "one", "oneself"].contains($0) }
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
        indexEntry(of: lemma, pos)?.offsets
    }

    /// How many of `lemma`'s senses as `pos` were seen in WordNet's tagged texts (nil: not in the index).
    func taggedSenses(of lemma: String, _ pos: PartOfSpeech) -> Int? {
        indexEntry(of: lemma.replacingOccurrences(of: " ", with: "_"), pos)?.tagged
    }

    /// A lemma's line in the index of `pos`: its synset offsets, commonest first, and how many of them
    /// were seen in the tagged texts (binary search over the sorted lines).
    private func indexEntry(of lemma: String, _ pos: PartOfSpeech) -> (offsets: [String], tagged: Int)? {
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
                guard first + synsets <= fields.count, let tagged = Int(fields[first - 1]) else { return nil }
                return (Array(fields[first..<(first + synsets)]), tagged)
            }
            if lineKey.lexicographicallyPrecedes(key) { low = end + 1 } else { high = start }
        }
        return nil
    }
}
