import Foundation
import IntentEngine
import IntentModel

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 21's speed section on SQLite: `intents serve` (the release build, a second process) under
/// load from this one on loopback — requests/s, p50 and p99 of `POST /v1/say`, dry run and executing,
/// at 1, 10 and 50 connections (keep-alive, one request at a time on each) — and the engine's own
/// answer time in this process over the same definitions, measured in the same run.
func serveBenchmark() throws {
    let requests = argument("--requests", default: 2_000)
    let connectionCounts =
        CommandLine.arguments.firstIndex(of: "--connections").flatMap {
            $0 + 1 < CommandLine.arguments.count ? CommandLine.arguments[$0 + 1] : nil
        }.map { $0.split(separator: ",").compactMap { Int($0) } } ?? [1, 10, 50]
    let root = FileManager.default.currentDirectoryPath
    // --binary .build/debug/intents measures a debug build (say so with the figures).
    let intents =
        CommandLine.arguments.firstIndex(of: "--binary").flatMap {
            $0 + 1 < CommandLine.arguments.count ? CommandLine.arguments[$0 + 1] : nil
        } ?? root + "/.build/release/intents"
    guard FileManager.default.isExecutableFile(atPath: intents) else {
        FileHandle.standardError.write(
            Data("error: build the release intents first: swift build -c release --product intents\n".utf8))
        exit(2)
    }
    let folder = NSTemporaryDirectory() + "intents-serve-bench-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // --store postgres://…: the same load on a PostgreSQL store (the user gets a schema of its own).
    let given = CommandLine.arguments.firstIndex(of: "--store").flatMap {
        $0 + 1 < CommandLine.arguments.count ? CommandLine.arguments[$0 + 1] : nil
    }
    let store = given ?? folder + "/store.sqlite"
    let backend = given.map { IntentEngine.Configuration.isPostgres($0) ? "PostgreSQL" : "SQLite" } ?? "SQLite"
    // A PostgreSQL store keeps the users file in ./.intents: this run's folder, not the project's.
    if given != nil { _ = FileManager.default.changeCurrentDirectoryPath(folder) }
    // --users N: as many users, the connections dealt out among them (one user's requests take
    // turns on its engine and its writes on its schema's lock; different users' overlap).
    let userCount = max(1, argument("--users", default: 1))
    let tokens = try (0..<userCount).map { index in
        try runCapturing(intents, ["users", "add", userCount == 1 ? "bench" : "bench\(index)", "--store", store])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
    // --instances 2: as many servers over the one store, the connections dealt out among them.
    let instances = max(1, argument("--instances", default: 1))
    let repeats = max(1, argument("--repeats", default: 3))
    let firstPort = 20_000 + Int(getpid() % 20_000) * 2 % 20_000
    let ports = (0..<instances).map { firstPort + $0 }
    var servers: [Process] = []
    defer {
        for server in servers {
            server.terminate()
            server.waitUntilExit()
        }
    }
    for port in ports {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: intents)
        server.arguments =
            [
                "serve", "--port", String(port), "--store", store, "--intents", root + "/Intents", "--rate", "1000000",
                "--burst", "1000000", "--max-concurrent", "256", "--max-engines", String(max(32, userCount)),
            ] + extraServeArguments()
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        servers.append(server)
        // Up when /healthz answers (the definitions are loaded, and the learned stage trained into
        // this run's fresh cache, before the port is bound: minutes on a loaded machine).
        var up = false
        for _ in 0..<12_000 where !up {
            if let connection = try? LoadConnection(port: port), (try? connection.get("/healthz")) == 200 {
                up = true
            } else {
                usleep(50_000)
            }
        }
        guard up else { throw LoadConnection.Failure(description: "the server did not come up on port \(port)") }
    }

    print(
        "serve \(intents) (\(backend), \(instances) instance\(instances == 1 ? "" : "s"), \(userCount == 1 ? "one user" : "\(userCount) users"), \(requests) requests per row, "
            + "\(repeats) repeats, keep-alive; server: \(ProcessInfo.processInfo.activeProcessorCount) cores shared with this client)"
    )
    print(
        "mode        conns   req/s min  req/s median   p50 ms   p99 ms   errors   engine ms   "
            + "(p50, p99: medians of the repeats; engine: the servers' own answer time, mean, waits for the engine included)"
    )
    var engineTimes: [String: Double] = [:]
    for (mode, dryRun) in [("dry run", true), ("executing", false)] {
        // Warm: the user's engine opened, caches built, on every instance.
        for port in ports {
            for (index, token) in tokens.enumerated() {
                _ = try load(
                    ports: [port], tokens: [token], connections: 1, requests: userCount == 1 ? 20 : 2, dryRun: dryRun,
                    tag: "warm\(index)")
            }
        }
        for connections in connectionCounts {
            let engineBefore = try ports.map { try engineDuration(port: $0) }
            var results: [LoadResult] = []
            for round in 0..<repeats {
                results.append(
                    try load(
                        ports: ports, tokens: tokens, connections: connections, requests: requests, dryRun: dryRun,
                        tag: "\(connections)r\(round)"))
            }
            // The engine's own time inside the servers (their /metrics), over the row's requests.
            let engineAfter = try ports.map { try engineDuration(port: $0) }
            let seconds = zip(engineAfter, engineBefore).map { $0.seconds - $1.seconds }.reduce(0, +)
            let count = zip(engineAfter, engineBefore).map { $0.count - $1.count }.reduce(0, +)
            let engineMean = count > 0 ? seconds / count * 1_000 : 0
            if connections == 1 { engineTimes[mode] = engineMean }
            let rates = results.map(\.perSecond).sorted()
            print(
                String(
                    format: "%-10@  %5d  %10.0f  %12.0f  %8.2f  %7.2f   %6d   %9.3f", mode as NSString, connections,
                    rates[0],
                    median(rates), median(results.map(\.p50).sorted()), median(results.map(\.p99).sorted()),
                    results.map(\.errors).reduce(0, +), engineMean))
        }
    }

    // The engine alone, in this process, the same phrases on the same backend: what HTTP, JSON and
    // the thread hops add, and whether the engine's own time inside the server is the same.
    let inProcessStore =
        given.map { IntentEngine.Configuration.store(ofUser: "inprocess", besides: $0) } ?? folder
        + "/inprocess/store.sqlite"
    let engine = try IntentEngine(.init(definitions: root + "/Intents", store: inProcessStore))
    print(
        "in-process IntentEngine.respond, same phrases (\(requests) each), against the servers' own answer time at 1 connection:"
    )
    for (mode, dryRun) in [("dry run", true), ("executing", false)] {
        var times: [Double] = []
        for index in 0..<requests {
            let request = EngineRequest(conversation: .make(), dryRun: dryRun, isNewConversation: true)
            let start = DispatchTime.now().uptimeNanoseconds
            _ = engine.respond(to: phrase(index, dryRun: dryRun, tag: "in"), request)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        times.sort()
        let total = times.reduce(0, +)
        print(
            String(
                format:
                    "%-10@  %8.0f/s  mean %.3f ms  p50 %.3f ms  p99 %.3f ms;  in the servers (1 connection): mean %.3f ms",
                mode as NSString, Double(requests) / (total / 1_000), total / Double(requests), percentile(times, 0.5),
                percentile(times, 0.99), engineTimes[mode] ?? 0))
    }
}

/// `--serve-args "…"`: more arguments for each `intents serve` (for example an option to compare).
private func extraServeArguments() -> [String] {
    CommandLine.arguments.firstIndex(of: "--serve-args").flatMap {
        $0 + 1 < CommandLine.arguments.count ? CommandLine.arguments[$0 + 1] : nil
    }.map { $0.split(separator: " ").map(String.init) } ?? []
}

/// The server's `intents_engine_answer_duration_seconds` histogram: its sum and count over every stage.
private func engineDuration(port: Int) throws -> (seconds: Double, count: Double) {
    let connection = try LoadConnection(port: port)
    let text = try connection.getBody("/metrics")
    var seconds = 0.0, count = 0.0
    for line in text.split(separator: "\n") where line.hasPrefix("intents_engine_answer_duration_seconds_") {
        guard let value = line.split(separator: " ").last.flatMap({ Double($0) }) else { continue }
        if line.hasPrefix("intents_engine_answer_duration_seconds_sum") { seconds += value }
        if line.hasPrefix("intents_engine_answer_duration_seconds_count") { count += value }
    }
    return (seconds, count)
}

private func phrase(_ index: Int, dryRun: Bool, tag: String) -> String {
    dryRun ? "create a radar on quantum computing" : "add task load \(tag) \(index) to my tasks"
}

private func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
}

private struct LoadResult {
    var perSecond: Double
    var p50: Double
    var p99: Double
    var errors: Int
}

/// `requests` spread over `connections` threads, each on its own keep-alive connection to one of
/// `ports` in turn.
/// Connection `i` speaks as user `i % tokens.count`.
private func load(ports: [Int], tokens: [String], connections: Int, requests: Int, dryRun: Bool, tag: String) throws
    -> LoadResult
{
    let perConnection = max(1, requests / connections)
    let collected = Collected()
    let group = DispatchGroup()
    let start = DispatchTime.now().uptimeNanoseconds
    for connectionIndex in 0..<connections {
        group.enter()
        let thread = Thread {
            defer { group.leave() }
            var mine: [Double] = []
            var failed = 0
            do {
                let connection = try LoadConnection(port: ports[connectionIndex % ports.count])
                for index in 0..<perConnection {
                    let text = phrase(connectionIndex * perConnection + index, dryRun: dryRun, tag: tag)
                    let body = #"{"text":"\#(text)","dryRun":\#(dryRun)}"#
                    let began = DispatchTime.now().uptimeNanoseconds
                    let status = try connection.post(
                        "/v1/say", body: body, token: tokens[connectionIndex % tokens.count])
                    mine.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6)
                    if status != 200 { failed += 1 }
                }
            } catch {
                failed += 1
            }
            collected.add(mine, failed)
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    group.wait()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let (latencies, errors) = collected.sorted()
    return LoadResult(
        perSecond: Double(latencies.count) / seconds, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99),
        errors: errors)
}

/// Latencies and errors from every connection's thread.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var latencies: [Double] = []
    private var errors = 0

    func add(_ more: [Double], _ failed: Int) {
        lock.withLock {
            latencies += more
            errors += failed
        }
    }

    func sorted() -> ([Double], Int) { lock.withLock { (latencies.sorted(), errors) } }
}

/// One keep-alive HTTP/1.1 connection: a request, then its response read to its Content-Length.
private final class LoadConnection {
    struct Failure: Error, CustomStringConvertible { var description: String }
    let socket: Int32
    let port: Int
    var buffer: [UInt8] = []

    init(port: Int) throws {
        self.port = port
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            throw Failure(description: "connect: \(errno)")
        }
        var one: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(socket) }

    func get(_ path: String) throws -> Int {
        try exchange("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").status
    }

    func getBody(_ path: String) throws -> String {
        String(decoding: try exchange("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").body, as: UTF8.self)
    }

    func post(_ path: String, body: String, token: String) throws -> Int {
        try exchange(
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        ).status
    }

    private func exchange(_ request: String) throws -> (status: Int, body: [UInt8]) {
        let bytes = Array(request.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(description: "send: \(errno)") }
            offset += sent
        }
        // The head, then Content-Length bytes of body.
        var headEnd: Int?
        while headEnd == nil {
            try fill()
            headEnd = find([13, 10, 13, 10])
        }
        let head = String(decoding: buffer[0..<headEnd!], as: UTF8.self).lowercased()
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        let length =
            head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        let total = headEnd! + 4 + length
        while buffer.count < total { try fill() }
        let body = Array(buffer[(headEnd! + 4)..<total])
        buffer.removeFirst(total)
        return (status, body)
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = recv(socket, &chunk, chunk.count, 0)
        guard count > 0 else { throw Failure(description: "the connection closed") }
        buffer.append(contentsOf: chunk[0..<count])
    }

    private func find(_ pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        return (0...(buffer.count - pattern.count)).first { buffer[$0..<$0 + pattern.count].elementsEqual(pattern) }
    }
}

private func runCapturing(_ executable: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw LoadConnection.Failure(description: "\(executable) \(arguments) failed")
    }
    return String(decoding: data, as: UTF8.self)
}
