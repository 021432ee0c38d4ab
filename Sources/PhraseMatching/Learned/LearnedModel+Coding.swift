import IntentModel

/// The model as bytes, for the compiled cache: a magic word, the format version, the definitions'
/// hash, the arrays little-endian, and an FNV-1a checksum of everything before it. Reading checks
/// all of it (sizes against the bytes left, ids in range, order where lookups rely on it) and gives
/// nil for anything else: a truncated or corrupt file is rebuilt, never trusted, never a trap.
extension LearnedModel {
    static let magic: [UInt8] = Array("INTLEARN".utf8)
    /// Bump when the bytes or what they mean change: an old cache is then retrained.
    public static let formatVersion: UInt32 = 6

    /// The model's bytes, stamped with `definitionsHash`.
    public func encoded(definitionsHash: UInt64) -> [UInt8] {
        var writer = ByteWriter()
        writer.bytes.append(contentsOf: Self.magic)
        writer.put(Self.formatVersion)
        writer.put(definitionsHash)
        writer.put(UInt64(intents.count))
        for intent in intents {
            writer.put(intent.app)
            writer.put(intent.name)
        }
        writer.put(classIntent)
        writer.put(UInt64(classTemplate.count))
        for template in classTemplate { writer.put(template) }
        writer.put(UInt64(words.count))
        for word in words { writer.put(word) }
        writer.put(pairs)
        writer.put(idf.map(\.bitPattern))
        writer.put(postingStart)
        writer.put(postingClass)
        writer.put(postingWeight.map(\.bitPattern))
        writer.put(UInt64(classifier.features.count))
        for feature in classifier.features { writer.put(feature) }
        writer.put(classifier.scale.map(\.bitPattern))
        writer.put(classifier.rowStart)
        writer.put(classifier.rowClass)
        writer.put(classifier.rowWeight.map(\.bitPattern))
        writer.put(classifier.bias.map(\.bitPattern))
        writer.put(classifier.temperature.bitPattern)
        let relatedWords = related.keys.sorted()
        writer.put(UInt64(relatedWords.count))
        for word in relatedWords {
            writer.put(word)
            writer.put(related[word]!.joined(separator: " "))
        }
        writer.put(classIsPhrase.map { Int32($0 ? 1 : 0) })
        return writer.sealed()
    }

    /// The model in `bytes`, when they are a whole, valid model of this format for `definitionsHash`.
    public init?(decoding bytes: [UInt8], definitionsHash: UInt64) {
        guard
            var reader = ByteReader(
                opening: bytes, magic: Self.magic, formatVersion: Self.formatVersion, key: definitionsHash),
            let intentCount = reader.count()
        else { return nil }
        var intents: [QualifiedName] = []
        for _ in 0..<intentCount {
            guard let app = reader.string(), let name = reader.string() else { return nil }
            intents.append(QualifiedName(app: app, name: name))
        }
        guard let classIntent = reader.int32s(), let templateCount = reader.count() else { return nil }
        var classTemplate: [String] = []
        for _ in 0..<templateCount {
            guard let template = reader.string() else { return nil }
            classTemplate.append(template)
        }
        guard let wordCount = reader.count() else { return nil }
        var words: [String] = []
        for _ in 0..<wordCount {
            guard let word = reader.string() else { return nil }
            words.append(word)
        }
        guard let pairs = reader.uint64s(), let idf = reader.uint32s()?.map(Float.init(bitPattern:)),
            let postingStart = reader.int32s(), let postingClass = reader.int32s(),
            let postingWeight = reader.uint32s()?.map(Float.init(bitPattern:)),
            let featureCount = reader.count()
        else { return nil }
        var classifierFeatures: [String] = []
        for _ in 0..<featureCount {
            guard let feature = reader.string() else { return nil }
            classifierFeatures.append(feature)
        }
        guard let scale = reader.uint32s()?.map(Float.init(bitPattern:)), let rowStart = reader.int32s(),
            let rowClass = reader.int32s(),
            let rowWeight = reader.uint32s()?.map(Float.init(bitPattern:)),
            let bias = reader.uint32s()?.map(Float.init(bitPattern:)),
            let temperature = reader.uint32().map(Float.init(bitPattern:)), let relatedCount = reader.count()
        else { return nil }
        var related: [String: [String]] = [:]
        for _ in 0..<relatedCount {
            guard let word = reader.string(), let synsets = reader.string() else { return nil }
            related[word] = synsets.split(separator: " ").map(String.init)
        }
        guard let classIsPhrase = reader.int32s(), classIsPhrase.count == classIntent.count,
            classIsPhrase.allSatisfy({ $0 == 0 || $0 == 1 }), reader.isAtEnd,
            bias.count == intents.count + 1, bias.allSatisfy(\.isFinite), temperature.isFinite, temperature > 0,
            zip(classifierFeatures, classifierFeatures.dropFirst()).allSatisfy({ $0 < $1 }),
            scale.count == classifierFeatures.count, scale.allSatisfy({ $0.isFinite && $0 > 0 }),
            rowStart.count == classifierFeatures.count + 1, rowStart.first == 0,
            zip(rowStart, rowStart.dropFirst()).allSatisfy({ $0 <= $1 }), Int(rowStart.last!) == rowClass.count,
            rowClass.count == rowWeight.count, rowClass.allSatisfy({ $0 >= 0 && Int($0) < bias.count }),
            rowWeight.allSatisfy(\.isFinite)
        else { return nil }
        // Consistency: what lookups index with must be in range, what they search must be sorted.
        let features = words.count + pairs.count
        guard classTemplate.count == classIntent.count, classIntent.allSatisfy({ $0 >= 0 && Int($0) < intents.count }),
            zip(words, words.dropFirst()).allSatisfy({ $0 < $1 }),
            zip(pairs, pairs.dropFirst()).allSatisfy({ $0 < $1 }),
            idf.count == features, idf.allSatisfy(\.isFinite),
            postingStart.count == features + 1, postingStart.first == 0,
            zip(postingStart, postingStart.dropFirst()).allSatisfy({ $0 <= $1 }),
            Int(postingStart.last!) == postingClass.count, postingClass.count == postingWeight.count,
            postingClass.allSatisfy({ $0 >= 0 && Int($0) < classIntent.count }), postingWeight.allSatisfy(\.isFinite)
        else { return nil }
        for feature in 0..<features {
            let row = postingClass[Int(postingStart[feature])..<Int(postingStart[feature + 1])]
            guard zip(row, row.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
        }
        self.init(
            intents: intents, classIntent: classIntent, classTemplate: classTemplate, words: words, pairs: pairs,
            idf: idf, postingStart: postingStart, postingClass: postingClass, postingWeight: postingWeight,
            classifier: LearnedClassifier(
                features: classifierFeatures, scale: scale, rowStart: rowStart, rowClass: rowClass,
                rowWeight: rowWeight, bias: bias, temperature: temperature), related: related,
            classIsPhrase: classIsPhrase.map { $0 == 1 })
    }
}

struct ByteWriter {
    var bytes: [UInt8] = []

    /// The bytes written, with their FNV-1a checksum after them (what `ByteReader(opening:…)` checks).
    func sealed() -> [UInt8] {
        var hash = StableHash()
        hash.add(bytes)
        var writer = self
        writer.put(hash.value)
        return writer.bytes
    }

    mutating func put<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func put(_ text: String) {
        put(UInt64(text.utf8.count))
        bytes.append(contentsOf: text.utf8)
    }

    mutating func put<T: FixedWidthInteger>(_ values: [T]) {
        put(UInt64(values.count))
        for value in values { put(value) }
    }
}

struct ByteReader {
    let bytes: [UInt8]
    var position: Int
    /// Where the bytes to read end: a section of a larger file (`CompiledCache`) is read in place,
    /// not copied out of it first.
    let end: Int

    init(bytes: [UInt8], position: Int, end: Int? = nil) {
        self.bytes = bytes
        self.position = position
        self.end = end ?? bytes.count
    }

    /// A cache file's body, read after its magic word, format version and key: nil when any of them
    /// differs, the file is too short, or its checksum (the last 8 bytes, from `sealed()`) is wrong.
    init?(opening bytes: [UInt8], magic: [UInt8], formatVersion: UInt32, key: UInt64) {
        guard bytes.count >= magic.count + 4 + 8 + 8, bytes.starts(with: magic) else { return nil }
        var hash = StableHash()
        hash.add(bytes[..<(bytes.count - 8)])
        var checksum = ByteReader(bytes: bytes, position: bytes.count - 8)
        guard checksum.uint64() == hash.value else { return nil }
        self.init(bytes: bytes, position: magic.count, end: bytes.count - 8)
        guard uint32() == formatVersion, uint64() == key else { return nil }
    }

    var isAtEnd: Bool { position == end }

    /// A little-endian integer, read in one load (not byte by byte: the phrase index's cache is
    /// megabytes of them, read by every cold start).
    mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
        let size = MemoryLayout<T>.size
        guard end - position >= size else { return nil }
        let offset = position
        let value = bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
        position += size
        return value
    }

    mutating func uint32() -> UInt32? { integer(UInt32.self) }
    mutating func uint64() -> UInt64? { integer(UInt64.self) }

    /// A count that the bytes left could hold (each element at least one byte).
    mutating func count(elementSize: Int = 1) -> Int? {
        guard let count = uint64(), count <= UInt64((end - position) / elementSize) else { return nil }
        return Int(count)
    }

    mutating func string() -> String? {
        guard let length = count() else { return nil }
        let text = String(decoding: bytes[position..<(position + length)], as: UTF8.self)
        position += length
        return text
    }

    mutating func array<T: FixedWidthInteger>(_: T.Type) -> [T]? {
        let size = MemoryLayout<T>.size
        guard let count = count(elementSize: size) else { return nil }
        if count == 0 { return [] }  // most trie nodes end no sentence: no buffer for them
        let start = position
        let values = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            bytes.withUnsafeBytes { raw in
                #if _endian(little)
                    // The bytes are the values as this machine holds them: one copy.
                    UnsafeMutableRawBufferPointer(buffer).copyMemory(
                        from: UnsafeRawBufferPointer(rebasing: raw[start..<(start + count * size)]))
                #else
                    for index in 0..<count {
                        buffer[index] = T(
                            littleEndian: raw.loadUnaligned(fromByteOffset: start + index * size, as: T.self))
                    }
                #endif
            }
            initialized = count
        }
        position += count * size
        return values
    }

    mutating func int32s() -> [Int32]? { array(Int32.self) }
    mutating func uint32s() -> [UInt32]? { array(UInt32.self) }
    mutating func uint64s() -> [UInt64]? { array(UInt64.self) }
}
