import ArgumentParser
import Foundation

/// `intents lsp`: the language server for definition files, over standard input and output.
struct LanguageServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsp",
        abstract: "Serve the Language Server Protocol for definition files over stdio.",
        discussion:
            "Diagnostics as you type (the whole project, open files laid over the files on disk), fix-its as code actions, completion, hover, go to definition, find references, rename and document symbols. The definitions are --intents when given, else Intents in the editor's workspace root. See docs/editor.md."
    )

    @Option(name: .customLong("intents"), help: ArgumentHelp("The definitions directory.", valueName: "dir"))
    var intentsDirectory: String?

    @Option(help: ArgumentHelp("Milliseconds without input before a check runs.", valueName: "ms"))
    var debounce: Int32 = 150

    @Option(
        help: ArgumentHelp(
            "The largest message accepted, in bytes; larger ones are refused unread.", valueName: "bytes"))
    var maxMessageBytes = 16 * 1024 * 1024

    func run() throws {
        let server = LanguageServer(
            intentsDirectory: intentsDirectory, reader: MessageReader(maximumBodyBytes: max(maxMessageBytes, 1024)),
            debounceMilliseconds: max(debounce, 0))
        let status = server.run()
        if status != 0 { throw ExitCode(status) }
    }
}
