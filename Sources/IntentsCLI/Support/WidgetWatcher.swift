import Foundation
import IntentModel
import IntentRuntime

/// `--watch`: draws again when another process changes the store or the minute turns (a timeline
/// entry may come due), until `q`. A digit presses that button of the widget, which then reloads.
/// At a terminal keys are read one at a time and the screen is redrawn in place; from a pipe, one
/// command a line and each drawing follows the last.
struct WidgetWatcher {
    let session: Session
    let options: Conversation.Options
    /// Draws the current state; the widget whose buttons digits press, if one.
    let draw: () throws -> (text: String, widget: WidgetInstance?)
    /// Seconds between redraws when nothing changes (a countdown redraws every second).
    var tick = 60

    func run() throws {
        let terminal = isatty(STDIN_FILENO) != 0 && isatty(STDOUT_FILENO) != 0
        var saved = termios()
        if terminal {
            tcgetattr(STDIN_FILENO, &saved)
            var raw = saved
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
            tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        }
        defer {
            if terminal {
                tcsetattr(STDIN_FILENO, TCSANOW, &saved)
                print("")
            }
        }
        var message: String?
        var typed = ""
        // The time from the session's clock: a fixed `INTENTS_NOW` never turns a minute.
        func minute() -> Int { Int(session.clock.now.timeIntervalSince1970) / tick }
        var lastMinute = minute()
        while true {
            // Counted before drawing: a change while it draws redraws once more; a button pressed
            // here, whose write the drawing shows, does not redraw it twice.
            var lastChange = try session.store.changeCount()
            let (text, widget) = try draw()
            let keys = widget?.widget.buttons.isEmpty == false ? "1-9 press a button, q quits" : "q quits"
            if terminal {
                // Our own escape sequence (home, clear): written as is, unlike the text drawn below.
                Swift.print("\u{1B}[H\u{1B}[2J", terminator: "")
                print(text)
                print(message.map { "\n\($0)" } ?? "")
                print("(\(keys); redrawn when the store changes)", terminator: "")
            } else {
                if let message { print(message) }
                print(text + "\n")
            }
            fflush(nil)
            message = nil
            // Wait for a command, a change in the store, or the next minute.
            waiting: while true {
                var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
                if poll(&descriptor, 1, 1_000) > 0 {
                    var byte: UInt8 = 0
                    guard read(STDIN_FILENO, &byte, 1) == 1 else { return }
                    // At a terminal a key is a command; from a pipe, a line is.
                    if !terminal, byte != UInt8(ascii: "\n") {
                        if typed.utf8.count < 16 { typed.append(Character(Unicode.Scalar(byte))) }
                        continue
                    }
                    let command = terminal ? String(Character(Unicode.Scalar(byte))) : typed.trimmed
                    typed = ""
                    switch command {
                    case "q", "\u{3}", "\u{4}": return
                    case "": continue
                    default:
                        message = press(command, widget: widget)
                        break waiting
                    }
                }
                let change = try session.store.changeCount()
                let now = minute()
                if change != lastChange || now != lastMinute {
                    (lastChange, lastMinute) = (change, now)
                    break
                }
            }
        }
    }

    private func press(_ typed: String, widget: WidgetInstance?) -> String {
        guard let number = Int(typed), let widget else { return "Press a button by its number." }
        do {
            let center = WidgetCenter(graph: session.graph, store: session.store)
            guard let answer = try center.press(number, on: widget, session: session, options: options) else {
                return "\(widget.widget.title) has no button \(number)."
            }
            return answer.text
        } catch {
            return "error: \(error)"
        }
    }
}
