import ArgumentParser
import Foundation
import IntentLanguage
import IntentModel
import IntentRuntime
import ModelStore
import PhraseMatching

/// Options every command shares.
struct GlobalOptions: ParsableArguments {
    @Option(name: .customLong("intents"), help: ArgumentHelp("The definitions directory.", valueName: "dir"))
    var intentsDirectory: String = "Intents"

    /// Compiles the definitions; prints diagnostics to stderr; throws `ExitCode(1)` on errors.
    func loadGraph(directory: String? = nil) throws -> IntentGraph {
        let compilation = try compile(directory: directory ?? intentsDirectory)
        Terminal.printDiagnostics(compilation, warnings: false)
        guard let graph = compilation.graph else { throw ExitCode(1) }
        return graph
    }

    func compile(directory: String) throws -> Compilation {
        do {
            return try IntentCompiler.compile(directory: directory)
        } catch {
            Terminal.standardError("error: \(error.description)\n")
            throw ExitCode(1)
        }
    }
}

enum Terminal {
    static func standardError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil }

    /// Errors always; warnings only when asked (commands other than `check` keep quiet about them).
    static func printDiagnostics(_ compilation: Compilation, warnings: Bool) {
        let shown = compilation.diagnostics.filter { warnings || $0.severity == .error }
        guard !shown.isEmpty else { return }
        let printer = DiagnosticPrinter(sources: compilation.sources, colored: stderrIsTerminal)
        standardError(printer.render(shown))
        if let summary = DiagnosticPrinter.summary(shown) { standardError(summary + "\n") }
    }
}

/// Where the store lives: `--store PATH`, else `$INTENTS_STORE`, else `./.intents/store.sqlite`.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("store"), help: ArgumentHelp("The store file (default: $INTENTS_STORE or ./.intents/store.sqlite).", valueName: "path"))
    var storePath: String?

    var path: String {
        if let storePath { return storePath }
        if let path = ProcessInfo.processInfo.environment["INTENTS_STORE"], !path.isEmpty { return path }
        return ".intents/store.sqlite"
    }

    /// Opens the store for `graph`; a store that cannot be used is an error with exit status 1.
    func open(_ graph: IntentGraph, readOnly: Bool = false) throws -> Store {
        do {
            return try Store(path: path, graph: graph, readOnly: readOnly)
        } catch {
            Terminal.standardError("error: \(error.description)\n")
            throw ExitCode(1)
        }
    }

    /// Opens an existing store for looking into it: brought up to date with the definitions when
    /// that is safe (additive changes), else as it is, read-only — so a store whose migration was
    /// refused can still be listed and exported.
    func openForReading(_ graph: IntentGraph) throws -> Store {
        if let store = try? Store(path: path, graph: graph) { return store }
        return try open(graph, readOnly: true)
    }

    /// The definitions, the store and the phrase index, ready for a conversation.
    func session(_ global: GlobalOptions, graph: IntentGraph? = nil, index: PhraseIndex? = nil) throws -> Session {
        let graph = try graph ?? global.loadGraph()
        let store = try open(graph)
        do {
            let session = try Session(graph: graph, store: store, index: index)
            // A fixed "now" for reproducible runs (tests, recorded transcripts): $INTENTS_NOW, ISO-8601.
            if let text = ProcessInfo.processInfo.environment["INTENTS_NOW"], !text.isEmpty {
                guard let moment = ISODate.parse(text) else {
                    Terminal.standardError("error: INTENTS_NOW is not an ISO-8601 date: \(text)\n")
                    throw ExitCode(2)
                }
                session.clock = { moment }
            }
            return session
        } catch let exit as ExitCode {
            throw exit
        } catch {
            Terminal.standardError("error: \(error)\n")
            throw ExitCode(1)
        }
    }
}
