import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Headless Chromium driven over WebDriver (JSON over loopback to Debian's `chromedriver`), for the
/// console's tests. `Browser.start()` starts chromedriver and a browser with a temporary profile;
/// `close()` ends both and removes the profile.
final class Browser: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let chromium = "/usr/bin/chromium"
    static let chromedriver = "/usr/bin/chromedriver"
    /// Whether the browser tests can run here: both programs are installed (`make deps` installs them).
    static var installed: Bool {
        FileManager.default.isExecutableFile(atPath: chromium)
            && FileManager.default.isExecutableFile(atPath: chromedriver)
    }
    /// On CI a browser test that cannot run fails; elsewhere it is skipped, and says so.
    static var required: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    let driver: Process
    let base: String
    let session: String
    let profile: String

    private init(driver: Process, base: String, session: String, profile: String) {
        self.driver = driver
        self.base = base
        self.session = session
        self.profile = profile
    }

    /// A browser asking for pages in `language` (its Accept-Language), `width`×`height` CSS pixels.
    static func start(language: String = "en-US", width: Int = 1280, height: Int = 900) async throws -> Browser {
        let port = try freePort()
        let driver = Process()
        driver.executableURL = URL(fileURLWithPath: chromedriver)
        driver.arguments = ["--port=\(port)", "--log-level=OFF"]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        let base = "http://127.0.0.1:\(port)"
        let profile = NSTemporaryDirectory() + "intents-console-chromium-" + UUID().uuidString
        do {
            var ready = false
            for _ in 0..<3_000 {
                if let status = try? await request("GET", base + "/status", nil) as? [String: Any],
                    let value = status["value"] as? [String: Any], value["ready"] as? Bool == true
                {
                    ready = true
                    break
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            guard ready else { throw Failure(description: "chromedriver did not answer on port \(port)") }
            let arguments = [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--disable-extensions", "--user-data-dir=\(profile)", "--window-size=\(width),\(height)",
                "--lang=\(language)", "--disable-features=Translate",
            ]
            let capabilities: [String: Any] = [
                "capabilities": [
                    "alwaysMatch": [
                        "browserName": "chrome",
                        "goog:chromeOptions": [
                            "binary": chromium, "args": arguments,
                            "prefs": ["intl.accept_languages": language],
                        ] as [String: Any],
                    ] as [String: Any]
                ]
            ]
            let created = try await request("POST", base + "/session", capabilities) as? [String: Any]
            guard let value = created?["value"] as? [String: Any], let session = value["sessionId"] as? String else {
                throw Failure(description: "chromium did not start: \(String(describing: created))")
            }
            return Browser(driver: driver, base: base, session: session, profile: profile)
        } catch {
            await stop(driver)
            try? FileManager.default.removeItem(atPath: profile)
            throw error
        }
    }

    func close() async {
        _ = try? await Self.request("DELETE", "\(base)/session/\(session)", nil)
        await Self.stop(driver)
        try? FileManager.default.removeItem(atPath: profile)
    }

    /// Ends chromedriver: asked first, then killed when it has not gone within 5 seconds.
    static func stop(_ process: Process) async {
        guard process.isRunning else { return }
        process.terminate()
        for _ in 0..<50 where process.isRunning { try? await Task.sleep(for: .milliseconds(100)) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    // MARK: Commands

    @discardableResult
    func command(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> Any? {
        let reply = try await Self.request(
            method, "\(base)/session/\(session)\(path)", body ?? (method == "POST" ? [:] : nil))
        let value = (reply as? [String: Any])?["value"]
        if let error = value as? [String: Any], let kind = error["error"] as? String {
            throw Failure(description: "\(method) \(path): \(kind): \(error["message"] as? String ?? "")")
        }
        return value
    }

    func open(_ url: String) async throws {
        try await command("POST", "/url", ["url": url])
    }

    /// Runs `script` (a function body; `arguments` are its arguments) in the page; its return value.
    @discardableResult
    func run(_ script: String, _ arguments: [Any] = []) async throws -> Any? {
        try await command("POST", "/execute/sync", ["script": script, "args": arguments])
    }

    /// Waits until `expression` (JavaScript) is true in the page; fails with `what` after `timeout`.
    func wait(
        _ what: String, until expression: String, timeout: Duration = .seconds(60)
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            if (try? await run("return !!(\(expression));")) as? Bool == true { return }
            if ContinuousClock.now > deadline {
                let text = (try? await run("return document.body.innerText;")) as? String ?? ""
                throw Failure(description: "timed out waiting for \(what); the page says:\n\(text.prefix(3_000))")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// The element `css` selects, once there and shown.
    func element(_ css: String, timeout: Duration = .seconds(60)) async throws -> String {
        try await wait(
            "\(css) to be shown",
            until:
                "(() => { const e = document.querySelector(\(Self.quoted(css))); return e && e.offsetParent !== null && !e.disabled; })()",
            timeout: timeout)
        let found = try await command("POST", "/element", ["using": "css selector", "value": css]) as? [String: Any]
        guard let id = found?["element-6066-11e4-a52e-4f735466cecf"] as? String else {
            throw Failure(description: "no element \(css)")
        }
        return id
    }

    func click(_ css: String) async throws {
        let id = try await element(css)
        try await command("POST", "/element/\(id)/click")
    }

    /// Types `text` into the element, as keys (`\u{E007}` is Enter).
    func type(_ css: String, _ text: String) async throws {
        let id = try await element(css)
        try await command("POST", "/element/\(id)/value", ["text": text])
    }

    /// Presses keys on whatever has the focus (`\u{E004}` is Tab, `\u{E007}` Enter, space " ").
    func keys(_ text: String) async throws {
        let actions: [[String: Any]] = text.unicodeScalars.flatMap { scalar -> [[String: Any]] in
            [["type": "keyDown", "value": String(scalar)], ["type": "keyUp", "value": String(scalar)]]
        }
        try await command("POST", "/actions", ["actions": [["type": "key", "id": "keyboard", "actions": actions]]])
        try await command("DELETE", "/actions")
    }

    func text(_ css: String) async throws -> String {
        try await run("const e = document.querySelector(arguments[0]); return e ? e.textContent : null;", [css])
            as? String ?? ""
    }

    /// Asks the page for less motion, as a system setting would (`prefers-reduced-motion: reduce`).
    func reduceMotion() async throws {
        try await command(
            "POST", "/goog/cdp/execute",
            [
                "cmd": "Emulation.setEmulatedMedia",
                "params": ["features": [["name": "prefers-reduced-motion", "value": "reduce"]]],
            ])
    }

    func resize(width: Int, height: Int) async throws {
        try await command("POST", "/window/rect", ["width": width, "height": height])
    }

    func screenshot(to path: String) async throws {
        guard let base64 = try await command("GET", "/screenshot") as? String, let data = Data(base64Encoded: base64)
        else {
            throw Failure(description: "no screenshot")
        }
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path))
    }

    static func quoted(_ text: String) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [text])
        let array = data.map { String(decoding: $0, as: UTF8.self) } ?? "[\"\"]"
        return String(array.dropFirst().dropLast())
    }

    // MARK: HTTP

    /// One WebDriver call: JSON over a loopback connection to chromedriver (which keeps connections
    /// open, so the reply is read up to its Content-Length), on a thread of its own.
    static func request(_ method: String, _ url: String, _ body: Any?) async throws -> Any? {
        guard let parsed = URLComponents(string: url), let port = parsed.port else {
            throw Failure(description: "bad URL \(url)")
        }
        let bytes = try body.map { Array(try JSONSerialization.data(withJSONObject: $0)) } ?? []
        var head = "\(method) \(parsed.path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        head += "Content-Type: application/json; charset=utf-8\r\nContent-Length: \(bytes.count)\r\n\r\n"
        let message = Array(head.utf8) + bytes
        let reply: [UInt8] = try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try exchange(port: port, message) }) }.start()
        }
        return try JSONSerialization.jsonObject(with: Data(reply), options: [.fragmentsAllowed])
    }

    private static func exchange(port: Int, _ message: [UInt8]) throws -> [UInt8] {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(errno)") }
        defer { Glibc.close(socket) }
        var timeout = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(description: "connect to chromedriver: \(errno)") }
        var offset = 0
        while offset < message.count {
            let sent = message[offset...].withUnsafeBytes {
                send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw Failure(description: "send: \(errno)") }
            offset += sent
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let separator: [UInt8] = [13, 10, 13, 10]
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count > 0 { received.append(contentsOf: buffer[0..<count]) }
            if let end = (0..<max(0, received.count - 3)).first(where: { Array(received[$0..<$0 + 4]) == separator }) {
                let head = String(decoding: received[0..<end], as: UTF8.self).lowercased()
                let length = head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
                if let length, received.count - (end + 4) >= length {
                    return Array(received[(end + 4)..<(end + 4 + length)])
                }
                if count <= 0 { return Array(received[(end + 4)...]) }
            } else if count <= 0 {
                throw Failure(description: "chromedriver closed the connection without an answer")
            }
        }
    }

    /// A loopback port nothing listens on now.
    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(errno)") }
        defer { Glibc.close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "bind: \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
