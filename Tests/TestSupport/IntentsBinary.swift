import Foundation

/// Runs the built `intents` binary, the way argument-parser's `AssertExecuteCommand` does: the
/// one runner every command-line test goes through. The binary is the one built beside the
/// running test bundle (whatever `--build-path` or configuration), so no test spells `.build/debug`.
public enum IntentsBinary {
    /// What one run of the binary gave.
    public struct Run: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    /// The folder the test bundle was built in, which holds the package's executables too.
    public static let folder: String = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let candidates = [
            bundle.deletingLastPathComponent(), Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
        ]
        for candidate in candidates {
            if FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("intents").path) {
                return candidate.path
            }
        }
        return Bundled.root + "/.build/debug"
    }()

    /// The `intents` executable.
    public static var path: String { executable("intents") }

    /// Another of the package's executables (`intents-bench`), from the same folder.
    public static func executable(_ name: String) -> String { folder + "/" + name }

    /// The environment every run gets: this process's, without colour, with `overrides` on top.
    public static func environment(_ overrides: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment.merge(overrides) { _, override in override }
        return environment
    }

    /// A process for `intents arguments` in `directory`, not yet started: for tests that signal,
    /// time or wrap it themselves.
    public static func process(
        _ arguments: [String], in directory: String = Bundled.root, environment overrides: [String: String] = [:]
    ) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = environment(overrides)
        return process
    }

    /// Runs `intents arguments` in `directory` with `input` on stdin (none: an empty stdin, never
    /// the terminal) and waits for it.
    public static func run(
        _ arguments: [String], in directory: String = Bundled.root, environment overrides: [String: String] = [:],
        input: Data = Data()
    ) throws -> Run {
        try run(process(arguments, in: directory, environment: overrides), input: input)
    }

    /// Runs `process` (made by `process(_:in:environment:)` or wrapping the binary) with `input` on
    /// stdin, collecting both outputs.
    public static func run(_ process: Process, input: Data = Data()) throws -> Run {
        let stdin = Pipe(), out = Pipe(), err = Pipe()
        process.standardInput = stdin
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Feed stdin from another thread, so a large input cannot deadlock against our reads.
        let writer = Thread {
            stdin.fileHandleForWriting.write(input)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
