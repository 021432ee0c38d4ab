import Foundation

/// Runs a program of the machine other than `intents` (`swift package`, `pg_dump`) to its end,
/// with an empty stdin and both outputs collected, through the same runner as `IntentsBinary`.
public enum ExternalTool {
    /// `tool` with `arguments`, in `directory` (nil: this process's): a path, or a name found on `PATH`.
    public static func run(_ tool: String, _ arguments: [String], in directory: String? = nil) throws
        -> IntentsBinary.Run
    {
        let process = Process()
        if tool.contains("/") {
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [tool] + arguments
        }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        return try IntentsBinary.run(process)
    }

    /// A PostgreSQL program (`pg_dump`): Debian's newest version of it, else `/usr/bin`'s; nil when
    /// PostgreSQL is not installed.
    public static func postgres(_ name: String) -> String? {
        let root = "/usr/lib/postgresql"
        // No such folder is the usual case without PostgreSQL, not an error to report.
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .compactMap(Int.init).sorted(by: >)
        return (versions.map { "\(root)/\($0)/bin/\(name)" } + ["/usr/bin/\(name)"])
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
