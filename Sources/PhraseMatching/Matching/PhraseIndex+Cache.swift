import Foundation
import IntentModel

/// The phrase index as bytes, for the compiled cache beside the store (`.intents/index-<hash>.bin`):
/// a magic word, the format version, the key (the definition files' bytes and this program's
/// build), the trie's arrays little-endian, and an FNV-1a checksum of everything before it. Reading
/// checks all of it (sizes against the bytes left, every node and entry number in range, every
/// phrase a `set:` entry points at present in the graph) and gives nil for anything else: a
/// truncated, corrupt or old file is rebuilt, never trusted, never a trap.
extension PhraseIndex {
    static let cacheMagic: [UInt8] = Array("INTINDEX".utf8)
    /// Bump when the bytes or what they mean change: an old cache is then rebuilt.
    public static let cacheFormatVersion: UInt32 = 2

    /// The cache file for `key` in `directory`.
    public static func cacheFile(key: UInt64, in directory: String) -> String {
        PathText.appending(directory, "index-" + String(key, radix: 16) + ".bin")
    }

    /// The index for `graph`: read from `cacheDirectory` when a cache for `key` (`cacheKey`) is
    /// there and whole, else built and written there; `fromCache` says which.
    public static func cached(graph: IntentGraph, key: UInt64, cacheDirectory: String)
        -> (index: PhraseIndex, fromCache: Bool)
    {
        let file = cacheFile(key: key, in: cacheDirectory)
        if let data = FileManager.default.contents(atPath: file),
            let index = PhraseIndex(decoding: Array(data), key: key, graph: graph)
        {
            return (index, true)
        }
        let index = PhraseIndex(graph: graph)
        if let bytes = index.encoded(key: key) {
            CacheFile.replace(file, in: cacheDirectory, with: bytes, others: "index-")
        }
        return (index, false)
    }

    /// The key: every definition file's path and bytes (by path), the format, and this program's
    /// executable (path, size and modification time), since the trie is what this build's
    /// normalizer and plural rules make of the phrases.
    public static func cacheKey(definitions: [(path: String, bytes: [UInt8])]) -> UInt64 {
        cacheKey(digest: DefinitionsDigest.of(definitions))
    }

    /// The key for definition files whose `DefinitionsDigest` is `digest`.
    public static func cacheKey(digest: UInt64) -> UInt64 {
        var hash = StableHash()
        hash.add("index format \(cacheFormatVersion)")
        if let program = Bundle.main.executablePath,
            let attributes = try? FileManager.default.attributesOfItem(atPath: program)
        {
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            hash.add("\(program) \((attributes[.size] as? NSNumber)?.int64Value ?? 0) \(modified)")
        }
        hash.add("definitions \(String(digest, radix: 16))")
        return hash.value
    }

    /// The key of the definition files at `paths`, as they are on disk now.
    public static func cacheKey(files paths: some Sequence<String>) -> UInt64 {
        cacheKey(digest: DefinitionsDigest.of(files: paths))
    }

    /// Where an entry's `set:` values come from: the phrase of its intent, as (list, shortcut, phrase)
    /// numbers; list 0 = `phrases`, 1 = `negativePhrases`, 2 = the app shortcut's phrases.
    private static func phrase(of entry: Entry, in graph: IntentGraph) -> (list: Int, shortcut: Int, phrase: Int)? {
        guard let app = graph.app(named: entry.app), let intent = app.intents.first(where: { $0.name == entry.intent })
        else { return nil }
        func same(_ phrase: IntentGraph.Phrase) -> Bool {
            phrase.template.source == entry.template && phrase.language == entry.language
                && phrase.values == entry.values
        }
        if entry.isShortcut {
            for (s, shortcut) in app.shortcuts.enumerated() where shortcut.intent == intent.name {
                if let p = shortcut.phrases.firstIndex(where: same) { return (2, s, p) }
            }
            return nil
        }
        let list = entry.isNegative ? intent.negativePhrases : intent.phrases
        return list.firstIndex(where: same).map { (entry.isNegative ? 1 : 0, 0, $0) }
    }

    private static func values(list: Int, shortcut: Int, phrase: Int, intent: QualifiedName, in graph: IntentGraph)
        -> [String: Value]?
    {
        guard let app = graph.app(named: intent.app), let own = app.intents.first(where: { $0.name == intent })
        else { return nil }
        let phrases: [IntentGraph.Phrase]
        switch list {
        case 0: phrases = own.phrases
        case 1: phrases = own.negativePhrases
        case 2:
            guard shortcut < app.shortcuts.count else { return nil }
            phrases = app.shortcuts[shortcut].phrases
        default: return nil
        }
        return phrase < phrases.count ? phrases[phrase].values : nil
    }

    /// The index's bytes, stamped with `key`; nil when it holds what the format does not carry
    /// (templates too large to index, which only `intents check` reports): such an index is not cached.
    func encoded(key: UInt64) -> [UInt8]? {
        guard skippedTemplates.isEmpty else { return nil }
        var writer = TableWriter()
        // The trie's arrays as they are (`Trie`): read back each in one go.
        writer.put(trie.starts)
        writer.put(trie.wordKeys)
        writer.put(trie.wordChildren)
        writer.put(UInt64(trie.slots.count))
        for slot in trie.slots {
            writer.put(slot.name)
            writer.put(slot.type)
            writer.put(slot.child)
        }
        writer.put(trie.appKeys)
        writer.put(trie.appChildren)
        writer.put(trie.entries)
        writer.put(trie.optionalKeys)
        writer.put(trie.optionalChildren)
        writer.put(UInt64(entries.count))
        for entry in entries {
            writer.put(entry.intent.app)
            writer.put(entry.intent.name)
            writer.put(entry.app)
            writer.put(entry.template)
            writer.put(entry.language)
            writer.put(UInt8((entry.appLeftOut ? 1 : 0) | (entry.isNegative ? 2 : 0) | (entry.isShortcut ? 4 : 0)))
            if entry.values.isEmpty {
                writer.put(UInt8(0))
            } else {
                guard let source = Self.phrase(of: entry, in: graph) else { return nil }
                writer.put(UInt8(1))
                writer.put(UInt32(source.list))
                writer.put(UInt32(source.shortcut))
                writer.put(UInt32(source.phrase))
            }
        }
        writer.put(UInt64(appNames.count))
        for (tokens, app) in appNames {
            writer.put(tokens)
            writer.put(app)
        }
        writer.put(UInt64(enumTerms.count))
        for (name, terms) in enumTerms {
            writer.put(name.app)
            writer.put(name.name)
            writer.put(UInt64(terms.count))
            for (tokens, id) in terms {
                writer.put(tokens)
                writer.put(id)
            }
        }
        writer.put(UInt64(spokenPhrases.count))
        for phrase in spokenPhrases {
            writer.put(phrase.text)
            writer.put(UInt32(phrase.wordCount))
            writer.put(UInt8(phrase.isShortcut ? 1 : 0))
            writer.put(phrase.language)
        }
        writer.put(UInt64(spokenByWord.count))
        for (word, phrases) in spokenByWord {
            writer.put(word)
            writer.put(phrases.map { Int64($0) })
        }
        writer.put(UInt64(spokenWordsByShape.count))
        for (shape, words) in spokenWordsByShape {
            writer.put(shape.first)
            writer.put(Int64(shape.length))
            writer.put(words)
        }
        writer.put(UInt64(wordsByLength.count))
        for (length, words) in wordsByLength {
            writer.put(Int64(length))
            writer.put(words.map(\.word))
            writer.put(words.map(\.mask))
        }
        writer.put(Array(vocabulary))
        var file = ByteWriter()
        file.bytes.append(contentsOf: Self.cacheMagic)
        file.put(Self.cacheFormatVersion)
        file.put(key)
        file.put(UInt64(writer.table.count))
        for text in writer.table { file.put(text) }
        file.bytes.append(contentsOf: writer.body.bytes)
        file.put(Self.checksum(file.bytes[...]))
        return file.bytes
    }

    /// The index in `bytes` over `graph`, when they are a whole, valid index of this format for `key`.
    /// `checksummed`: the bytes are a section of a file whose own checksum covered them
    /// (`CompiledCache`), so their inner checksum is not computed a second time.
    /// `range`: where in `bytes` the index is (all of them when nil), read in place.
    init?(decoding bytes: [UInt8], range: Range<Int>? = nil, key: UInt64, graph: IntentGraph, checksummed: Bool = false)
    {
        let range = range ?? bytes.indices
        guard range.count >= Self.cacheMagic.count + 4 + 8 + 8, bytes[range].starts(with: Self.cacheMagic) else {
            return nil
        }
        let last = range.upperBound - 8
        if !checksummed {
            var check = ByteReader(bytes: bytes, position: last)
            guard check.uint64() == Self.checksum(bytes[range.lowerBound..<last]) else { return nil }
        }
        // Read in place (the checksum's 8 bytes are after the end the last field must reach).
        var header = ByteReader(bytes: bytes, position: range.lowerBound + Self.cacheMagic.count, end: range.upperBound)
        guard header.uint32() == Self.cacheFormatVersion, header.uint64() == key, let textCount = header.count()
        else { return nil }
        var table: [String] = []
        table.reserveCapacity(textCount)
        for _ in 0..<textCount {
            guard let text = header.string() else { return nil }
            table.append(text)
        }
        var reader = TableReader(reader: header, table: table)
        guard let starts = reader.int32s(), let wordKeys = reader.strings(), let wordChildren = reader.int32s(),
            let slotCount = reader.count()
        else { return nil }
        var slots: [SlotEdge] = []
        slots.reserveCapacity(slotCount)
        for _ in 0..<slotCount {
            guard let name = reader.string(), let type = reader.valueType(), let child = reader.integer(Int32.self)
            else { return nil }
            slots.append(SlotEdge(name: name, type: type, child: child))
        }
        guard let appKeys = reader.strings(), let appChildren = reader.int32s(), let nodeEntries = reader.int32s(),
            let optionalKeys = reader.strings(), let optionalChildren = reader.int32s()
        else { return nil }
        let trie = Trie(
            starts: starts, wordKeys: wordKeys, wordChildren: wordChildren, slots: slots, appKeys: appKeys,
            appChildren: appChildren, entries: nodeEntries, optionalKeys: optionalKeys,
            optionalChildren: optionalChildren)
        guard let entryCount = reader.count() else { return nil }
        var entries: [Entry] = []
        entries.reserveCapacity(entryCount)
        let noValues: [String: Value] = [:]
        for _ in 0..<entryCount {
            guard let intentApp = reader.string(), let intentName = reader.string(), let app = reader.string(),
                let template = reader.string(), let language = reader.string(),
                let flags = reader.integer(UInt8.self), let hasValues = reader.integer(UInt8.self)
            else { return nil }
            let intent = QualifiedName(app: intentApp, name: intentName)
            var values = noValues
            switch hasValues {
            case 0: break
            case 1:
                guard let list = reader.uint32(), let shortcut = reader.uint32(), let phrase = reader.uint32(),
                    let found = Self.values(
                        list: Int(list), shortcut: Int(shortcut), phrase: Int(phrase), intent: intent, in: graph)
                else { return nil }
                values = found
            default: return nil
            }
            entries.append(
                Entry(
                    intent: intent, app: app, template: template, language: language, appLeftOut: flags & 1 != 0,
                    isNegative: flags & 2 != 0, isShortcut: flags & 4 != 0, values: values))
        }
        // Every trie edge leads to a node, every entry number names an entry.
        guard trie.isWhole(entryCount: entryCount) else { return nil }
        guard let appNameCount = reader.count() else { return nil }
        var appNames: [(tokens: [String], app: String)] = []
        for _ in 0..<appNameCount {
            guard let tokens = reader.strings(), let app = reader.string() else { return nil }
            appNames.append((tokens, app))
        }
        guard let enumCount = reader.count() else { return nil }
        var enumTerms: [QualifiedName: [(tokens: [String], id: String)]] = [:]
        for _ in 0..<enumCount {
            guard let app = reader.string(), let name = reader.string(), let termCount = reader.count() else {
                return nil
            }
            var terms: [(tokens: [String], id: String)] = []
            for _ in 0..<termCount {
                guard let tokens = reader.strings(), let id = reader.string() else { return nil }
                terms.append((tokens, id))
            }
            enumTerms[QualifiedName(app: app, name: name)] = terms
        }
        guard let spokenCount = reader.count() else { return nil }
        var spokenPhrases: [(text: String, wordCount: Int, isShortcut: Bool, language: String)] = []
        spokenPhrases.reserveCapacity(spokenCount)
        for _ in 0..<spokenCount {
            guard let text = reader.string(), let words = reader.uint32(), let shortcut = reader.integer(UInt8.self),
                shortcut <= 1, let language = reader.string()
            else { return nil }
            spokenPhrases.append((text, Int(words), shortcut == 1, language))
        }
        guard let byWordCount = reader.count() else { return nil }
        var spokenByWord: [String: [Int]] = [:]
        spokenByWord = Dictionary(minimumCapacity: byWordCount)
        for _ in 0..<byWordCount {
            guard let word = reader.string(), let phrases = reader.array(Int64.self),
                phrases.allSatisfy({ $0 >= 0 && $0 < Int64(spokenCount) })
            else { return nil }
            spokenByWord[word] = phrases.map { Int($0) }
        }
        guard let shapeCount = reader.count() else { return nil }
        var spokenWordsByShape: [WordShape: [String]] = [:]
        for _ in 0..<shapeCount {
            guard let first = reader.integer(UInt8.self), let length = reader.integer(Int64.self),
                let words = reader.strings()
            else { return nil }
            spokenWordsByShape[WordShape(first: first, length: Int(length))] = words
        }
        guard let lengthCount = reader.count() else { return nil }
        var wordsByLength: [Int: [(word: String, mask: UInt64)]] = [:]
        for _ in 0..<lengthCount {
            guard let length = reader.integer(Int64.self), let words = reader.strings(),
                let masks = reader.uint64s(), masks.count == words.count
            else { return nil }
            wordsByLength[Int(length)] = zip(words, masks).map { ($0, $1) }
        }
        guard let vocabulary = reader.strings(), reader.reader.position == last else { return nil }

        self.graph = graph
        self.trie = trie
        self.entries = entries
        self.appNames = appNames
        self.enumTerms = enumTerms
        self.spokenPhrases = spokenPhrases
        self.spokenByWord = spokenByWord
        self.spokenWordsByShape = spokenWordsByShape
        self.wordsByLength = wordsByLength
        self.vocabulary = Set(vocabulary)
        self.anywhereTypes = Self.anywhereTypes(in: graph)
        self.anywhereTerms = Self.anywhereTerms(anywhereTypes, enumTerms)
        guard Self.spokenCount(in: graph) == spokenPhrases.count else { return nil }
    }
}

extension PhraseIndex {
    /// A checksum of `bytes`: four FNV-style lanes of eight bytes each, 32 bytes a step (the file is
    /// megabytes, read by every cold start; byte by byte, or one lane, costs several times more).
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        let prime: UInt64 = 0x100_0000_01B3
        var a: UInt64 = 0xCBF2_9CE4_8422_2325, b: UInt64 = 0x9E37_79B9_7F4A_7C15
        var c: UInt64 = 0xC2B2_AE3D_27D4_EB4F, d: UInt64 = 0x1656_67B1_9E37_79F9
        bytes.withUnsafeBytes { raw in
            var offset = 0
            @inline(__always) func word(_ at: Int) -> UInt64 {
                UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            }
            while offset + 32 <= raw.count {
                a = (a ^ word(offset)) &* prime
                b = (b ^ word(offset + 8)) &* prime
                c = (c ^ word(offset + 16)) &* prime
                d = (d ^ word(offset + 24)) &* prime
                a ^= a >> 29
                b ^= b >> 29
                c ^= c >> 29
                d ^= d >> 29
                offset += 32
            }
            while offset + 8 <= raw.count {
                a = (a ^ word(offset)) &* prime
                a ^= a >> 29
                offset += 8
            }
            while offset < raw.count {
                a = (a ^ UInt64(raw[offset])) &* prime
                offset += 1
            }
        }
        var hash = a
        for lane in [b, c, d] {
            hash = (hash ^ lane) &* prime
            hash ^= hash >> 29
        }
        return hash ^ UInt64(bytes.count)
    }
}

/// Writes strings as numbers into a table of distinct strings (written before the rest): the
/// same words and templates recur all through the trie.
struct TableWriter {
    var body = ByteWriter()
    var table: [String] = []
    var numbers: [String: UInt32] = [:]

    mutating func put(_ text: String) {
        if let number = numbers[text] {
            body.put(number)
        } else {
            let number = UInt32(table.count)
            numbers[text] = number
            table.append(text)
            body.put(number)
        }
    }

    mutating func put<T: FixedWidthInteger>(_ value: T) { body.put(value) }
    mutating func put<T: FixedWidthInteger>(_ values: [T]) { body.put(values) }

    mutating func put(_ texts: [String]) {
        body.put(UInt64(texts.count))
        for text in texts { put(text) }
    }

    mutating func put(_ type: ValueType) {
        switch type {
        case .string: put(UInt8(0))
        case .integer: put(UInt8(1))
        case .number: put(UInt8(2))
        case .boolean: put(UInt8(3))
        case .date: put(UInt8(4))
        case .duration: put(UInt8(5))
        case .url: put(UInt8(6))
        case .enumeration(let name):
            put(UInt8(7))
            put(name.app)
            put(name.name)
        case .entity(let name):
            put(UInt8(8))
            put(name.app)
            put(name.name)
        case .array(let element):
            put(UInt8(9))
            put(element)
        }
    }
}

/// Reads what `TableWriter` wrote.
struct TableReader {
    var reader: ByteReader
    let table: [String]

    var isAtEnd: Bool { reader.isAtEnd }

    mutating func string() -> String? {
        guard let number = reader.uint32(), Int(number) < table.count else { return nil }
        return table[Int(number)]
    }

    mutating func integer<T: FixedWidthInteger>(_ type: T.Type) -> T? { reader.integer(type) }
    mutating func uint32() -> UInt32? { reader.uint32() }
    mutating func count() -> Int? { reader.count() }
    mutating func array<T: FixedWidthInteger>(_ type: T.Type) -> [T]? { reader.array(type) }
    mutating func int32s() -> [Int32]? { reader.int32s() }
    mutating func uint64s() -> [UInt64]? { reader.uint64s() }

    mutating func strings() -> [String]? {
        guard let count = reader.count(elementSize: 4) else { return nil }
        var texts: [String] = []
        texts.reserveCapacity(count)
        for _ in 0..<count {
            guard let text = string() else { return nil }
            texts.append(text)
        }
        return texts
    }

    /// A value type; nested arrays at most a few deep (a corrupt file could nest without end).
    mutating func valueType(depth: Int = 0) -> ValueType? {
        guard depth < 8, let tag = integer(UInt8.self) else { return nil }
        switch tag {
        case 0: return .string
        case 1: return .integer
        case 2: return .number
        case 3: return .boolean
        case 4: return .date
        case 5: return .duration
        case 6: return .url
        case 7, 8:
            guard let app = string(), let name = string() else { return nil }
            let qualified = QualifiedName(app: app, name: name)
            return tag == 7 ? .enumeration(qualified) : .entity(qualified)
        case 9: return valueType(depth: depth + 1).map { .array($0) }
        default: return nil
        }
    }
}
