import CEditLine
import Foundation

/// Line editing at a terminal through the system's libedit: history kept in a file across runs,
/// Tab completing whole phrases and commands, Ctrl-C interrupting the line instead of the process.
final class LineEditor {
    enum Input {
        case line(String)
        /// Ctrl-C.
        case interrupted
        /// Ctrl-D on an empty line.
        case end
    }

    private let historyPath: String?

    /// What Tab completes. libedit calls back through a C function pointer, which cannot
    /// capture, hence the statics (one editor per process).
    nonisolated(unsafe) private static var candidates: [String] = []
    nonisolated(unsafe) private static var interrupted: sig_atomic_t = 0
    /// Slot values after a phrase's words (enum cases, entity names), asked when no phrase matches.
    nonisolated(unsafe) static var valueCompletions: ((String) -> [String])?

    init?(historyPath: String?, candidates: [String]) {
        self.historyPath = historyPath
        Self.candidates = candidates
        let opened = intents_editor_open("intents") { editor, _ in
            guard let editor, let info = el_line(editor) else { return UInt8(CC_ERROR) }
            let typed = String(
                decoding: UnsafeRawBufferPointer(
                    start: info.pointee.buffer, count: info.pointee.cursor - info.pointee.buffer), as: UTF8.self)
            var matches = LineEditor.candidates.filter { $0.lowercased().hasPrefix(typed.lowercased()) }
            if matches.isEmpty, let values = LineEditor.valueCompletions { matches = values(typed) }
            guard !matches.isEmpty else { return UInt8(CC_REFRESH_BEEP) }
            let common = LineEditor.commonPrefix(matches)
            if common.count > typed.count {
                el_insertstr(editor, String(common.dropFirst(typed.count)))
                return UInt8(CC_REFRESH)
            }
            // Nothing more in common: show the choices under the line.
            print("")
            for match in matches.prefix(20) { print("  " + match) }
            if matches.count > 20 { print("  … and \(matches.count - 20) more") }
            return UInt8(CC_REDISPLAY)
        }
        guard opened == 0 else { return nil }
        if let historyPath { intents_history_load(historyPath) }
        // Ctrl-C interrupts the read (no SA_RESTART) and is noted, instead of ending the process.
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in LineEditor.interrupted = 1 }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
    }

    deinit {
        intents_editor_close()
    }

    /// `remember: false` keeps the line out of the history (an answer to a question: "no", "2").
    func read(prompt: String, remember: Bool = true) -> Input {
        Self.interrupted = 0
        var count: Int32 = 0
        guard let pointer = intents_editor_read(prompt, &count) else {
            if Self.interrupted != 0 {
                print("^C")
                return .interrupted
            }
            return .end
        }
        if Self.interrupted != 0 {
            print("^C")
            return .interrupted
        }
        var line = String(cString: pointer)
        if line.hasSuffix("\n") { line.removeLast() }
        if remember, !line.trimmingCharacters(in: .whitespaces).isEmpty {
            intents_history_add(line)
            if let historyPath { intents_history_save(historyPath) }
        }
        return .line(line)
    }

    static func commonPrefix(_ texts: [String]) -> String {
        guard var prefix = texts.first else { return "" }
        for text in texts.dropFirst() {
            while !text.lowercased().hasPrefix(prefix.lowercased()) { prefix.removeLast() }
        }
        return prefix
    }

    /// Phrases as completions: each up to its first placeholder, once.
    static func completions(phrases: [String], commands: [String]) -> [String] {
        var seen: Set<String> = []
        var result: [String] = []
        for phrase in commands + phrases {
            var text = phrase
            if let placeholder = text.firstIndex(of: "<") { text = String(text[..<placeholder]) }
            if seen.insert(text.lowercased()).inserted, !text.trimmingCharacters(in: .whitespaces).isEmpty {
                result.append(text)
            }
        }
        return result
    }
}
