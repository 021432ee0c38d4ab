import ArgumentParser

/// The exit statuses of every command, one table for all of them (printed by
/// `intents help exit-codes`, copied into docs/commands.md, checked by the tests).
///
/// Like grep's: 0 the command did what was asked, 1 it did not (nothing matched, an intent or the
/// store failed), 2 it was asked wrongly. argument-parser's own `EX_USAGE` (64) is folded into 2,
/// so a script tells "wrong command line" apart from "did not happen" by one code, whatever caught it.
enum ExitStatus: Int32, CaseIterable {
    case done = 0
    case notDone = 1
    case usage = 2

    var code: Int32 { rawValue }

    /// For `throw`.
    var exitCode: ExitCode { ExitCode(rawValue) }

    /// What the status means, as docs/commands.md's table says it.
    var meaning: String {
        switch self {
        case .done:
            "done: the intent ran (or a dry run resolved it), a question was asked and left open (answer it with `intents continue`), a shortcut finished or stopped (a `stop:` step, or no to a confirmation), a listing was printed (even an empty one)"
        case .notDone:
            "not done: nothing matched (`no_match`, in `say` as in `batch`, as grep exits 1), an intent failed (`say`, a `batch` line, a `run` step, `control`), errors in definitions or a shortcut file, a store that cannot be used or a migration refused"
        case .usage:
            "the command line was wrong: an unknown command or option, an option's value malformed or out of range (`--top 0`, `--at bogus`, `--family bogus`), a file named that cannot be read (`run`, `batch`, `--answers`), input that is not a phrase (empty, over 2,000 bytes, not UTF-8, a control character: C0, DEL or C1), a `--lang` no app declares, a link or a share refused"
        }
    }

    /// The table, in Markdown.
    static var table: String {
        "| code | means |\n| --- | --- |\n" + allCases.map { "| \($0.rawValue) | \($0.meaning) |\n" }.joined()
    }
}
