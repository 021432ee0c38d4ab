/// The text of every definition file read, so diagnostics can show their source line.
public struct SourceFiles: Sendable {
    private var lines: [String: [Substring]] = [:]

    public init() {}

    public mutating func add(path: String, text: String) {
        lines[path] = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.last == "\r" ? line.dropLast() : line
        }
    }

    /// Line `number` (1-based) of `path`, if that file and line were read.
    public func line(_ number: Int, of path: String) -> Substring? {
        guard let file = lines[path], number >= 1, number <= file.count else { return nil }
        return file[number - 1]
    }
}
