import ArgumentParser
import Foundation
import IntentEngine
import IntentModel
import IntentProject

extension StoreOptions {
    /// The engine over the definitions and this store: the one way the commands that talk to the
    /// apps get going. Errors (and warnings of shortcut files) are printed to stderr, as a compiler
    /// prints them; a store that cannot be used exits 1.
    ///
    /// `dryRun`: an existing store is opened read-only, so the command leaves it byte for byte as it
    /// was (a missing one is created empty: there is nothing to keep as it was). On PostgreSQL the
    /// schema is opened read-only when it holds a store, and made only when it holds none.
    func engine(
        _ global: GlobalOptions, shortcuts: Project.Shortcuts = .none, runAnywhere: Bool = false, dryRun: Bool = false
    ) throws -> IntentEngine {
        var configuration = IntentEngine.Configuration(
            definitions: global.intentsDirectory, store: path, clock: try global.clock(),
            cacheDirectory: cacheDirectory,
            shortcuts: shortcuts, runAnywhere: runAnywhere, readOnly: dryRun && mayExist)
        let engine: IntentEngine
        do {
            do {
                engine = try IntentEngine(configuration)
            } catch .store where configuration.readOnly && IntentEngine.Configuration.isPostgres(path) {
                // No store in the schema yet (or the server cannot be reached, which the next
                // attempt says again).
                configuration.readOnly = false
                engine = try IntentEngine(configuration)
            }
        } catch {
            switch error {
            case .invalid(let project):
                Terminal.printDiagnostics(project, warnings: false)
            case .unreadable(let message), .store(let message), .refused(let message):
                Terminal.standardError("error: \(message)\n")
            }
            throw ExitCode(1)
        }
        Terminal.printDiagnostics(engine.project, warnings: false)
        if let orphans = try? engine.orphanedRecords() { Self.reportOrphans(orphans) }
        return engine
    }
}
