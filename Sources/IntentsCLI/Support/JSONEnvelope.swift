import ArgumentParser
import Foundation
import IntentModel

/// Every command's `--json` output, one shape for all (docs/json.md, checked against
/// docs/json.schema.json): one envelope a line on standard output,
///
///     {"version":1,"command":"store list","ok":true,"result":{…}}
///     {"version":1,"command":"open","ok":false,"error":{"code":"usage","message":"…"}}
///
/// `result` is the command's own object (for `say`, `open`, `share`, `continue` and `control` the
/// answer object the server's `/v1/say` sends); `error` is the server's error object. A command
/// that exits non-zero without having written an envelope writes the error envelope then, its
/// message the one it wrote to standard error.
enum JSONEnvelope {
    static let version = 1

    /// The command whose `--json` output this process writes (`store list`), or nil without `--json`.
    nonisolated(unsafe) private(set) static var command: String?
    nonisolated(unsafe) private static var written = false
    /// What was written to standard error since the last envelope (`error: ` taken off).
    nonisolated(unsafe) private static var messages: [String] = []

    /// Called once with the program's arguments, before they are parsed: `--json` anywhere among
    /// them turns the envelope on, named by the command words that lead them.
    static func start(_ arguments: [String], root: any ParsableCommand.Type) {
        startIfAsked(Array(arguments.prefix { $0 != "--" }), root: root)
    }

    private static func startIfAsked(_ arguments: [String], root: any ParsableCommand.Type) {
        guard arguments.contains("--json") else { return }
        var names: [String] = []
        var type = root
        var rest = arguments[...]
        while let word = rest.first,
            let sub = type.configuration.subcommands.first(where: { $0._commandName == word })
        {
            names.append(word)
            type = sub
            rest = rest.dropFirst()
        }
        if names.isEmpty, let first = arguments.first, !first.hasPrefix("-") { names = [first] }
        command = names.isEmpty ? "repl" : names.joined(separator: " ")
    }

    /// Writes `result` as the command's result.
    static func write<T: Encodable>(_ result: T) throws {
        write(resultText: try JSONText.compact(result))
    }

    static func write(_ result: JSONValue) {
        write(resultText: JSONText.compact(result))
    }

    private static func write(resultText: String) {
        written = true
        messages = []
        Swift.print(head + #","ok":true,"result":"# + resultText + "}")
        fflush(nil)
    }

    /// Writes an error envelope (a refused line of `say`'s input, a refused link).
    static func writeError(code: String, message: String) {
        written = true
        messages = []
        let error = JSONText.compact(JSONValue.object(["code": .string(code), "message": .string(message)]))
        Swift.print(head + #","ok":false,"error":"# + error + "}")
        fflush(nil)
    }

    /// With `--json`, an error envelope of what was written to standard error since the last
    /// envelope: one line of several refused (`say`'s piped phrases), the others answered.
    static func writeNotedError(code: String) {
        guard command != nil else { return }
        writeError(code: code, message: messages.isEmpty ? "refused" : messages.joined(separator: "\n"))
    }

    private static var head: String {
        #"{"version":\#(version),"command":"# + JSONText.compact(JSONValue.string(command ?? "intents"))
    }

    /// Notes a message written to standard error, for the error envelope.
    static func noteStandardError(_ text: String) {
        guard command != nil else { return }
        var line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        for prefix in ["error: ", "Error: "] where line.hasPrefix(prefix) { line.removeFirst(prefix.count) }
        if !line.isEmpty { messages.append(line) }
    }

    /// Before the process exits with `status`: an error envelope when the command asked for JSON,
    /// failed, and wrote none; its message `message`, else what the command wrote to standard error.
    static func finish(status: Int32, message: String? = nil) {
        guard command != nil, status != 0, !written else { return }
        let message =
            message
            ?? (messages.isEmpty ? "the command failed (exit status \(status))" : messages.joined(separator: "\n"))
        writeError(code: status == ExitStatus.usage.code ? "usage" : "not_done", message: message)
    }
}
