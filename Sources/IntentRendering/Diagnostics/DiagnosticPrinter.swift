public import IntentModel
import YAML

/// Renders diagnostics like a compiler: location, severity, message, the source line and a caret.
public struct DiagnosticPrinter: Sendable {
    public var sources: SourceFiles
    /// ANSI colours; only when the output is a terminal.
    public var colored: Bool

    public init(sources: SourceFiles, colored: Bool = false) {
        self.sources = sources
        self.colored = colored
    }

    public func render(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.map(render).joined()
    }

    public func render(_ diagnostic: Diagnostic) -> String {
        var out = entry(diagnostic.severity.rawValue, diagnostic.message.text, diagnostic.location)
        if let fixIt = diagnostic.fixIt,
            fixIt.range.start.line == fixIt.range.end.line || fixIt.range.start == fixIt.range.end
        {
            out += "    fix-it: replace with '\(ControlCharacters.escaped(fixIt.replacement))'\n"
        }
        for note in diagnostic.notes {
            out += entry("note", note.message.text, note.location)
        }
        return out
    }

    /// A one-line summary: "2 errors and 1 warning generated."
    public static func summary(_ diagnostics: [Diagnostic]) -> String? {
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        var parts: [String] = []
        if errors > 0 { parts.append("\(errors) error\(errors == 1 ? "" : "s")") }
        if warnings > 0 { parts.append("\(warnings) warning\(warnings == 1 ? "" : "s")") }
        return parts.isEmpty ? nil : parts.joined(separator: " and ") + " generated."
    }

    private func entry(_ severity: String, _ message: String, _ location: SourceRange?) -> String {
        // What a file holds is quoted with its control characters escaped (an ESC in a source
        // line or a name must not reach the terminal); the colours are this printer's own.
        let place = location.map { ControlCharacters.escaped("\($0.start): ") } ?? ""
        let message = ControlCharacters.escaped(message)
        var out = paint(place, "1") + paint("\(severity):", color(severity)) + " " + paint(message, "1") + "\n"
        if let location, let line = sources.line(location.start.line, of: location.start.file) {
            out += ControlCharacters.escaped(String(line)) + "\n" + caret(line: line, range: location) + "\n"
        }
        return out
    }

    private func caret(line: Substring, range: SourceRange) -> String {
        let scalars = Array(line.unicodeScalars)
        let start = max(0, min(range.start.column - 1, scalars.count))
        var lead = ""
        for scalar in scalars[..<start] {
            if scalar == "\t" {
                lead.unicodeScalars.append("\t")
            } else {
                // An escaped control character is as wide as its escape.
                let width = ControlCharacters.isForbidden(scalar) ? ControlCharacters.escaped(String(scalar)).count : 1
                lead += String(repeating: " ", count: width)
            }
        }
        var width = 1
        if range.end.line == range.start.line, range.end.column - 1 > start {
            width = min(range.end.column - 1, scalars.count) - start
        }
        return lead + paint("^" + String(repeating: "~", count: max(0, width - 1)), "32")
    }

    private func color(_ severity: String) -> String {
        switch severity {
        case "error": "1;31"
        case "warning": "1;35"
        default: "1;36"
        }
    }

    private func paint(_ text: String, _ code: String) -> String {
        colored && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
