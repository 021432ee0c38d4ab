import Foundation
public import IntentModel

/// The compiled project in one file beside the store (`.intents/compiled-<key>.bin`): the checked
/// graph, its phrase index, and the learned stage's models once they were trained, keyed like the
/// phrase index's cache (the definition files' paths and bytes and this program's build, so a changed
/// file or another build never reads it). A process that finds it does no YAML parsing and no
/// compiling: it reads the file in one go and decodes the graph and the index from it.
///
/// Layout: the magic word `INTCOMPL`, the format version, the key, the number of sections, each
/// section's name and bytes (the graph and the definitions' warnings in `GraphCoding`'s hand-written
/// form; the index, the learned model and the tagger in their own cache forms, which the cache
/// carries without reading), and a checksum of everything before it. Anything else (truncated, damaged, another key or format) is not read:
/// the project is compiled again and the file written anew.
///
/// Definitions with errors are never cached; their warnings are, and every load reports them as the
/// compiler did.
public final class CompiledCache: @unchecked Sendable {
    static let magic: [UInt8] = Array("INTCOMPL".utf8)
    /// Bump when the layout or what a section means changes.
    public static let formatVersion: UInt32 = 5
    /// Larger files are not read (a cache is megabytes; this bounds what a damaged file can cost).
    static let maximumBytes = 1 << 30

    public let file: String
    public let directory: String
    public let key: UInt64
    private let lock = NSLock()
    /// Each section's bytes: slices of the file as it was read (not copied out of it), or as stored.
    private var sections: [String: ArraySlice<UInt8>]
    private var order: [String]

    private init(file: String, directory: String, key: UInt64, sections: [(String, ArraySlice<UInt8>)]) {
        self.file = file
        self.directory = directory
        self.key = key
        self.sections = Dictionary(sections, uniquingKeysWith: { first, _ in first })
        self.order = sections.map(\.0)
    }

    /// The cache file for `key` in `directory`.
    public static func file(key: UInt64, in directory: String) -> String {
        PathText.appending(directory, "compiled-" + String(key, radix: 16) + ".bin")
    }

    /// The graph and index cached for `key` in `directory`; nil when there is none, or it is damaged,
    /// or another format's.
    public static func load(key: UInt64, in directory: String)
        -> (cache: CompiledCache, graph: IntentGraph, index: PhraseIndex, diagnostics: [Diagnostic])?
    {
        let path = file(key: key, in: directory)
        // The sections are decoded where they lie in the file's bytes: copying them out first
        // touched as many new pages again as the file has (a cold start's page faults, issue 25).
        guard case .bytes(let bytes) = FileBytes.read(path, limit: maximumBytes),
            let sections = parse(bytes, key: key),
            let graphRange = sections.first(where: { $0.0 == "graph" })?.1,
            let indexRange = sections.first(where: { $0.0 == "index" })?.1,
            let decoded = try? GraphCoding.decode(bytes, range: graphRange),
            let index = PhraseIndex(
                decoding: bytes, range: indexRange, key: key, graph: decoded.graph, checksummed: true)
        else { return nil }
        return (
            CompiledCache(
                file: path, directory: directory, key: key, sections: sections.map { ($0.0, bytes[$0.1]) }),
            decoded.graph, index, decoded.diagnostics
        )
    }

    /// Writes `graph`, `index` and the definitions' `diagnostics` (warnings: a graph with errors is
    /// never cached) for `key` into `directory`, replacing the caches of other definitions there;
    /// nil when they cannot be encoded (an index with templates too large to index) or the file
    /// cannot be written.
    public static func write(
        graph: IntentGraph, index: PhraseIndex, diagnostics: [Diagnostic], key: UInt64, in directory: String
    ) -> CompiledCache? {
        guard !diagnostics.contains(where: { $0.severity == .error }), let indexBytes = index.encoded(key: key)
        else { return nil }
        let cache = CompiledCache(
            file: file(key: key, in: directory), directory: directory, key: key,
            sections: [("graph", GraphCoding.encode(graph, diagnostics: diagnostics)[...]), ("index", indexBytes[...])])
        return cache.save() ? cache : nil
    }

    /// A section's bytes (`learned`, `tagger`), as `store` gave them.
    public func section(_ name: String) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        return sections[name].map(Array.init)
    }

    /// Adds or replaces a section and writes the file anew. A file that cannot be written is no
    /// error: the next process builds what is missing again.
    public func store(_ name: String, _ bytes: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        if sections.updateValue(bytes[...], forKey: name) == nil { order.append(name) }
        _ = save()
    }

    /// Writes the file (holding the lock, or before the cache is shared).
    private func save() -> Bool {
        var writer = ByteWriter()
        writer.bytes.append(contentsOf: Self.magic)
        writer.put(Self.formatVersion)
        writer.put(key)
        writer.put(UInt64(order.count))
        for name in order {
            writer.put(name)
            writer.put(UInt64(sections[name]!.count))
            writer.bytes.append(contentsOf: sections[name]!)
        }
        writer.put(PhraseIndex.checksum(writer.bytes[...]))
        return CacheFile.replace(file, in: directory, with: writer.bytes, others: "compiled-")
    }

    /// Where each section lies in `bytes`, when they are a whole file of this format for `key`.
    static func parse(_ bytes: [UInt8], key: UInt64) -> [(String, Range<Int>)]? {
        guard bytes.count >= magic.count + 4 + 8 + 8 + 8, bytes.starts(with: magic) else { return nil }
        var check = ByteReader(bytes: bytes, position: bytes.count - 8)
        guard check.uint64() == PhraseIndex.checksum(bytes[..<(bytes.count - 8)]) else { return nil }
        var reader = ByteReader(bytes: bytes, position: magic.count)
        guard reader.uint32() == formatVersion, reader.uint64() == key, let count = reader.count(elementSize: 16)
        else { return nil }
        var sections: [(String, Range<Int>)] = []
        for _ in 0..<count {
            guard let name = reader.string(), let length = reader.uint64(),
                length <= UInt64(bytes.count - 8 - reader.position)
            else { return nil }
            let start = reader.position
            sections.append((name, start..<(start + Int(length))))
            reader.position += Int(length)
        }
        guard reader.position == bytes.count - 8 else { return nil }
        return sections
    }
}

extension LearnedStage {
    /// The bytes cached for a learned model: the compiled cache's section when the stage has one,
    /// else its own file.
    func cachedBytes(section: String, file: String?) -> [UInt8]? {
        if let compiled { return compiled.section(section) }
        guard let file, let data = FileManager.default.contents(atPath: file) else { return nil }
        return Array(data)
    }

    /// Caches a learned model's bytes: in the compiled cache when the stage has one, else in its own
    /// file (`others`: the prefix of the files it replaces).
    func storeBytes(_ bytes: @autoclosure () -> [UInt8], section: String, file: String?, others: String) {
        if let compiled {
            compiled.store(section, bytes())
        } else if let directory = cacheDirectory, let file {
            CacheFile.replace(file, in: directory, with: bytes(), others: others)
        }
    }
}
