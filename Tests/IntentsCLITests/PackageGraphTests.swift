import Foundation
import TestSupport
import Testing

/// `Package.swift` says exactly what the code imports: each library and executable target declares
/// the package's own targets it imports, and no others (docs/architecture.md draws the result).
/// SwiftPM refuses a cycle; this keeps the declared arrows from drifting away from the code's.
struct PackageGraphTests {
    /// One target as `Package.swift` declares it.
    struct Target {
        var name: String
        var kind: String
        var path: String
        var dependencies: Set<String>
    }

    /// The targets of `Package.swift`, read from its text: each `.target(`, `.executableTarget(`,
    /// `.testTarget(` or `.systemLibrary(` call, its `name:`, `path:` and quoted dependencies
    /// (products of other packages, `.product(name: …, package: …)`, are left out).
    static func targets(in manifest: String) -> [Target] {
        let kinds = ["target", "executableTarget", "testTarget", "systemLibrary"]
        var targets: [Target] = []
        var rest = Substring(manifest)
        while let start = kinds.compactMap({ rest.range(of: ".\($0)(") }).min(by: { $0.lowerBound < $1.lowerBound }) {
            let kind = String(rest[rest.index(after: start.lowerBound)..<rest.index(before: start.upperBound)])
            // The call's text: up to its closing parenthesis.
            var depth = 1
            var end = start.upperBound
            while end < rest.endIndex, depth > 0 {
                if rest[end] == "(" { depth += 1 } else if rest[end] == ")" { depth -= 1 }
                end = rest.index(after: end)
            }
            let call = String(rest[start.upperBound..<end])
            rest = rest[end...]
            guard let name = Self.quoted(after: "name: ", in: call) else { continue }
            var dependencies: Set<String> = []
            if let list = call.range(of: "dependencies: [") {
                var text = String(call[list.upperBound...])
                if let close = text.firstIndex(of: "]") { text = String(text[..<close]) }
                // Products of other packages are `.product(name: "X", package: "Y")`: drop them.
                text = text.replacingOccurrences(of: #"\.product\([^)]*\)"#, with: "", options: .regularExpression)
                for match in text.matches(of: /"([^"]+)"/) { dependencies.insert(String(match.1)) }
            }
            let folder = kind == "testTarget" ? "Tests/" : "Sources/"
            targets.append(
                Target(
                    name: name, kind: kind, path: Self.quoted(after: "path: ", in: call) ?? folder + name,
                    dependencies: dependencies))
        }
        return targets
    }

    static func quoted(after label: String, in text: String) -> String? {
        guard let range = text.range(of: label + "\"") else { return nil }
        return text[range.upperBound...].prefix { $0 != "\"" }.description
    }

    /// The modules the Swift files under `folder` import.
    static func imports(under folder: String) throws -> Set<String> {
        // `import X`, `public import X`, `@testable import X`, `@preconcurrency import X`.
        let statement = /\s*(?:@\w+\s+)*(?:(?:public|package|internal)\s+)?import\s+(\w+).*/
        var found: Set<String> = []
        let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                if let match = line.wholeMatch(of: statement) { found.insert(String(match.1)) }
            }
        }
        return found
    }

    @Test func theManifestIsReadWhole() throws {
        let manifest = try String(contentsOfFile: Bundled.root + "/Package.swift", encoding: .utf8)
        let names = Set(Self.targets(in: manifest).map(\.name))
        for expected in ["YAML", "IntentModel", "PhraseMatching", "ModelStore", "IntentsCLI", "TestSupport"] {
            #expect(names.contains(expected), "\(expected) not read from Package.swift")
        }
    }

    @Test func eachTargetDeclaresExactlyThePackageTargetsItImports() throws {
        let manifest = try String(contentsOfFile: Bundled.root + "/Package.swift", encoding: .utf8)
        let targets = Self.targets(in: manifest)
        let ours = Set(targets.map(\.name))
        // Test targets may declare what they only run (IntentsCLITests runs the `intents` binary).
        for target in targets where target.kind == "target" || target.kind == "executableTarget" {
            let imported = try Self.imports(under: Bundled.root + "/" + target.path).intersection(ours)
                .subtracting([target.name])
            #expect(
                imported == target.dependencies.intersection(ours),
                """
                \(target.name): imported but not declared \(imported.subtracting(target.dependencies).sorted()), \
                declared but not imported \(target.dependencies.intersection(ours).subtracting(imported).sorted())
                """)
        }
    }
}
