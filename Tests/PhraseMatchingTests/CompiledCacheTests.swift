import Foundation
import IntentModel
import TestSupport
import Testing
import YAML

@testable import PhraseMatching

@Suite("The compiled project in one file: the graph and index read back answer the same; damage is refused")
struct CompiledCacheTests {
    let directory: String = {
        let path = NSTemporaryDirectory() + "intents-compiled-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Everything a value holds, dictionaries and sets in a fixed order: equal texts, equal values.
    static func canonical(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .dictionary, .set:
            return "{" + mirror.children.map { canonical($0.value) }.sorted().joined(separator: ", ") + "}"
        case .optional:
            return mirror.children.first.map { canonical($0.value) } ?? "nil"
        case .struct, .class, .enum, .tuple, .collection:
            if mirror.children.isEmpty { return "\(value)" }
            return "\(mirror.subjectType)("
                + mirror.children.map { ($0.label ?? "") + ": " + canonical($0.value) }
                .joined(separator: ", ") + ")"
        default:
            return "\(value)"
        }
    }

    @Test("The graph read back is the graph written, field for field, and matches every sentence the same")
    func sameGraphSameAnswers() throws {
        let built = PhraseIndex(graph: Bundled.graph)
        _ = try #require(
            CompiledCache.write(graph: Bundled.graph, index: built, diagnostics: [], key: 7, in: directory))
        let read = try #require(CompiledCache.load(key: 7, in: directory))
        #expect(Self.canonical(read.graph) == Self.canonical(Bundled.graph))
        let fromDefinitions = Matcher(index: built, clock: Bundled.clock)
        let fromCache = Matcher(index: read.index, clock: Bundled.clock)
        for sentence in PhraseIndexCacheTests.sentences {
            #expect(
                PhraseIndexCacheTests.describe(fromCache.recognize(sentence))
                    == PhraseIndexCacheTests.describe(fromDefinitions.recognize(sentence)),
                "\(sentence)")
        }
    }

    @Test("Sections stored later (the learned models) are kept in the file and read back")
    func sectionsKept() throws {
        let cache = try #require(
            CompiledCache.write(
                graph: Bundled.graph, index: PhraseIndex(graph: Bundled.graph), diagnostics: [], key: 9, in: directory))
        cache.store("learned", [1, 2, 3])
        cache.store("tagger", [4, 5])
        cache.store("learned", [6])
        let read = try #require(CompiledCache.load(key: 9, in: directory))
        #expect(read.cache.section("learned") == [6])
        #expect(read.cache.section("tagger") == [4, 5])
        #expect(read.cache.section("other") == nil)
    }

    @Test("Truncated, altered, another key's or another format's file is refused, never trusted")
    func refused() throws {
        let cache = try #require(
            CompiledCache.write(
                graph: Bundled.graph, index: PhraseIndex(graph: Bundled.graph), diagnostics: [], key: 11, in: directory)
        )
        let bytes = try #require(FileManager.default.contents(atPath: cache.file))
        func load(_ altered: Data, key: UInt64 = 11) throws -> Bool {
            try altered.write(to: URL(fileURLWithPath: cache.file))
            return CompiledCache.load(key: key, in: directory) != nil
        }
        #expect(try load(bytes))
        #expect(try !load(bytes, key: 12))
        for length in [0, 8, 20, bytes.count / 3, bytes.count - 9, bytes.count - 1] {
            #expect(try !load(bytes.prefix(length)), "\(length) bytes")
        }
        for offset in [0, 9, 30, bytes.count / 2, bytes.count - 3] {
            var altered = bytes
            altered[offset] ^= 0x40
            #expect(try !load(altered), "byte \(offset) altered")
        }
        // Another format version, with a checksum that holds: refused all the same.
        var other = Array(bytes)
        other[8] &+= 1
        let sealed = other.prefix(other.count - 8)
        let checksum = PhraseIndex.checksum(sealed[...])
        other = Array(sealed) + withUnsafeBytes(of: checksum.littleEndian, Array.init)
        #expect(try !load(Data(other)))
    }

    @Test("The graph's bytes cut short or altered throw; they never trap")
    func damagedGraphBytes() throws {
        let diagnostics = [
            Diagnostic(
                .warning, "intent 'AddNote' has no examples",
                at: SourceRange(at: Mark(file: "notes/app.yaml", line: 3, column: 3)),
                notes: [Diagnostic.Note("declared here", at: nil)],
                fixIt: Diagnostic.FixIt(
                    replacement: "x", range: SourceRange(at: Mark(file: "notes/app.yaml", line: 4, column: 1))))
        ]
        let bytes = GraphCoding.encode(Bundled.graph, diagnostics: diagnostics)
        let read = try GraphCoding.decode(bytes)
        #expect(Self.canonical(read.graph) == Self.canonical(Bundled.graph))
        #expect(read.diagnostics == diagnostics)
        for length in [0, 7, 8, bytes.count / 2, bytes.count - 1] {
            #expect(throws: GraphCoding.Damaged.self, "\(length) bytes") {
                try GraphCoding.decode(Array(bytes.prefix(length)))
            }
        }
        #expect(throws: GraphCoding.Damaged.self, "a byte after the end") { try GraphCoding.decode(bytes + [0]) }
        var random = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var altered = bytes
            for _ in 0..<3 {
                altered[Int.random(in: 0..<altered.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            // Either an error or some graph: never a trap (the file's checksum refuses such bytes first).
            _ = try? GraphCoding.decode(altered)
        }
    }

    @Test("Nesting deeper than the bound is refused, not read until the stack runs out")
    func deepNesting() throws {
        var deep = Value.integer(1)
        for _ in 0..<(GraphCoding.maximumDepth + 10) { deep = .array([deep]) }
        var writer = GraphWriter()
        writer.value(deep)
        var reader = GraphReader(
            base: TableReader(reader: ByteReader(bytes: writer.base.body.bytes, position: 0), table: []))
        #expect(throws: GraphCoding.Damaged.self) { try reader.value() }
    }
    @Test("A part of a template written again is read back as the same part; a reference to none is refused")
    func repeatedTemplateParts() throws {
        let article = PhraseTemplate.Item.optional([[.word("the")], [.word("my")]])
        let verb = PhraseTemplate.Item.alternatives([[.word("add")], [.word("create"), article]])
        let items: [PhraseTemplate.Item] = [verb, article, .word("invoice"), .slot("title", offset: 4), verb, article]
        var writer = GraphWriter()
        writer.items(items)
        writer.items([article, verb])
        var once = GraphWriter(), twice = GraphWriter()
        once.items([verb])
        twice.items([verb, verb])
        var reader = GraphReader(
            base: TableReader(reader: ByteReader(bytes: writer.base.body.bytes, position: 0), table: writer.base.table))
        #expect(try reader.items() == items)
        #expect(try reader.items() == [article, verb])
        // A part again costs a tag and its number (5 bytes), not its words.
        #expect(twice.base.body.bytes.count == once.base.body.bytes.count + 5)
        var dangling = GraphWriter()
        dangling.count(1)
        dangling.tag(6)
        dangling.base.put(UInt32(0))
        var broken = GraphReader(
            base: TableReader(reader: ByteReader(bytes: dangling.base.body.bytes, position: 0), table: []))
        #expect(throws: GraphCoding.Damaged.self) { try broken.items() }
    }
}
