import Foundation
import IntentModel
import IntentRendering
import Testing

@testable import IntentLanguage

/// The printed diagnostics of a broken definitions folder, compared with a reviewed golden file.
/// Re-record with `RECORD_GOLDEN=1 swift test` and review the diff.
struct GoldenDiagnosticsTests {
    @Test func brokenFolderPrintsLikeACompiler() throws {
        let folder = Paths.fixtures + "/broken"
        // Relative paths, so the golden file does not depend on where the checkout lives.
        let previous = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(folder)
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        let compilation = try IntentCompiler.compile(directory: "Intents")
        var output = DiagnosticPrinter(sources: compilation.sources).render(compilation.diagnostics)
        output += (DiagnosticPrinter.summary(compilation.diagnostics) ?? "") + "\n"
        let golden = folder + "/expected.txt"
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] != nil {
            try output.write(toFile: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOfFile: golden, encoding: .utf8)
        #expect(output == expected)
        #expect(compilation.hasErrors)
    }
}
