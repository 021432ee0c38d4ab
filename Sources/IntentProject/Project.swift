import Foundation
public import IntentLanguage
import IntentModel
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
    public var sources: SourceFiles {
        guard !unparsedSources.isEmpty else { return parsedSources }
        var all = parsedSources
        for (path, bytes) in unparsedSources {
            var file = SourceFiles()
            file.add(path: path, text: String(decoding: bytes, as: UTF8.self))
            all.merge(file)
        }
        return all
    }
    private let parsedSources: SourceFiles
    /// Definition files read from the compiled cache, not parsed: their text for `sources`, made on demand.
    private let unparsedSources: [(path: String, bytes: [UInt8])]
    /// Where "now" and the time zone come from.
    public let clock: Clock
    /// The shortcut files asked for, as given.
    public let shortcutFiles: [String]
    /// The definition files read.
    public let definitionFiles: Set<String>
    /// Their `DefinitionsDigest` when it was taken as they were read (with a compiled cache).
    private let knownDigest: UInt64?
    /// The definition files' `DefinitionsDigest`, what the learned models are keyed by.
    public var definitionsDigest: UInt64 { knownDigest ?? DefinitionsDigest.of(files: definitionFiles) }
    /// The compiled cache the graph and index were read from or written to (the learned stage keeps
    /// its models in it); nil when the project was not cached.
    public let compiled: CompiledCache?

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
    /// the store), the graph and the phrase index are read from the compiled cache there
    /// (`CompiledCache`) when one was written for the same definition bytes and build: no parsing, no
    /// compiling; the definitions' warnings are cached with them and reported as before. Else the
    /// definitions are compiled and, without errors, cached there.
    public static func load(
        intents: String, shortcuts: Shortcuts = .none, clock: Clock, sampleConflicts: Bool = false,
        runAnywhere: Bool = false, indexCache: String? = nil
    ) throws(DefinitionLoadError) -> Project {
        // With the compiled cache: the files are read once, their bytes are the cache's key. A cache
        // for that key exists only when this build compiled the same bytes without errors, so the
        // phrase-conflict check (errors only on definitions that never get a cache) is left out.
        var cache: (directory: String, key: UInt64, known: Bool)?
        var digest: UInt64?
        let compilation: Compilation
        if let indexCache, let definitions = Self.readDefinitions(intents) {
            let taken = DefinitionsDigest.of(definitions)
            digest = taken
            let key = PhraseIndex.cacheKey(digest: taken)
            // The whole compiled project cached for these bytes and this build: no YAML, no compiling.
            if !sampleConflicts, let hit = CompiledCache.load(key: key, in: indexCache) {
                return fromCache(
                    hit, definitions: definitions, digest: taken, intents: intents, shortcuts: shortcuts,
                    clock: clock, runAnywhere: runAnywhere)
            }
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
                graph: nil, index: nil, shortcuts: [:], diagnostics: collector.sorted, parsedSources: sources,
                unparsedSources: [], clock: clock, shortcutFiles: files, definitionFiles: Set(compilation.files),
                knownDigest: digest, compiled: nil)
        }
        let index: PhraseIndex
        var compiled: CompiledCache?
        if let cache, !sampleConflicts {
            // The graph, its warnings and the index (and later the learned models) cached together,
            // so the next process neither parses nor compiles.
            index = PhraseIndex(graph: graph)
            // The warnings in their reported order, so that a load without shortcuts need not sort them.
            compiled = CompiledCache.write(
                graph: graph, index: index, diagnostics: collector.sorted, key: cache.key, in: cache.directory)
        } else if let cache {
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
        let compiledShortcuts = compileShortcuts(
            files, intents: intents, graph: graph, matcher: matcher, runAnywhere: runAnywhere, collector: &collector,
            sources: &sources)
        let diagnostics = collector.sorted
        let failed = diagnostics.contains { $0.severity == .error }
        return Project(
            graph: failed ? nil : graph, index: failed ? nil : index, shortcuts: compiledShortcuts,
            diagnostics: diagnostics, parsedSources: sources, unparsedSources: [], clock: clock, shortcutFiles: files,
            definitionFiles: Set(compilation.files), knownDigest: digest, compiled: failed ? nil : compiled)
    }

    /// The project from its compiled cache: the shortcut files asked for are compiled against the
    /// cached graph (they are not definitions, and not cached).
    private static func fromCache(
        _ hit: (cache: CompiledCache, graph: IntentGraph, index: PhraseIndex, diagnostics: [Diagnostic]),
        definitions: [(path: String, bytes: [UInt8])], digest: UInt64, intents: String, shortcuts: Shortcuts,
        clock: Clock, runAnywhere: Bool
    ) -> Project {
        var sources = SourceFiles()
        let files = shortcutFiles(shortcuts)
        let compiledShortcuts: [String: Shortcut]
        let diagnostics: [Diagnostic]
        if files.isEmpty {
            // The cache holds the warnings already sorted (`load` writes them so): sorting and copying
            // a thousand of them again was 5 % of a cold `say` over 1,000 intents.
            compiledShortcuts = [:]
            diagnostics = hit.diagnostics
        } else {
            var collector = DiagnosticCollector()
            for diagnostic in hit.diagnostics { collector.append(diagnostic) }
            compiledShortcuts = compileShortcuts(
                files, intents: intents, graph: hit.graph, matcher: Matcher(index: hit.index, clock: clock),
                runAnywhere: runAnywhere, collector: &collector, sources: &sources)
            diagnostics = collector.sorted
        }
        let failed = diagnostics.contains { $0.severity == .error }
        return Project(
            graph: failed ? nil : hit.graph, index: failed ? nil : hit.index, shortcuts: compiledShortcuts,
            diagnostics: diagnostics, parsedSources: sources, unparsedSources: definitions, clock: clock,
            shortcutFiles: files, definitionFiles: Set(definitions.map(\.path)), knownDigest: digest,
            compiled: failed ? nil : hit.cache)
    }

    private static func compileShortcuts(
        _ files: [String], intents: String, graph: IntentGraph, matcher: Matcher, runAnywhere: Bool,
        collector: inout DiagnosticCollector, sources: inout SourceFiles
    ) -> [String: Shortcut] {
        var compiled: [String: Shortcut] = [:]
        for file in files {
            let shortcutsFolder = PathText.appending(PathText.deletingLastComponent(intents), "Shortcuts")
            let result = ShortcutCompiler.compile(
                path: file, graph: graph, matcher: matcher, runFolders: [shortcutsFolder], runAnywhere: runAnywhere)
            for diagnostic in result.diagnostics { collector.append(diagnostic) }
            sources.merge(result.sources)
            compiled.merge(result.shortcuts) { first, _ in first }
        }
        return compiled
    }

    /// Every definition file under `directory` with its bytes; nil when one cannot be read (then
    /// `IntentCompiler.compile(directory:)` reports it).
    private static func readDefinitions(_ directory: String) -> [(path: String, bytes: [UInt8])]? {
        guard let paths = try? DefinitionLoader.files(in: directory) else { return nil }
        var definitions: [(path: String, bytes: [UInt8])] = []
        for path in paths {
            guard case .bytes(let bytes) = FileBytes.read(path, limit: FileBytes.maximumDefinitionBytes) else {
                return nil
            }
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
