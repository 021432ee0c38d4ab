import Foundation
import IntentModel

/// Lines read from a file descriptor as bytes arrive, each checked against a limit before it is
/// kept: memory holds one chunk and one line, whatever comes (`say < /dev/zero`, `yes … | say`,
/// a 5 GB line). A line over the limit is skipped to its end and reported, and the next line is
/// read; a NUL byte means the input is not text, and reading stops there.
struct InputLines {
    enum Line: Equatable {
        /// A line of text, without its line break.
        case text(String, number: Int)
        /// A line longer than the limit (its bytes were skipped as they came).
        case tooLong(number: Int)
        /// A line that is not UTF-8.
        case notText(number: Int)
    }

    /// What stopped the reading before the end of the input.
    enum Stop: Equatable {
        /// A NUL byte: binary data, not lines of text.
        case nul(line: Int)
        /// More than `maximumTotal` bytes.
        case tooMuch
    }

    let descriptor: Int32
    let maximumLine: Int
    /// Most bytes read in all, or nil for no limit (a conversation at a prompt can go on for ever).
    let maximumTotal: Int?
    private(set) var stopped: Stop?
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false
    private var total = 0
    private var number = 0

    init(descriptor: Int32 = STDIN_FILENO, maximumLine: Int, maximumTotal: Int? = nil) {
        self.descriptor = descriptor
        self.maximumLine = maximumLine
        self.maximumTotal = maximumTotal
    }

    /// Opens `path` for reading; nil when it cannot be.
    init?(path: String, maximumLine: Int, maximumTotal: Int? = nil) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) != S_IFDIR else {
            close(descriptor)
            return nil
        }
        self.init(descriptor: descriptor, maximumLine: maximumLine, maximumTotal: maximumTotal)
    }

    /// The next line; nil at the end of the input (or where reading stopped: see `stopped`).
    mutating func next() -> Line? {
        guard stopped == nil else { return nil }
        var skipping = false
        var scanned = start
        while true {
            // Look for the line's end in what is buffered.
            while scanned < buffer.count {
                let byte = buffer[scanned]
                if byte == 0 {
                    stopped = .nul(line: number + 1)
                    return nil
                }
                if byte == 0x0A {
                    number += 1
                    defer { start = scanned + 1 }
                    if skipping { return .tooLong(number: number) }
                    var line = buffer[start..<scanned]
                    if line.last == 0x0D { line = line.dropLast() }
                    guard let text = String(validating: line, as: UTF8.self) else { return .notText(number: number) }
                    return .text(text, number: number)
                }
                scanned += 1
                // Over the limit: the line's bytes are dropped and the rest skipped as it comes.
                if !skipping, scanned - start > maximumLine { skipping = true }
            }
            guard !ended else {
                // The last line has no line break.
                guard skipping || start < buffer.count else { return nil }
                number += 1
                let line = buffer[start...]
                start = buffer.count
                if skipping { return .tooLong(number: number) }
                guard let text = String(validating: line, as: UTF8.self) else { return .notText(number: number) }
                return .text(text, number: number)
            }
            // Keep only the line begun (nothing of a line being skipped); read more.
            let done = skipping ? scanned : start
            if done > 0 {
                buffer.removeFirst(done)
                scanned -= done
                start = 0
            }
            if let maximumTotal, total > maximumTotal {
                stopped = .tooMuch
                return nil
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 {
                ended = true
            } else {
                total += count
                buffer += chunk[..<count]
            }
        }
    }
}

/// Standard input's lines for the whole program: every reader of standard input shares one
/// buffer, so nothing read ahead is lost between them.
nonisolated(unsafe) var standardInputLines = InputLines(maximumLine: InputLines.defaultMaximumLine)

extension InputLines {
    /// Longest line a prompt or a piped conversation takes (64 KB): far above any phrase.
    static let defaultMaximumLine = 64 << 10
}

/// Reads a line of standard input like `Swift.readLine`, but never more than a line's limit: a
/// longer line is reported on standard error and read as an empty line, so a prompt answers the
/// next one. This shadows `Swift.readLine` for the whole module, as `print` is.
func readLine() -> String? {
    switch standardInputLines.next() {
    case .text(let text, _): return text
    case .tooLong(let number):
        Terminal.standardError(
            "error: line \(number) of the input is longer than \(InputLines.defaultMaximumLine >> 10) KB; skipped\n")
        return ""
    case .notText(let number):
        Terminal.standardError("error: line \(number) of the input is not UTF-8 text; skipped\n")
        return ""
    case nil:
        if case .nul(let line)? = standardInputLines.stopped {
            Terminal.standardError("error: line \(line) of the input holds a NUL byte; the input is not text\n")
        }
        return nil
    }
}
