import ArgumentParser
import Foundation
import IntentModel

extension Intents {
    /// The program's entry: a first word that is almost a command ("sya") is answered with the
    /// command meant, instead of being handed to the REPL as an unexpected argument.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let first = arguments.first, !first.hasPrefix("-") {
            let names = configuration.subcommands.map { $0._commandName } + ["help"]
            if !names.contains(first), let meant = EditDistance.closest(to: first, in: names) {
                Terminal.standardError(
                    "error: unknown command '\(first)'; did you mean '\(meant)'? (intents --help lists the commands)\n")
                Foundation.exit(2)
            }
        }
        main(nil)
    }
}

extension GlobalOptions {
    /// `--lang` must be a language some app declares; else an error with exit status 2.
    static func checkLanguage(_ lang: String?, in graph: IntentGraph) throws {
        guard let lang else { return }
        let declared = Set(graph.apps.flatMap(\.languages))
        guard !declared.contains(lang) else { return }
        Terminal.standardError(
            "error: no app declares the language '\(lang)' (declared: \(declared.sorted().joined(separator: ", ")))\n")
        throw ExitCode(2)
    }
}
