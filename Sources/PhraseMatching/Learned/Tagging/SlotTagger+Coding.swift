import IntentModel

/// The tagger as bytes, in a cache file of its own (`tagger-<hash>.bin`, beside the learned
/// model's): a magic word, the format version, the definitions' hash, the arrays little-endian and
/// an FNV-1a checksum. Reading checks all of it and gives nil for anything else: a truncated or
/// corrupt file is retrained, never trusted.
extension SlotTagger {
    static let magic: [UInt8] = Array("INTTAGGR".utf8)
    /// Bump when the bytes, the features or what they mean change: an old cache is then retrained.
    public static let formatVersion: UInt32 = 1

    public func encoded(definitionsHash: UInt64) -> [UInt8] {
        var writer = ByteWriter()
        writer.bytes.append(contentsOf: Self.magic)
        writer.put(Self.formatVersion)
        writer.put(definitionsHash)
        writer.put(UInt64(slots.count))
        for slot in slots { writer.put(slot) }
        writer.put(UInt64(intents.count))
        for (i, intent) in intents.enumerated() {
            writer.put(intent.app)
            writer.put(intent.name)
            writer.put(intentLabels[i])
            writer.put(UInt64(frameWords[i].count))
            for word in frameWords[i] { writer.put(word) }
        }
        writer.put(featureKeys)
        writer.put(rowStart)
        writer.put(rowLabel)
        writer.put(rowWeight.map(\.bitPattern))
        writer.put(transitions.map(\.bitPattern))
        return writer.sealed()
    }

    public init?(decoding bytes: [UInt8], definitionsHash: UInt64) {
        guard
            var reader = ByteReader(
                opening: bytes, magic: Self.magic, formatVersion: Self.formatVersion, key: definitionsHash),
            let slotCount = reader.count()
        else { return nil }
        var slots: [String] = []
        slots.reserveCapacity(slotCount)
        for _ in 0..<slotCount {
            guard let slot = reader.string() else { return nil }
            slots.append(slot)
        }
        guard let intentCount = reader.count() else { return nil }
        var intents: [QualifiedName] = [], intentLabels: [[Int32]] = [], frameWords: [[String]] = []
        intents.reserveCapacity(intentCount)
        intentLabels.reserveCapacity(intentCount)
        frameWords.reserveCapacity(intentCount)
        for _ in 0..<intentCount {
            guard let app = reader.string(), let name = reader.string(), let labels = reader.int32s(),
                let wordCount = reader.count()
            else { return nil }
            var words: [String] = []
            words.reserveCapacity(wordCount)
            for _ in 0..<wordCount {
                // Sorted and distinct, as the trainer writes them: they are searched by halves.
                guard let word = reader.string(), words.last.map({ $0 < word }) ?? true else { return nil }
                words.append(word)
            }
            intents.append(QualifiedName(app: app, name: name))
            intentLabels.append(labels)
            frameWords.append(words)
        }
        guard let featureKeys = reader.uint64s(), let rowStart = reader.int32s(),
            let rowLabel = reader.array(UInt16.self), let rowWeight = reader.uint32s()?.map(Float.init(bitPattern:)),
            let transitions = reader.uint32s()?.map(Float.init(bitPattern:)), reader.isAtEnd
        else { return nil }
        let labelCount = 1 + 2 * slots.count
        guard zip(featureKeys, featureKeys.dropFirst()).allSatisfy({ $0 < $1 }),
            Set(intents).count == intents.count,
            intentLabels.allSatisfy({ $0.first == 0 && $0.allSatisfy { $0 >= 0 && Int($0) < labelCount } }),
            rowStart.count == featureKeys.count + 1, rowStart.first == 0, rowStart.last.map(Int.init) == rowLabel.count,
            zip(rowStart, rowStart.dropFirst()).allSatisfy({ $0 <= $1 }), rowWeight.count == rowLabel.count,
            rowLabel.allSatisfy({ Int($0) < labelCount }), rowWeight.allSatisfy(\.isFinite),
            transitions.count == (labelCount + 1) * labelCount, transitions.allSatisfy(\.isFinite)
        else { return nil }
        self.init(
            slots: slots, intents: intents, intentLabels: intentLabels, frameWords: frameWords,
            featureKeys: featureKeys, rowStart: rowStart, rowLabel: rowLabel, rowWeight: rowWeight,
            transitions: transitions)
    }
}
