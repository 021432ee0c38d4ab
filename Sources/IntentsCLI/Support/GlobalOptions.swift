import ArgumentParser
import Foundation
import IntentEngine
import IntentLanguage
import IntentModel
import IntentProject
import IntentRendering
import IntentRuntime
import ModelStore
import PhraseMatching

/// Options every command shares.
struct GlobalOptions: ParsableArguments {
    @Option(name: .customLong("intents"), help: ArgumentHelp("The definitions directory.", valueName: "dir"))
    var intentsDirectory: String = "Intents"

    /// The clock of every command: the system's in `$TZ`, or fixed by `$INTENTS_NOW` (ISO-8601).
    func clock() throws -> Clock {
        do {
            return try Clock.fromEnvironment()
        } catch {
            Terminal.standardError("error: \(error.description)\n")
            throw ExitCode(2)
        }
    }

    /// Loads the definitions (and shortcut files) with `Project.load`; prints errors, and warnings
    /// when asked, to stderr. The project may have errors: `check` reports them all.
    func loadProject(
        directory: String? = nil, shortcuts: Project.Shortcuts = .none, sampleConflicts: Bool = false,
        warnings: Bool = false, runAnywhere: Bool = false, quiet: Bool = false, indexCache: String? = nil
    ) throws -> Project {
        let project: Project
        do {
            project = try Project.load(
                intents: directory ?? intentsDirectory, shortcuts: shortcuts, clock: clock(),
                sampleConflicts: sampleConflicts, runAnywhere: runAnywhere, indexCache: indexCache)
        } catch let error as DefinitionLoadError {
            Terminal.standardError("error: \(error.description)\n")
            throw ExitCode(1)
        }
        if !quiet { Terminal.printDiagnostics(project, warnings: warnings) }
        return project
    }

    /// A project without errors: its graph, or `ExitCode(1)` after the errors were printed.
    func loadGraph(directory: String? = nil) throws -> (project: Project, graph: IntentGraph) {
        let project = try loadProject(directory: directory)
        guard let graph = project.graph else { throw ExitCode(1) }
        return (project, graph)
    }
}

enum Terminal {
    /// Writes to standard error with each control character written visibly (`\u{1B}`): messages
    /// quote what people typed and what files and stores hold, which may hold terminal escapes.
    static func standardError(_ text: String) {
        standardError(raw: ControlCharacters.escaped(text))
    }

    /// Writes to standard error as given: for the sequences this program means (colours, clearing
    /// a progress line) and text already escaped (`DiagnosticPrinter` escapes what it quotes).
    static func standardError(raw text: String) {
        JSONEnvelope.noteStandardError(text)
        FileHandle.standardError.write(Data(text.utf8))
    }

    static var stderrIsTerminal: Bool {
        isatty(STDERR_FILENO) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    /// Errors always; warnings only when asked (commands other than `check` keep quiet about them).
    static func printDiagnostics(_ project: Project, warnings: Bool) {
        let shown = project.diagnostics.filter { warnings || $0.severity == .error || project.isShortcutFile($0) }
        guard !shown.isEmpty else { return }
        let printer = DiagnosticPrinter(sources: project.sources, colored: stderrIsTerminal)
        standardError(raw: printer.render(shown))
        if let summary = DiagnosticPrinter.summary(shown) { standardError(summary + "\n") }
    }
}

/// Where the store lives: `--store PATH`, else `$INTENTS_STORE`, else `./.intents/store.sqlite`.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .customLong("store"),
        help: ArgumentHelp(
            "The store: a SQLite file, or a PostgreSQL database as postgres://user@host:port/db (default: $INTENTS_STORE or ./.intents/store.sqlite).",
            valueName: "path"))
    var storePath: String?

    var path: String {
        if let storePath { return storePath }
        if let path = ProcessInfo.processInfo.environment["INTENTS_STORE"], !path.isEmpty { return path }
        return ".intents/store.sqlite"
    }

    /// Whether there may be a store to read: its file exists, or it is a PostgreSQL database
    /// (opening it says whether the schema holds one).
    var mayExist: Bool {
        IntentEngine.Configuration.isPostgres(path) || FileManager.default.fileExists(atPath: path)
    }

    /// The compiled cache's folder: the store's (`.intents/` by default).
    var cacheDirectory: String { IntentEngine.Configuration.folder(ofStore: path) }

    /// Opens the store for `graph`; a store that cannot be used is an error with exit status 1.
    func open(_ graph: IntentGraph, clock: Clock, readOnly: Bool = false) throws -> Store {
        do {
            let store = try IntentEngine.openStore(path: path, graph: graph, clock: clock, readOnly: readOnly)
            Self.reportOrphans(store)
            return store
        } catch {
            Terminal.standardError("error: \(error.description)\n")
            throw ExitCode(1)
        }
    }

    /// Records of entities the definitions no longer declare are kept; say so once per command.
    static func reportOrphans(_ store: Store) {
        guard let orphans = try? store.orphanedRecords() else { return }
        reportOrphans(orphans)
    }

    static func reportOrphans(_ orphans: [String: Int]) {
        for (name, count) in orphans.sorted(by: { $0.key < $1.key }) {
            Terminal.standardError(
                "warning: the store holds \(count) \(name) record\(count == 1 ? "" : "s") that the definitions no longer declare (renamed or removed?); they are kept, and 'intents store export' includes them\n"
            )
        }
    }

    /// Opens an existing store for looking into it: brought up to date with the definitions when
    /// that is safe (additive changes), else as it is, read-only — so a store whose migration was
    /// refused can still be listed and exported.
    func openForReading(_ graph: IntentGraph, clock: Clock) throws -> Store {
        if let store = try? IntentEngine.openStore(path: path, graph: graph, clock: clock) {
            Self.reportOrphans(store)
            return store
        }
        return try open(graph, clock: clock, readOnly: true)
    }
}
