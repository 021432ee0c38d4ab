/// The text of every definition file read, so diagnostics can show their source line.
public struct SourceFiles: Sendable {
    private struct File: Sendable {
        var text: String
        /// Where each line starts, in UTF-8 offsets.
        var lineStarts: [Int]
    }

    private var files: [String: File] = [:]

    public init() {}

    public mutating func add(path: String, text: String) {
        var starts = [0]
        var offset = 0
        for byte in text.utf8 {
            offset += 1
            if byte == 0x0A { starts.append(offset) }
        }
        files[path] = File(text: text, lineStarts: starts)
    }

    /// Line `number` (1-based) of `path`, if that file and line were read.
    public func line(_ number: Int, of path: String) -> Substring? {
        guard let file = files[path], number >= 1, number <= file.lineStarts.count else { return nil }
        let utf8 = file.text.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: file.lineStarts[number - 1])
        let end = number < file.lineStarts.count
            ? utf8.index(utf8.startIndex, offsetBy: file.lineStarts[number] - 1)
            : utf8.endIndex
        let line = file.text[start..<end]
        return line.last == "\r" ? line.dropLast() : line
    }
}
