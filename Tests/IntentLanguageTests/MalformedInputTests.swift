import Foundation
import IntentModel
import Testing

@testable import IntentLanguage

/// Any bytes in a definition file give diagnostics, never a trap or a hang: truncated,
/// line-shuffled and byte-flipped copies of the bundled examples go through the whole compiler.
struct MalformedInputTests {
    static let examples: [(path: String, bytes: [UInt8])] = {
        let files = (try? DefinitionLoader.files(in: Paths.intents)) ?? []
        return files.compactMap { path in FileManager.default.contents(atPath: path).map { (path, [UInt8]($0)) } }
    }()

    static func mutations(of bytes: [UInt8], seed: UInt64) -> [[UInt8]] {
        var random = SplitMix(state: seed)
        var result: [[UInt8]] = []
        for _ in 0..<12 {
            result.append(Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random))))
        }
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        for _ in 0..<6 {
            lines.shuffle(using: &random)
            result.append(Array(lines.joined(separator: [0x0A])))
        }
        for count in [1, 4, 32] {
            for _ in 0..<8 {
                var copy = bytes
                for _ in 0..<count where !copy.isEmpty {
                    let index = Int.random(in: 0..<copy.count, using: &random)
                    copy[index] = UInt8.random(in: 0...255, using: &random)
                }
                result.append(copy)
            }
        }
        let specials: [[UInt8]] = [
            [], [0], [0xEF, 0xBB, 0xBF], [0xFF, 0xFE, 0x00], Array("\t".utf8), Array(":".utf8),
            Array(repeating: 0x5B, count: 10_000), Array("&a [*a]".utf8), Array("a: !!binary xyz".utf8),
        ]
        return result + specials
    }

    @Test func bundledExamplesExist() {
        #expect(Self.examples.count >= 4)
    }

    @Test func mutatedFilesGiveDiagnosticsNotTraps() {
        var compiled = 0, withErrors = 0
        for (index, example) in Self.examples.enumerated() {
            for mutation in Self.mutations(of: example.bytes, seed: UInt64(index + 1)) {
                let others = Self.examples.filter { $0.path != example.path }
                let compilation = IntentCompiler.compile(
                    files: others + [(example.path, mutation)], root: Paths.intents)
                compiled += 1
                if compilation.hasErrors {
                    withErrors += 1
                    // Every error points into a file that was given, at a real line.
                    for diagnostic in compilation.diagnostics where diagnostic.severity == .error {
                        if let start = diagnostic.location?.start {
                            #expect(start.line >= 1 && start.column >= 1)
                        }
                    }
                } else {
                    #expect(compilation.graph != nil)
                }
            }
        }
        #expect(compiled > 200)
        #expect(withErrors > compiled / 2, "most mutations should be diagnosed: \(withErrors) of \(compiled)")
    }
}
