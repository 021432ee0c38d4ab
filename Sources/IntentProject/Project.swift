import Foundation
import IntentModel
public import IntentLanguage
public import IntentModel
public import PhraseMatching

/// Everything loaded from disk that a command works with: the checked graph, its phrase index,
/// the compiled shortcut files, the clock, and every diagnostic any of them gave.
///
/// One call, `Project.load`, does all of it; `check`, `test`, `run`, `say`, the REPL and the
/// benchmarks each make that call and nothing else to get going.
public struct Project: Sendable {
    /// The checked graph; nil when the definitions have errors.
    public let graph: IntentGraph?
    /// All phrase templates in one matcher index; nil without a graph.
    public let index: PhraseIndex?
    /// Compiled shortcut files by path (standardized), the ones `run:` steps call included.
    public let shortcuts: [String: Shortcut]
    /// Every diagnostic: definitions, sampled phrase conflicts, shortcut files; in file order.
    public let diagnostics: [Diagnostic]
    /// The text of every file read, for printing source lines.
    public let sources: SourceFiles
    /// Where "now" and the time zone come from.
    public let clock: Clock
    /// The shortcut files asked for, as given.
    public let shortcutFiles: [String]
    /// The definition files read.
    public let definitionFiles: Set<String>

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Which shortcut files to compile against the definitions.
    public enum Shortcuts: Sendable {
        case none
        /// Every `.yaml`/`.yml` file directly in a folder; a folder that does not exist gives none.
        case directory(String)
        case files([String])
    }

    /// Loads the definitions under `intents` and the shortcut files asked for, against `clock`.
    /// `sampleConflicts` also matches sentences sampled from every phrase against the other
    /// intents (what `intents check` reports). Throws only when the definitions cannot be read at all.
    /// `run:` steps may read shortcut files beside the file run and in the `Shortcuts` folder
    /// next to `intents`; `runAnywhere` lifts that. With `indexCache` (a folder, `.intents/` beside
    /// the store), the phrase index is read from the compiled cache there when one was written for
    /// the same definitions, else built and written there.
    public static func load(
        intents: String, shortcuts: Shortcuts = .none, clock: Clock, sampleConflicts: Bool = false,
        runAnywhere: Bool = false, indexCache: String? = nil
    ) throws(DefinitionLoadError) -> Project {
        // With the compiled cache: the files are read once, their bytes are the cache's key. A cache
        // for that key exists only when this build compiled the same bytes without errors, so the
        // phrase-conflict check (errors only on definitions that never get a cache) is left out.
        var cache: (directory: String, key: UInt64, known: Bool)?
        let compilation: Compilation
        if let indexCache, let definitions = Self.readDefinitions(intents) {
            let key = PhraseIndex.cacheKey(definitions: definitions)
            let known = FileManager.default.fileExists(atPath: PhraseIndex.cacheFile(key: key, in: indexCache))
            cache = (indexCache, key, known)
            compilation = IntentCompiler.compile(files: definitions, root: intents, phraseConflicts: !known)
        } else {
            compilation = try IntentCompiler.compile(directory: intents)
        }
        var collector = DiagnosticCollector()
        for diagnostic in compilation.diagnostics { collector.append(diagnostic) }
        var sources = compilation.sources
        let files = shortcutFiles(shortcuts)
        guard let graph = compilation.graph else {
            return Project(
                graph: nil, index: nil, shortcuts: [:], diagnostics: collector.sorted, sources: sources, clock: clock,
                shortcutFiles: files, definitionFiles: Set(compilation.files))
        }
        let index: PhraseIndex
        if let cache {
            let cached = PhraseIndex.cached(graph: graph, key: cache.key, cacheDirectory: cache.directory)
            if cache.known, !cached.fromCache {
                // The cache file was there but unreadable (and is rewritten now): check everything again.
                return try load(
                    intents: intents, shortcuts: shortcuts, clock: clock, sampleConflicts: sampleConflicts,
                    runAnywhere: runAnywhere, indexCache: nil)
            }
            index = cached.index
        } else {
            index = PhraseIndex(graph: graph)
        }
        let matcher = Matcher(index: index, clock: clock)
        if sampleConflicts {
            for diagnostic in ConflictSampler.check(graph, matcher: matcher) { collector.append(diagnostic) }
        }
        var compiled: [String: Shortcut] = [:]
        for file in files {
            let shortcutsFolder = PathText.appending(PathText.deletingLastComponent(intents), "Shortcuts")
            let result = ShortcutCompiler.compile(
                path: file, graph: graph, matcher: matcher, runFolders: [shortcutsFolder], runAnywhere: runAnywhere)
            for diagnostic in result.diagnostics { collector.append(diagnostic) }
            sources.merge(result.sources)
            compiled.merge(result.shortcuts) { first, _ in first }
        }
        let diagnostics = collector.sorted
        let failed = diagnostics.contains { $0.severity == .error }
        return Project(
            graph: failed ? nil : graph, index: failed ? nil : index, shortcuts: compiled, diagnostics: diagnostics,
            sources: sources, clock: clock, shortcutFiles: files,
            definitionFiles: Set(compilation.files))
    }

    /// Every definition file under `directory` with its bytes; nil when one cannot be read (then
    /// `IntentCompiler.compile(directory:)` reports it).
    private static func readDefinitions(_ directory: String) -> [(path: String, bytes: [UInt8])]? {
        guard let paths = try? DefinitionLoader.files(in: directory) else { return nil }
        var definitions: [(path: String, bytes: [UInt8])] = []
        for path in paths {
            guard case .bytes(let bytes) = FileBytes.read(path, limit: FileBytes.maximumDefinitionBytes) else { return nil }
            definitions.append((path, bytes))
        }
        return definitions
    }

    /// The compiled shortcut file at `path`; nil when it was not loaded or has errors.
    public func shortcut(at path: String) -> Shortcut? {
        shortcuts[ShortcutPath.lexical(path)]
    }

    /// A matcher over the index, reading the clock once, looking entity names up in `entities`.
    public func matcher(entities: (any EntityNameLookup)? = nil) -> Matcher? {
        index.map { Matcher(index: $0, entities: entities, clock: clock) }
    }

    private static func shortcutFiles(_ shortcuts: Shortcuts) -> [String] {
        switch shortcuts {
        case .none:
            return []
        case .files(let files):
            return files
        case .directory(let directory):
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
                .map { PathText.appending(directory, $0) }
        }
    }
}

extension Project {
    /// Whether `diagnostic` is about a shortcut file rather than a definition file (every command
    /// shows a shortcut file's warnings, since it runs the file it was given).
    public func isShortcutFile(_ diagnostic: Diagnostic) -> Bool {
        guard let file = diagnostic.location?.start.file else { return false }
        return !definitionFiles.contains(file)
    }
}
