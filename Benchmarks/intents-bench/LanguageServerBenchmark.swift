import Foundation

/// `intents lsp` on a generated project of 1,000 intents (the `robustness` load, 10 apps × 100,
/// each intent given one example so the project checks clean), driven through its stdio like an
/// editor: the time from a `didChange` to the `publishDiagnostics` it causes (a whole-project
/// re-check, no debounce), and from a completion request to its response. Needs the release
/// `intents` built beside this binary.
func languageServerBenchmark() throws {
    let runs = argument("--runs", default: 21)
    let count = argument("--load-intents", default: 1_000)
    let manager = FileManager.default
    let directory = NSTemporaryDirectory() + "intents-lsp-bench-" + UUID().uuidString
    defer { try? manager.removeItem(atPath: directory) }
    var opened = ""
    var bytes = 0
    for file in generatedLoad(intents: count) {
        let path = directory + "/Intents/" + file.path.replacingOccurrences(of: "Load/", with: "")
        try manager.createDirectory(
            atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        let text = withExamples(String(decoding: file.bytes, as: UTF8.self))
        bytes += text.utf8.count
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        if path > opened { opened = path }  // the last file published, so its notification ends a check
    }
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
        "intents"
    ).path
    guard manager.isExecutableFile(atPath: binary) else {
        print("lsp: build the release 'intents' first (swift build -c release --product intents)")
        return
    }
    let server = try LanguageServerProcess(
        binary: binary, arguments: ["lsp", "--intents", directory + "/Intents", "--debounce", "0"])
    defer { server.stop() }
    let uri = URL(fileURLWithPath: opened).absoluteString
    _ = try server.request(1, "initialize", ["capabilities": [String: Any]()])
    let original = try String(contentsOfFile: opened, encoding: .utf8)
    try server.notify(
        "textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "yaml", "version": 1, "text": original]])
    let first = try server.diagnostics(uri)
    print(
        "lsp: \(count) intents, \(bytes / 1024) KiB of YAML; first check: \(first.count) diagnostics in \(opened.split(separator: "/").suffix(2).joined(separator: "/"))"
    )

    var checks: [Double] = []
    for run in 0..<runs {
        let edited = original.replacingOccurrences(of: "dialog: \"done\"", with: "dialog: \"done \(run)\"")
        let start = DispatchTime.now().uptimeNanoseconds
        try server.notify(
            "textDocument/didChange",
            ["textDocument": ["uri": uri, "version": run + 2], "contentChanges": [["text": edited]]])
        let diagnostics = try server.diagnostics(uri)
        checks.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        if run == 0, !diagnostics.isEmpty {
            print("lsp: the edited file has \(diagnostics.count) diagnostics: \(diagnostics.prefix(1))")
        }
    }
    let lines = original.components(separatedBy: "\n")
    let slotLine = lines.firstIndex { $0.contains("{title}") } ?? 0
    let slotCharacter =
        (lines[slotLine].range(of: "{title}").map { lines[slotLine][..<$0.lowerBound].utf16.count } ?? 0) + 1
    let keyLine = lines.firstIndex { $0.hasPrefix("    phrases:") } ?? 0
    let holeLine = lines.firstIndex { $0.contains("summary: \"${") } ?? 0
    let holeCharacter = (lines[holeLine].range(of: "${").map { lines[holeLine][..<$0.lowerBound].utf16.count } ?? 0) + 2
    var slots: [Double] = [], keys: [Double] = [], holes: [Double] = []
    for run in 0..<runs {
        for (position, into) in [((slotLine, slotCharacter), 0), ((keyLine, 4), 1), ((holeLine, holeCharacter), 2)] {
            let start = DispatchTime.now().uptimeNanoseconds
            let response = try server.request(
                100 + run * 3 + into, "textDocument/completion",
                ["textDocument": ["uri": uri], "position": ["line": position.0, "character": position.1]])
            let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            [0: { slots.append(ms) }, 1: { keys.append(ms) }, 2: { holes.append(ms) }][into]?()
            if run == 0, (response["result"] as? [Any])?.isEmpty ?? true {
                print("lsp: completion at \(position) answered nothing")
            }
        }
    }
    // References of a parameter: after an edit (the symbol index of all 1,000 intents rebuilt),
    // then again (the index kept); rename from the same place.
    var cold: [Double] = [], warm: [Double] = [], renames: [Double] = []
    let at: [String: Any] = ["textDocument": ["uri": uri], "position": ["line": slotLine, "character": slotCharacter]]
    for run in 0..<runs {
        let edited = original.replacingOccurrences(of: "dialog: \"done\"", with: "dialog: \"again \(run)\"")
        try server.notify(
            "textDocument/didChange",
            ["textDocument": ["uri": uri, "version": 1_000 + run], "contentChanges": [["text": edited]]])
        _ = try server.diagnostics(uri)
        for target in 0..<3 {
            var params = at
            params["context"] = ["includeDeclaration": true]
            if target == 2 { params["newName"] = "heading" }
            let start = DispatchTime.now().uptimeNanoseconds
            let response = try server.request(
                10_000 + run * 3 + target, target == 2 ? "textDocument/rename" : "textDocument/references", params)
            let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            [0: { cold.append(ms) }, 1: { warm.append(ms) }, 2: { renames.append(ms) }][target]?()
            if run == 0, target == 0 {
                print("lsp: references of {title}: \((response["result"] as? [Any])?.count ?? 0) places")
            }
        }
    }
    func figures(_ values: [Double]) -> String {
        let sorted = values.sorted()
        return String(
            format: "median %.1f ms, min %.1f ms, max %.1f ms", median(values), sorted.first ?? 0, sorted.last ?? 0)
    }
    print("lsp: re-check after didChange (whole project → publishDiagnostics): \(figures(checks))")
    print("lsp: completion of a {slot} in a phrase: \(figures(slots))")
    print("lsp: completion of an intent's keys: \(figures(keys))")
    print("lsp: completion inside ${…}: \(figures(holes))")
    print("lsp: references after an edit (index rebuilt): \(figures(cold))")
    print("lsp: references again (index kept): \(figures(warm))")
    print("lsp: rename of a parameter: \(figures(renames))")
}

/// The load with one example per intent (its last phrase without the optional words), so it checks clean.
private func withExamples(_ yaml: String) -> String {
    var out: [String] = []
    var sentence: String?
    for line in yaml.components(separatedBy: "\n") {
        out.append(line)
        if line.contains("- \"[please] ") {
            sentence = line.trimmingCharacters(in: .whitespaces).dropFirst(3).dropLast()
                .replacingOccurrences(of: "[please] ", with: "").replacingOccurrences(of: " [all] [of]", with: "")
                .replacingOccurrences(of: " [now]", with: "")
        }
        if line.contains("result: { dialog:"), let said = sentence {
            out.append("    summary: \"${title} ${when} ${count}\"")
            out.append("    examples: [{ say: \"\(said)\", expect: {} }]")
            sentence = nil
        }
    }
    return out.joined(separator: "\n")
}

/// `intents lsp` as a child process with JSON-RPC framing on its pipes.
private final class LanguageServerProcess {
    let process = Process()
    let input = Pipe(), output = Pipe()
    var buffer: [UInt8] = []

    init(binary: String, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    func stop() {
        input.fileHandleForWriting.closeFile()
        process.waitUntilExit()
    }

    func send(_ object: [String: Any]) throws {
        var message = object
        message["jsonrpc"] = "2.0"
        let body = try JSONSerialization.data(withJSONObject: message)
        input.fileHandleForWriting.write(Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
    }

    func notify(_ method: String, _ params: [String: Any]) throws {
        try send(["method": method, "params": params])
    }

    func request(_ id: Int, _ method: String, _ params: [String: Any]) throws -> [String: Any] {
        try send(["id": id, "method": method, "params": params])
        while true {
            let message = try read()
            if message["id"] as? Int == id { return message }
        }
    }

    func diagnostics(_ uri: String) throws -> [Any] {
        while true {
            let message = try read()
            if message["method"] as? String == "textDocument/publishDiagnostics",
                let params = message["params"] as? [String: Any], params["uri"] as? String == uri
            {
                return params["diagnostics"] as? [Any] ?? []
            }
        }
    }

    func read() throws -> [String: Any] {
        while true {
            if let end = headerEnd() {
                let header = String(decoding: buffer[..<end], as: UTF8.self)
                let length = Int(header.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
                if buffer.count >= end + 4 + length {
                    let body = Data(buffer[(end + 4)..<(end + 4 + length)])
                    buffer.removeFirst(end + 4 + length)
                    return try JSONSerialization.jsonObject(with: body) as? [String: Any] ?? [:]
                }
            }
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else { throw CocoaError(.fileReadUnknown) }
            buffer += data
        }
    }

    private func headerEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for start in 0...(buffer.count - 4)
        where buffer[start] == 13 && buffer[start + 1] == 10 && buffer[start + 2] == 13 && buffer[start + 3] == 10 {
            return start
        }
        return nil
    }
}
