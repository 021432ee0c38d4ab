import Foundation
public import IntentModel
public import PhraseMatching

/// Compiles shortcut files against an intent graph: unknown intents, parameters, variables and
/// type mismatches become `file:line:col` diagnostics, before anything runs.
public enum ShortcutCompiler {
    /// Compiles the file at `path` and every file its `run:` steps call; `matcher` checks literal
    /// `say:` phrases.
    /// `run:` steps may read files under the first file's folder and under `runFolders` (the
    /// definitions' `Shortcuts/`); with `runAnywhere`, any file.
    public static func compile(
        path: String, graph: IntentGraph, matcher: Matcher, runFolders: [String] = [], runAnywhere: Bool = false
    ) -> ShortcutCompilation {
        compile(
            path: path, graph: graph, matcher: matcher, files: [:], runFolders: runFolders, runAnywhere: runAnywhere)
    }

    /// The same, with the text of some files given (by standardized path) instead of read from disk.
    package static func compile(
        path: String, graph: IntentGraph, matcher: Matcher, files: [String: String], runFolders: [String] = [],
        runAnywhere: Bool = false
    ) -> ShortcutCompilation {
        var checker = ShortcutChecker(
            graph: graph, matcher: matcher,
            files: Dictionary(files.map { (ShortcutPath.lexical($0.key), $0.value) }, uniquingKeysWith: { a, _ in a }))
        checker.runFolders = runAnywhere ? nil : runFolders.map(ShortcutPath.canonical)
        let shortcut = checker.file(path, from: nil)
        let diagnostics = checker.compiler.diagnostics.sorted
        let failed = diagnostics.contains { $0.severity == .error }
        return ShortcutCompilation(
            shortcut: failed ? nil : shortcut, shortcuts: failed ? [:] : checker.compiled,
            diagnostics: diagnostics, sources: checker.compiler.sources)
    }
}
