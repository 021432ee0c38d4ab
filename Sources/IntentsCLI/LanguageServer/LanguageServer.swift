import Foundation
import IntentLanguage
import IntentModel
import YAML

/// The language server for definition files: reads JSON-RPC messages from standard input and
/// answers on standard output. Bad input (broken JSON, huge messages, unknown methods) gets the
/// protocol's errors; the server goes on until `exit` or the end of input.
final class LanguageServer {
    private let reader: MessageReader
    private var workspace: ProjectWorkspace
    private let keys = SchemaKeys(document: .definitions)
    /// Checks wait until no message arrived for this long, so typing is not checked per keystroke.
    private let debounceMilliseconds: Int32
    private var needsCheck = false
    private var published: Set<String> = []
    private var initialized = false
    /// The symbol index of the texts as they are now; dropped whenever a text changes.
    private var index: SymbolIndex?
    private let parsed = SymbolIndex.ParseCache()
    private var shuttingDown = false

    /// Whether `--intents` named the definitions; otherwise they are `Intents` in the workspace's root.
    private let namedDirectory: Bool

    init(intentsDirectory: String?, reader: MessageReader = MessageReader(), debounceMilliseconds: Int32 = 150) {
        self.reader = reader
        self.workspace = ProjectWorkspace(intentsDirectory: Self.absolute(intentsDirectory ?? "Intents"))
        self.namedDirectory = intentsDirectory != nil
        self.debounceMilliseconds = debounceMilliseconds
    }

    /// Serves until `exit`; returns the exit status (0 after `shutdown`, 1 otherwise).
    func run() -> Int32 {
        while true {
            if needsCheck, !reader.hasInput(within: debounceMilliseconds) { publishDiagnostics() }
            switch reader.next() {
            case .end: return shuttingDown ? 0 : 1
            case .refused(let why):
                send(.failure(id: nil, ResponseError(code: ResponseError.invalidRequest, message: why)))
            case .message(let body):
                if let status = handle(body) { return status }
            }
        }
    }

    /// Handles one message; a status when the server should stop.
    private func handle(_ body: [UInt8]) -> Int32? {
        let message: IncomingMessage
        do {
            message = try JSONDecoder().decode(IncomingMessage.self, from: Data(body))
        } catch {
            send(
                .failure(
                    id: nil,
                    ResponseError(
                        code: ResponseError.parseError, message: "not JSON-RPC: the message is not valid JSON")))
            return nil
        }
        guard let method = message.method else {
            if message.id != nil { return nil }  // a response to something we never asked: ignore
            send(
                .failure(
                    id: nil, ResponseError(code: ResponseError.invalidRequest, message: "a message without a method")))
            return nil
        }
        if method == "exit" { return shuttingDown ? 0 : 1 }
        let params = message.params ?? .null
        guard let id = message.id else {
            notification(method, params)
            return nil
        }
        if !initialized, method != "initialize" {
            send(.failure(id: id, ResponseError(code: ResponseError.serverNotInitialized, message: "initialize first")))
            return nil
        }
        do {
            send(.response(id: id, result: try request(method, params)))
        } catch let error as ResponseError {
            send(.failure(id: id, error))
        } catch {
            send(
                .failure(
                    id: id, ResponseError(code: ResponseError.invalidParams, message: "invalid params for \(method)")))
        }
        return nil
    }

    private func request(_ method: String, _ params: LSPValue) throws -> LSPValue {
        switch method {
        case "initialize":
            initialized = true
            if !namedDirectory,
                let root = params["rootUri"]?.string.flatMap(Self.path(of:)) ?? params["rootPath"]?.string
            {
                workspace.intentsDirectory = Self.absolute(PathText.appending(root, "Intents"))
            }
            return try .from(InitializeResult())
        case "shutdown":
            shuttingDown = true
            return .null
        case "textDocument/completion":
            let at = try params.decode(TextDocumentPositionParams.self)
            return try .from(completions(at))
        case "textDocument/hover":
            let at = try params.decode(TextDocumentPositionParams.self)
            guard let text = hover(at) else { return .null }
            return .object(["contents": .object(["kind": .string("markdown"), "value": .string(text)])])
        case "textDocument/definition":
            let at = try params.decode(TextDocumentPositionParams.self)
            guard let location = definition(at) else { return .null }
            return try .from(location)
        case "textDocument/references":
            let at = try params.decode(TextDocumentPositionParams.self)
            let declaration = params["context"]?["includeDeclaration"].map { $0 == .bool(true) } ?? true
            return try .from(references(at, includeDeclaration: declaration))
        case "textDocument/prepareRename":
            let at = try params.decode(TextDocumentPositionParams.self)
            guard let found = prepareRename(at) else { return .null }
            return .object(["range": try .from(found.range), "placeholder": .string(found.placeholder)])
        case "textDocument/rename":
            let at = try params.decode(TextDocumentPositionParams.self)
            guard let newName = params["newName"]?.string else { throw Self.invalid("newName") }
            return try .from(rename(at, to: newName))
        case "textDocument/documentSymbol":
            let document = try params["textDocument"].map { try $0.decode(TextDocumentIdentifier.self) }
            guard let path = document.flatMap({ Self.path(of: $0.uri) }) else { throw Self.invalid("textDocument") }
            return try .from(symbols(in: path))
        case "textDocument/codeAction":
            let document = try params["textDocument"].map { try $0.decode(TextDocumentIdentifier.self) }
            guard let uri = document?.uri, let path = Self.path(of: uri) else { throw Self.invalid("textDocument") }
            return try .from(codeActions(uri: uri, path: path))
        default:
            throw ResponseError(code: ResponseError.methodNotFound, message: "unknown method '\(method)'")
        }
    }

    private func notification(_ method: String, _ params: LSPValue) {
        switch method {
        case "textDocument/didOpen":
            guard let uri = params["textDocument"]?["uri"]?.string, let path = Self.path(of: uri),
                let text = params["textDocument"]?["text"]?.string
            else { return }
            workspace.documents[path] = text
            needsCheck = true
            index = nil
        case "textDocument/didChange":
            guard let uri = params["textDocument"]?["uri"]?.string, let path = Self.path(of: uri),
                case .array(let changes) = params["contentChanges"] ?? .null,
                let text = changes.last?["text"]?.string
            else { return }
            workspace.documents[path] = text  // full sync: the last change holds the whole text
            needsCheck = true
            index = nil
        case "textDocument/didClose":
            guard let uri = params["textDocument"]?["uri"]?.string, let path = Self.path(of: uri) else { return }
            workspace.documents[path] = nil
            needsCheck = true
            index = nil
        default:
            break  // notifications we do not know are ignored, as the protocol asks
        }
    }

    // MARK: Diagnostics

    private func publishDiagnostics() {
        needsCheck = false
        workspace.check()
        var byFile: [String: [LSPDiagnostic]] = [:]
        for diagnostic in (workspace.compilation?.diagnostics ?? []) + workspace.shortcutDiagnostics {
            guard let location = diagnostic.location else { continue }
            let message = diagnostic.message.text
            let related = diagnostic.notes.compactMap { note -> LSPDiagnostic.RelatedInformation? in
                guard let at = note.location else { return nil }
                return .init(
                    location: LSPLocation(uri: Self.uri(of: at.start.file), range: workspace.range(of: at)),
                    message: note.message.text)
            }
            byFile[location.start.file, default: []].append(
                LSPDiagnostic(
                    range: workspace.range(of: location), severity: diagnostic.severity == .error ? 1 : 2,
                    message: message, relatedInformation: related.isEmpty ? nil : related))
        }
        let open = workspace.documents.keys.filter { workspace.isDefinition($0) || workspace.isShortcut($0) }
        let files = Set(byFile.keys).union(published).union(open)
        for file in files.sorted() {
            let params: [String: LSPValue] = [
                "uri": .string(Self.uri(of: file)),
                "diagnostics": (try? .from(byFile[file] ?? [])) ?? .array([]),
            ]
            send(.notification("textDocument/publishDiagnostics", .object(params)))
        }
        published = Set(byFile.keys)
    }

    private func codeActions(uri: String, path: String) -> [CodeAction] {
        ((workspace.compilation?.diagnostics ?? []) + workspace.shortcutDiagnostics).compactMap { diagnostic in
            guard let fixIt = diagnostic.fixIt, fixIt.range.start.file == path else { return nil }
            let edit = TextEdit(range: workspace.range(of: fixIt.range), newText: fixIt.replacement)
            return CodeAction(
                title: "Replace with '\(fixIt.replacement)'", edit: .init(changes: [uri: [edit]]))
        }
    }

    // MARK: Sending

    private func send(_ message: OutgoingMessage) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let body = try? encoder.encode(message) else { return }
        var data = Data("Content-Length: \(body.count)\r\n\r\n".utf8)
        data.append(body)
        FileHandle.standardOutput.write(data)
    }

    // MARK: Paths

    static func path(of uri: String) -> String? {
        guard uri.hasPrefix("file://"), let url = URL(string: uri) else { return nil }
        return url.standardizedFileURL.path
    }

    static func uri(of path: String) -> String {
        URL(fileURLWithPath: path).absoluteString
    }

    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .standardizedFileURL.path
    }

    static func invalid(_ field: String) -> ResponseError {
        ResponseError(code: ResponseError.invalidParams, message: "missing or invalid '\(field)'")
    }

    var project: ProjectWorkspace { workspace }

    /// The symbol index of the definitions and shortcut files as the editor holds them.
    func symbolIndex() -> SymbolIndex {
        if let index { return index }
        let built = SymbolIndex(
            definitions: workspace.definitionTexts(), shortcuts: workspace.shortcutTexts(), cache: parsed)
        index = built
        return built
    }
    var schemaKeys: SchemaKeys { keys }
}

/// What the server can do, as `initialize` answers.
struct InitializeResult: Encodable {
    struct Capabilities: Encodable {
        var textDocumentSync = 1  // full text on each change
        var completionProvider = ["triggerCharacters": ["{", ":", " ", "<", "."]]
        var hoverProvider = true
        var definitionProvider = true
        var referencesProvider = true
        var renameProvider = ["prepareProvider": true]
        var documentSymbolProvider = true
        var codeActionProvider = true
    }
    struct ServerInfo: Encodable {
        var name = "intents"
        var version = "0.1.0"
    }
    var capabilities = Capabilities()
    var serverInfo = ServerInfo()
}
