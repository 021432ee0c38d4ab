import ArgumentParser
import Foundation
import IntentModel

/// `--answers FILE` (run, batch): one answer per line, `-` for standard input. A line holding a
/// control character is refused (it could be stored and printed to a terminal later).
enum AnswersFile {
    /// Longest answer (as long as a phrase) and largest answers file.
    static let maximumLine = Say.maximumBytes
    static let maximumBytes = 16 << 20

    static func read(_ path: String) throws -> [String] {
        // A line at a time, each at most an answer's limit, the whole at most `maximumBytes`:
        // checked as the bytes arrive, so an endless pipe or a huge line is refused, not held.
        var input =
            path == "-"
            ? InputLines(maximumLine: maximumLine, maximumTotal: maximumBytes)
            : InputLines(path: path, maximumLine: maximumLine, maximumTotal: maximumBytes)
        guard input != nil else {
            Terminal.standardError("error: cannot read the answers file \(path)\n")
            throw ExitCode(2)
        }
        var lines: [String] = []
        while let line = input?.next() {
            switch line {
            case .text(let text, let number):
                if let problem = ControlCharacters.problem(in: text, what: "line \(number) of \(path)") {
                    Terminal.standardError("error: \(problem)\n")
                    throw ExitCode(2)
                }
                if !text.isEmpty { lines.append(text) }
            case .tooLong(let number):
                Terminal.standardError(
                    "error: line \(number) of \(path) is longer than \(maximumLine) bytes; an answer is at most that\n")
                throw ExitCode(2)
            case .notText:
                Terminal.standardError("error: cannot read the answers file \(path): it is not UTF-8 text\n")
                throw ExitCode(2)
            }
        }
        switch input?.stopped {
        case .tooMuch?:
            Terminal.standardError("error: the answers file \(path) is more than \(maximumBytes >> 20) MB\n")
            throw ExitCode(2)
        case .nul?:
            Terminal.standardError("error: cannot read the answers file \(path): it is not UTF-8 text\n")
            throw ExitCode(2)
        case nil:
            return lines
        }
    }
}
