import Foundation
import TestSupport
import Testing

/// `Package.swift` says exactly what the code imports: every module a target's files import is a
/// declared dependency, and every declared dependency is imported (issue 26, "arrows one way").
/// A module reached only through another target builds today and breaks when that target drops
/// it; a declared one nobody imports is an arrow the reader follows for nothing.
struct PackageGraphTests {
    /// A target as `swift package dump-package` describes it.
    struct Target: Decodable {
        var name: String
        var type: String
        var path: String?
        var dependencies: [Dependency]

        var folder: String { path ?? (type == "test" ? "Tests/" : "Sources/") + name }
    }

    /// `{"byName": [name, condition]}`, `{"target": …}` or `{"product": [name, package, …]}`: the
    /// first element names the module.
    struct Dependency: Decodable {
        var module: String

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            guard let kind = container.allKeys.first else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "empty"))
            }
            var elements = try container.nestedUnkeyedContainer(forKey: kind)
            module = try elements.decode(String.self)
        }
    }

    struct Manifest: Decodable { var targets: [Target] }

    /// Modules of the toolchain, which no manifest declares.
    static let toolchainModules: Set<String> = [
        "Foundation", "FoundationEssentials", "Dispatch", "Glibc", "Musl", "Darwin", "Synchronization", "Testing",
        "XCTest", "_Concurrency",
    ]

    static func manifest() throws -> Manifest {
        // A scratch path of its own: the test run holds the lock on the package's `.build`.
        let scratch = NSTemporaryDirectory() + "package-graph-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let run = try ExternalTool.run(
            "swift", ["package", "dump-package", "--package-path", Bundled.root, "--scratch-path", scratch])
        #expect(run.status == 0, "swift package dump-package failed: \(run.stderr)")
        return try JSONDecoder().decode(Manifest.self, from: Data(run.stdout.utf8))
    }

    /// The modules the Swift files under `folder` import (outside multi-line string literals).
    static func imports(under folder: String) throws -> [String: [String]] {
        var found: [String: [String]] = [:]
        let root = Bundled.root + "/" + folder
        guard let files = FileManager.default.enumerator(atPath: root) else { return [:] }
        for case let file as String in files where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            var inString = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.components(separatedBy: "\"\"\"").count % 2 == 0 { inString.toggle() }
                if inString { continue }
                if let module = importedModule(line) { found[module, default: []].append(folder + "/" + file) }
            }
        }
        return found
    }

    /// `import X`, `public import X`, `@testable import X`, `import struct X.Y` → X.
    static func importedModule(_ line: Substring) -> String? {
        var words = line.split(separator: " ").map(String.init)
        // Attributes of an import are one word each: `@testable`, `@preconcurrency`, `@_spi(Name)`.
        while let first = words.first, first.hasPrefix("@"), first.allSatisfy({ $0.isLetter || "@_()".contains($0) }) {
            words.removeFirst()
        }
        if let first = words.first, ["public", "package", "internal", "fileprivate", "private"].contains(first) {
            words.removeFirst()
        }
        guard words.first == "import", words.count >= 2 else { return nil }
        let kinds: Set<String> = ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"]
        let path = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
        return path.split(separator: ".").first.map(String.init)
    }

    @Test("Every target declares exactly the modules its files import")
    func dependenciesMatchImports() throws {
        for target in try Self.manifest().targets where target.type != "system" {
            let imported = try Self.imports(under: target.folder)
            let declared = Set(target.dependencies.map(\.module))
            for (module, files) in imported.sorted(by: { $0.key < $1.key })
            where !declared.contains(module) && !Self.toolchainModules.contains(module) {
                Issue.record("\(target.name) imports \(module) (\(files[0])) but does not declare it in Package.swift")
            }
            for module in declared.sorted() where imported[module] == nil {
                Issue.record("\(target.name) declares \(module) in Package.swift but no file of it imports it")
            }
        }
    }

    /// The Swift files under `folder`, relative to it, with their text.
    static func sources(under folder: String) throws -> [(file: String, text: String)] {
        let root = Bundled.root + "/" + folder
        guard let files = FileManager.default.enumerator(atPath: root) else { return [] }
        return try files.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map {
            ($0, try String(contentsOfFile: root + "/" + $0, encoding: .utf8))
        }
    }

    @Test("IntentRuntime's core names no surface, and no surface extends Conversation")
    func runtimeCoreStandsAlone() throws {
        let files = try Self.sources(under: "Sources/IntentRuntime")
        let core = files.filter { $0.file.hasPrefix("Core/") }
        let surfaces = files.filter { !$0.file.hasPrefix("Core/") }
        #expect(!core.isEmpty && !surfaces.isEmpty)
        // The types the surfaces declare at the start of a line (nested ones are reached through these).
        let declaration = /^(?:public |package )?(?:final )?(?:struct|enum|class|protocol|actor) ([A-Z]\w*)/
        var declared: [String: String] = [:]
        for (file, text) in surfaces {
            for line in text.split(separator: "\n") {
                if let match = line.prefixMatch(of: declaration) { declared[String(match.1)] = file }
            }
            for line in text.split(separator: "\n") where line.hasPrefix("extension Conversation") {
                Issue.record("\(file) extends Conversation: a surface reaches the core through IntentPerformer")
            }
        }
        #expect(!declared.isEmpty)
        for (file, text) in core {
            let words = Set(text.split { !$0.isLetter && !$0.isNumber }.map(String.init))
            for (name, surface) in declared.sorted(by: { $0.key < $1.key }) where words.contains(name) {
                Issue.record("Core/\(file) names \(name), which \(surface) declares: the core knows no surface")
            }
        }
    }
}
