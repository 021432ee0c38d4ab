import Foundation
import IntentModel

/// Everything this program prints on standard output goes through here: text that came from a
/// store, a file or an answer can hold control characters (`ESC [2J` clears the screen,
/// `ESC ]0;…BEL` retitles the terminal), so each one is written visibly as `\u{1B}` instead.
/// JSON output is unaffected: its encoder already escapes them. This shadows `Swift.print` for
/// the whole module, so no command can forget it.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let text = items.map { "\($0)" }.joined(separator: separator)
    Swift.print(ControlCharacters.escaped(text), terminator: terminator)
}
