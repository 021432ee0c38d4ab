import Foundation
import Testing

/// A private PostgreSQL server for the tests, started once per test process: `initdb` into a
/// temporary folder, `pg_ctl start` on a free loopback port with its socket in that folder, and
/// stopped and removed when the process ends (a watcher stops it even when the process crashes).
///
/// `$INTENTS_TEST_POSTGRES` (a `postgres://` URL) names a server to use instead. As root, the
/// server runs as the `postgres` user (PostgreSQL refuses to run as root).
///
/// When no server can be started, a test asking for one is cancelled with the reason (a visible
/// skip) — except under `CI=true`, where it fails: CI must run the PostgreSQL tests.
public enum PostgresCluster {
    /// The server's URL (database `postgres`, user `intents`), or why there is none.
    public static let server: Result<String, Failure> = start()

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A URL for a new, empty schema of the test server: every test gets its own store.
    /// Cancels the test (or fails it under CI) when there is no server.
    public static func freshStore(_ label: String = "t", sourceLocation: SourceLocation = #_sourceLocation) throws
        -> String
    {
        let base = try url(sourceLocation: sourceLocation)
        let safe = String(label.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }.prefix(20))
        let schema = "\(safe)_\(UUID().uuidString.prefix(8).lowercased())"
        return base + "?schema=" + schema
    }

    /// The server's URL; cancels the test (or fails it under CI) when there is none.
    public static func url(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        switch server {
        case .success(let url): return url
        case .failure(let failure):
            let message = "PostgreSQL is not available, so this test did not run: \(failure.description)"
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record(
                    Comment(rawValue: message + " (CI=true: a skipped PostgreSQL test fails the run)"),
                    sourceLocation: sourceLocation)
                throw failure
            }
            FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
            try Test.cancel(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
    }

    private static func start() -> Result<String, Failure> {
        let environment = ProcessInfo.processInfo.environment
        if let given = environment["INTENTS_TEST_POSTGRES"], !given.isEmpty { return .success(given) }
        guard let bin = binaries() else {
            return .failure(
                Failure(description: "no initdb/pg_ctl found (install Debian's 'postgresql' package: make deps)"))
        }
        let isRoot = getuid() == 0
        let folder = NSTemporaryDirectory() + "intents-pg-\(getpid())-\(UUID().uuidString.prefix(6))"
        let data = folder + "/data"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            if isRoot {
                // The server runs as `postgres`: it must own its folder.
                guard run("/bin/chown", ["postgres:postgres", folder]).status == 0 else {
                    return .failure(
                        Failure(description: "running as root and there is no 'postgres' user to run the server as"))
                }
            }
        } catch {
            return .failure(Failure(description: "cannot create \(folder): \(error)"))
        }
        func asServerUser(_ tool: String, _ arguments: [String]) -> (status: Int32, output: String) {
            isRoot
                ? run("/usr/sbin/runuser", ["-u", "postgres", "--", bin + "/" + tool] + arguments)
                : run(bin + "/" + tool, arguments)
        }
        let initialized = asServerUser(
            "initdb", ["-D", data, "-U", "intents", "--auth=trust", "--no-locale", "-E", "UTF8", "--no-sync"])
        guard initialized.status == 0 else {
            try? FileManager.default.removeItem(atPath: folder)
            return .failure(Failure(description: "initdb failed: \(initialized.output.suffix(400))"))
        }
        // A free port: the kernel picks one, and another process is unlikely to take it in between;
        // if one does, the next port is tried.
        for _ in 0..<5 {
            guard let port = freePort() else { break }
            let options =
                "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
            let started = asServerUser(
                "pg_ctl", ["-D", data, "-o", options, "-l", folder + "/log", "-w", "-t", "30", "start"])
            if started.status == 0 {
                watch(folder: folder, data: data, bin: bin, isRoot: isRoot)
                return .success("postgres://intents@127.0.0.1:\(port)/postgres")
            }
        }
        let log = (try? String(contentsOfFile: folder + "/log", encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: folder)
        return .failure(Failure(description: "the server did not start: \(log.suffix(400))"))
    }

    /// Stops the server and removes its folder when this process ends, however it ends.
    private static func watch(folder: String, data: String, bin: String, isRoot: Bool) {
        let stop = (isRoot ? "/usr/sbin/runuser -u postgres -- " : "") + "\(bin)/pg_ctl -D \(data) -m immediate stop"
        let script =
            "while kill -0 \(getpid()) 2>/dev/null; do sleep 0.5; done; \(stop) >/dev/null 2>&1; rm -rf \(folder)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }

    /// Debian's binaries (the newest version there), or those on PATH.
    private static func binaries() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .compactMap(Int.init).sorted(by: >)
        for version in versions where FileManager.default.isExecutableFile(atPath: "\(root)/\(version)/bin/pg_ctl") {
            return "\(root)/\(version)/bin"
        }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        where FileManager.default.isExecutableFile(atPath: "\(directory)/pg_ctl")
            && FileManager.default.isExecutableFile(atPath: "\(directory)/initdb")
        {
            return String(directory)
        }
        return nil
    }

    private static func freePort() -> Int? {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { return nil }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard named == 0 else { return nil }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs a program to its end, its output (both streams) read from a file after. Not through
    /// Foundation's `Process`, whose wait can miss the exit of a program that leaves a daemon behind
    /// (`pg_ctl start`).
    private static func run(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let output = NSTemporaryDirectory() + "intents-pg-run-\(getpid())-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            return (-1, "\(executable): cannot start it (\(String(cString: strerror(spawned))))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        // Exited normally: its exit code; else (a signal) failure.
        let exited = status & 0x7f == 0
        return (exited ? (status >> 8) & 0xff : -1, text)
    }
}
