import ArgumentParser
import Foundation
import IntentModel

/// `--answers FILE` (run, batch): one answer per line, `-` for standard input. A line holding a
/// control character is refused (it could be stored and printed to a terminal later).
enum AnswersFile {
    static func read(_ path: String) throws -> [String] {
        let data =
            path == "-"
            ? FileHandle.standardInput.readDataToEndOfFile()
            : FileHandle(forReadingAtPath: path)?.readDataToEndOfFile()
        guard let data, let text = String(data: data, encoding: .utf8) else {
            Terminal.standardError("error: cannot read the answers file \(path)\n")
            throw ExitCode(2)
        }
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        for (number, line) in lines.enumerated() {
            if let problem = ControlCharacters.problem(in: line, what: "line \(number + 1) of \(path)") {
                Terminal.standardError("error: \(problem)\n")
                throw ExitCode(2)
            }
        }
        return lines
    }
}
