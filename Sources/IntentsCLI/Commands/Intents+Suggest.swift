import ArgumentParser
import Foundation
import IntentModel

extension Intents {
    /// The program's entry: a first word that is almost a command ("sya") is answered with the
    /// command meant, instead of being handed to the REPL as an unexpected argument; `--intents` and
    /// `--store` may come before the command; every usage error exits 2 (see `ExitStatus`).
    static func main() {
        // `--version` alone is answered before argument-parser builds the command tree (its
        // reflection over every command's options was most of the program's start: BENCHMARKS.md).
        if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "--version" {
            print(version)
            Foundation.exit(ExitStatus.done.code)
        }
        let arguments = hoistingGlobalOptions(Array(CommandLine.arguments.dropFirst()))
        JSONEnvelope.start(arguments, root: Self.self)
        if let first = arguments.first, !first.hasPrefix("-") {
            let names = configuration.subcommands.map { $0._commandName } + ["help"]
            if !names.contains(first), let meant = EditDistance.closest(to: first, in: names) {
                Terminal.standardError(
                    "error: unknown command '\(first)'; did you mean '\(meant)'? (intents --help lists the commands)\n")
                JSONEnvelope.finish(status: ExitStatus.usage.code)
                Foundation.exit(ExitStatus.usage.code)
            }
        }
        if arguments == ["help", "exit-codes"] {
            print(ExitStatus.table, terminator: "")
            Foundation.exit(ExitStatus.done.code)
        }
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            exit(with: error, usage: nil)
        }
        do {
            try command.run()
        } catch {
            exit(with: error, usage: type(of: command))
        }
        Foundation.exit(ExitStatus.done.code)
    }

    /// Exits as `ExitStatus` says: argument-parser's usage errors (its 64, `EX_USAGE`) become 2, with
    /// the usage line of the command that refused (not the root's) when it was refused while running.
    private static func exit(with error: any Error, usage command: (any ParsableCommand.Type)?) -> Never {
        let code = exitCode(for: error)
        guard code == .validationFailure else {
            if JSONEnvelope.command != nil {
                // argument-parser writes its message for errors that are not `ExitCode`s as it exits.
                JSONEnvelope.finish(status: code.rawValue, message: error is ExitCode ? nil : message(for: error))
            }
            exit(withError: error)
        }
        if let command, command != Self.self {
            let name = CommandPath.path(to: command).joined(separator: " ")
            Terminal.standardError(
                "Error: \(message(for: error))\nUsage: \(usageString(for: command))\n  See 'intents \(name) --help' for more information.\n"
            )
        } else {
            Terminal.standardError(fullMessage(for: error) + "\n")
        }
        JSONEnvelope.finish(status: ExitStatus.usage.code, message: message(for: error))
        Foundation.exit(ExitStatus.usage.code)
    }

    /// `intents --intents DIR say …` means `intents say --intents DIR …`: the options every command
    /// shares may come first; they are moved after the command's name (and its group's).
    static func hoistingGlobalOptions(_ arguments: [String]) -> [String] {
        let shared = ["--intents", "--store"]
        var leading: [String] = []
        var rest = arguments[...]
        while let first = rest.first {
            if shared.contains(first), rest.count >= 2 {
                leading += rest.prefix(2)
                rest = rest.dropFirst(2)
            } else if shared.contains(where: { first.hasPrefix($0 + "=") }) {
                leading.append(first)
                rest = rest.dropFirst()
            } else {
                break
            }
        }
        guard !leading.isEmpty else { return arguments }
        var names: [String] = []
        var type: any ParsableCommand.Type = Self.self
        while let word = rest.first,
            let sub = type.configuration.subcommands.first(where: { $0._commandName == word })
        {
            names.append(word)
            type = sub
            rest = rest.dropFirst()
        }
        return names + leading + rest
    }
}

/// Finds a command's names from the root, for "See 'intents store list --help'".
enum CommandPath {
    static func path(to command: any ParsableCommand.Type) -> [String] {
        func search(_ type: any ParsableCommand.Type, _ names: [String]) -> [String]? {
            if type == command { return names }
            for sub in type.configuration.subcommands {
                if let found = search(sub, names + [sub._commandName]) { return found }
            }
            return nil
        }
        return search(Intents.self, []) ?? [command._commandName]
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
