import Foundation
import TestSupport
import Testing

/// Issue 23, `intents lsp`: the binary driven through its stdio the way an editor drives it.
struct LanguageServerTests {
    let scratch = ScratchDirectory("lsp")
    var directory: String { scratch.path }
    var appFile: String { directory + "/Intents/groceries/app.yaml" }

    /// A running `intents lsp` and the messages it sent.
    final class Client {
        let process = Process()
        let input = Pipe(), output = Pipe()
        var buffer: [UInt8] = []
        /// Notifications received while waiting for responses.
        var notifications: [[String: Any]] = []
        var nextID = 1

        init(in directory: String, arguments: [String] = []) throws {
            process.executableURL = URL(fileURLWithPath: IntentsBinary.path)
            process.arguments = ["lsp", "--debounce", "20"] + arguments
            process.currentDirectoryURL = URL(fileURLWithPath: directory)
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        deinit {
            if process.isRunning { process.terminate() }
        }

        func sendRaw(_ bytes: [UInt8]) {
            input.fileHandleForWriting.write(Data(bytes))
        }

        func send(_ object: [String: Any]) throws {
            var message = object
            message["jsonrpc"] = "2.0"
            let body = try JSONSerialization.data(withJSONObject: message)
            sendRaw(Array("Content-Length: \(body.count)\r\n\r\n".utf8) + Array(body))
        }

        func notify(_ method: String, _ params: [String: Any]) throws {
            try send(["method": method, "params": params])
        }

        /// Sends a request and waits for its response.
        @discardableResult
        func request(_ method: String, _ params: [String: Any] = [:]) throws -> [String: Any] {
            let id = nextID
            nextID += 1
            try send(["id": id, "method": method, "params": params])
            return try response(id: id)
        }

        func response(id: Any) throws -> [String: Any] {
            while true {
                let message = try read()
                if message["method"] != nil {
                    notifications.append(message)
                    continue
                }
                if "\(message["id"] ?? "nil")" == "\(id)" { return message }
            }
        }

        /// The next `publishDiagnostics` for `path`.
        func diagnostics(for path: String) throws -> [[String: Any]] {
            let uri = URL(fileURLWithPath: path).absoluteString
            while true {
                if let index = notifications.firstIndex(where: {
                    $0["method"] as? String == "textDocument/publishDiagnostics"
                        && ($0["params"] as? [String: Any])?["uri"] as? String == uri
                }) {
                    let message = notifications.remove(at: index)
                    return (message["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]] ?? []
                }
                notifications.append(try read())
            }
        }

        /// One message from the server; fails after ten seconds of silence.
        func read() throws -> [String: Any] {
            while true {
                if let end = find([13, 10, 13, 10]) {
                    let header = String(decoding: buffer[..<end], as: UTF8.self)
                    let length = Int(header.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
                    if buffer.count >= end + 4 + length {
                        let body = Data(buffer[(end + 4)..<(end + 4 + length)])
                        buffer.removeFirst(end + 4 + length)
                        return try #require(JSONSerialization.jsonObject(with: body) as? [String: Any])
                    }
                }
                var poller = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 300_000) > 0 else { throw Timeout() }
                let data = output.fileHandleForReading.availableData
                guard !data.isEmpty else { throw Timeout() }
                buffer += data
            }
        }

        struct Timeout: Error {}

        private func find(_ pattern: [UInt8]) -> Int? {
            guard buffer.count >= pattern.count else { return nil }
            for start in 0...(buffer.count - pattern.count)
            where Array(buffer[start..<start + pattern.count]) == pattern {
                return start
            }
            return nil
        }

        /// Closes stdin and waits: the exit status.
        func finish() -> Int32 {
            input.fileHandleForWriting.closeFile()
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// The LSP position of `needle` in `text` (0-based line, UTF-16 character), plus `offset`.
    static func position(of needle: String, in text: String, offset: Int = 0) throws -> [String: Int] {
        let lines = text.components(separatedBy: "\n")
        for (number, line) in lines.enumerated() {
            if let found = line.range(of: needle) {
                return ["line": number, "character": line[..<found.lowerBound].utf16.count + offset]
            }
        }
        throw Client.Timeout()
    }

    func uri(_ path: String) -> String { URL(fileURLWithPath: path).absoluteString }

    func start() throws -> (Client, String) {
        let created = try CommandLineTests.intents(["init", "Groceries"], in: directory)
        #expect(created.status == 0)
        let client = try Client(in: directory)
        let initialize = try client.request(
            "initialize", ["processId": NSNull(), "rootUri": uri(directory), "capabilities": [String: Any]()])
        let capabilities = (initialize["result"] as? [String: Any])?["capabilities"] as? [String: Any]
        #expect(capabilities?["hoverProvider"] as? Bool == true)
        #expect(capabilities?["completionProvider"] != nil)
        try client.notify("initialized", [:])
        return (client, try String(contentsOfFile: appFile, encoding: .utf8))
    }

    func open(_ client: Client, _ path: String, _ text: String) throws {
        try client.notify(
            "textDocument/didOpen",
            ["textDocument": ["uri": uri(path), "languageId": "yaml", "version": 1, "text": text]])
    }

    func change(_ client: Client, _ path: String, _ text: String, version: Int = 2) throws {
        try client.notify(
            "textDocument/didChange",
            ["textDocument": ["uri": uri(path), "version": version], "contentChanges": [["text": text]]])
    }

    func at(_ client: Client, _ method: String, _ path: String, _ position: [String: Int]) throws -> Any? {
        try client.request(method, ["textDocument": ["uri": uri(path)], "position": position])["result"]
    }

    func labels(_ result: Any?) -> [String] {
        (result as? [[String: Any]] ?? []).compactMap { $0["label"] as? String }
    }

    @Test("Diagnostics as the author types, with the fix-it as a code action, then clean again")
    func diagnosticsWhileTyping() throws {
        let (client, text) = try start()
        let broken = text.replacingOccurrences(of: "title: string", with: "title: strin")
        try open(client, appFile, broken)
        let diagnostics = try client.diagnostics(for: appFile)
        let first = try #require(diagnostics.first)
        #expect(first["message"] as? String == "unknown type 'strin'; did you mean 'string'?", "\(diagnostics)")
        #expect(first["severity"] as? Int == 1)
        let range = try #require(first["range"] as? [String: [String: Int]])
        #expect(range["start"] == (try Self.position(of: "strin", in: broken)))
        #expect(range["end"] == (try Self.position(of: "strin", in: broken, offset: 5)))

        let actions = try client.request(
            "textDocument/codeAction",
            ["textDocument": ["uri": uri(appFile)], "range": range, "context": ["diagnostics": diagnostics]])["result"]
        let titles = (actions as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        #expect(titles == ["Replace with 'string'"], "\(actions ?? "nil")")

        try change(client, appFile, text)
        #expect(try client.diagnostics(for: appFile).isEmpty)
        #expect(try client.request("shutdown")["result"] is NSNull)
        try client.notify("exit", [:])
        #expect(client.finish() == 0)
    }

    @Test("A type declared in one file is seen from an open file that is not saved yet")
    func acrossFiles() throws {
        let (client, _) = try start()
        let other = directory + "/Intents/groceries/more.yaml"
        let draft = """
            intents:
              RemoveItem:
                parameters:
                  item: { type: Itme }
                phrases: ["(remove|drop) {item} from {app}"]
                perform:
                  - delete: item
                examples:
                  - say: "drop milk from groceries"
                    expect: { item: milk }

            """
        try open(client, other, draft)
        let diagnostics = try client.diagnostics(for: other)
        #expect(
            diagnostics.map { $0["message"] as? String } == ["unknown type 'Itme'; did you mean 'Item'?"],
            "\(diagnostics)")
        try change(client, other, draft.replacingOccurrences(of: "Itme", with: "Item"))
        #expect(try client.diagnostics(for: other).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: other), "the server never writes files")
    }

    @Test("A shortcut file is checked against the definitions as it is typed")
    func shortcutFiles() throws {
        let (client, _) = try start()
        try FileManager.default.createDirectory(atPath: directory + "/Shortcuts", withIntermediateDirectories: true)
        let file = directory + "/Shortcuts/shopping.yaml"
        let draft = """
            shortcut: Shopping
            steps:
              - intent: Groceries.AddItme
                with: { title: milk }

            """
        try open(client, file, draft)
        let diagnostics = try client.diagnostics(for: file)
        let message = try #require(diagnostics.first?["message"] as? String)
        #expect(message.contains("AddItme") && message.contains("AddItem"), "\(diagnostics)")
        let line = ((diagnostics.first?["range"] as? [String: Any])?["start"] as? [String: Int])?["line"]
        #expect(line == 2)
        try change(client, file, draft.replacingOccurrences(of: "AddItme", with: "AddItem"))
        #expect(try client.diagnostics(for: file).isEmpty)
    }

    @Test("Completion, hover, go to definition and document symbols")
    func navigation() throws {
        let (client, text) = try start()
        try open(client, appFile, text)
        #expect(try client.diagnostics(for: appFile).isEmpty)

        // {slot} names inside a phrase: the intent's parameters.
        let slot = try Self.position(of: "{title} (to|on)", in: text, offset: 1)
        #expect(labels(try at(client, "textDocument/completion", appFile, slot)).contains("title"))
        // Types after `type:`: built-ins and the project's entities.
        let type = try Self.position(of: "type: string, prompt", in: text, offset: 6)
        let types = labels(try at(client, "textDocument/completion", appFile, type))
        #expect(types.contains("string") && types.contains("Item") && types.contains("duration"), "\(types)")
        // Keys the schema allows in an intent.
        let key = try Self.position(of: "title: Add Item", in: text)
        let keys = labels(try at(client, "textDocument/completion", appFile, key))
        #expect(keys.contains("phrases") && keys.contains("parameters") && keys.contains("perform"), "\(keys)")
        #expect(!keys.contains("cases"))

        // Hover: an intent's signature and sample phrases; a parameter's type and prompt.
        let intent = try Self.position(of: "AddItem:", in: text, offset: 2)
        let intentHover = try #require(
            ((try at(client, "textDocument/hover", appFile, intent)) as? [String: Any])?["contents"] as? [String: Any])
        let intentText = intentHover["value"] as? String ?? ""
        #expect(intentText.contains("**Add Item** — `Groceries.AddItem(title: string)`"), "\(intentText)")
        #expect(intentText.contains("- remember {title} in {app}"))
        let parameterHover = try #require(
            ((try at(client, "textDocument/hover", appFile, slot)) as? [String: Any])?["contents"] as? [String: Any])
        #expect(parameterHover["value"] as? String == "**title**: `string`\n\nprompt: “What should I add?”")

        // Go to definition: a slot to its parameter.
        let target = try #require(try at(client, "textDocument/definition", appFile, slot) as? [String: Any])
        #expect(target["uri"] as? String == uri(appFile))
        let line = ((target["range"] as? [String: Any])?["start"] as? [String: Int])?["line"]
        #expect(line == (try Self.position(of: "title: { type: string", in: text))["line"])

        let symbols = try client.request("textDocument/documentSymbol", ["textDocument": ["uri": uri(appFile)]])[
            "result"]
        let names = (symbols as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(names == ["Groceries", "Item", "AddItem"], "\(names)")
    }

    @Test("Broken JSON-RPC, huge messages and unknown methods get errors; the server goes on")
    func badInput() throws {
        let client = try Client(in: directory, arguments: ["--max-message-bytes", "2048"])
        // A request before initialize.
        #expect((try client.request("textDocument/hover")["error"] as? [String: Any])?["code"] as? Int == -32002)
        // Not JSON.
        client.sendRaw(Array("Content-Length: 9\r\n\r\n{not json".utf8))
        let parse = try client.response(id: "<null>")
        #expect((parse["error"] as? [String: Any])?["code"] as? Int == -32700)
        // Too large: refused without being read into memory, and the next message is fine.
        let huge = [UInt8](repeating: UInt8(ascii: " "), count: 100_000)
        client.sendRaw(Array("Content-Length: \(huge.count)\r\n\r\n".utf8) + huge)
        let refused = try client.response(id: "<null>")
        #expect((refused["error"] as? [String: Any])?["code"] as? Int == -32600)
        #expect(((refused["error"] as? [String: Any])?["message"] as? String)?.contains("over the limit") == true)
        // A message without Content-Length.
        client.sendRaw(Array("Content-Type: x\r\n\r\n".utf8))
        #expect((try client.response(id: "<null>")["error"] as? [String: Any])?["code"] as? Int == -32600)

        #expect(try client.request("initialize", ["capabilities": [String: Any]()])["result"] != nil)
        #expect((try client.request("workspace/noSuchThing")["error"] as? [String: Any])?["code"] as? Int == -32601)
        try client.notify("$/noSuchNotification", [:])
        #expect(
            (try client.request("textDocument/hover", ["nope": 1])["error"] as? [String: Any])?["code"] as? Int
                == -32602)
        #expect(try client.request("shutdown")["result"] is NSNull)
        try client.notify("exit", [:])
        #expect(client.finish() == 0)
    }

    @Test("exit without shutdown exits 1, as the protocol says")
    func exitWithoutShutdown() throws {
        let client = try Client(in: directory)
        try client.request("initialize", ["capabilities": [String: Any]()])
        try client.notify("exit", [:])
        #expect(client.finish() == 1)
    }
}
