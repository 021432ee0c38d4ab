import ArgumentParser
import Foundation
import IntentEngine
import IntentModel
import IntentRuntime

extension ControlCenter.Request: ExpressibleByArgument {}

struct Controls: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "controls",
        abstract: "Control Center: every control with its state.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storeOptions: StoreOptions

    @Flag(help: "Print the controls as JSON.")
    var json = false

    @Flag(help: "Draw with ASCII symbols.")
    var ascii = false

    struct Entry: Encodable {
        var app: String
        var name: String
        var title: String
        var kind: String
        var isOn: Bool?
    }

    func run() throws {
        let engine = try storeOptions.engine(global)
        let states = try WidgetCommand.failing { try engine.controls() }
        if json {
            try JSONEnvelope.write([
                "controls": states.map {
                    Entry(
                        app: $0.control.app, name: $0.control.name, title: $0.control.title,
                        kind: $0.isOn == nil ? "button" : "toggle", isOn: $0.isOn)
                }
            ])
            return
        }
        guard !states.isEmpty else {
            print("No app declares a control.")
            return
        }
        for state in states { print(Self.line(state, ascii: ascii)) }
    }

    /// `[●] Focus  on  (FocusBlox)` for a toggle, `[↻] Refresh Radars  button  (Radar)`.
    static func line(_ state: ControlCenter.State, ascii: Bool) -> String {
        let glyph = SymbolGlyph.glyph(for: state.control.image, ascii: ascii)
        let status: String
        switch state.isOn {
        case .some(true): status = ascii ? "[on ]" : "● on "
        case .some(false): status = ascii ? "[off]" : "○ off"
        case .none: status = ascii ? "[btn]" : "▷ run"
        }
        return "\(status)  \(glyph) \(state.control.title)  (\(state.control.app))"
    }
}

struct ControlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "control",
        abstract: "Turn a toggle on or off, or press a button.",
        discussion: """
            A toggle takes on, off or toggle: it runs the intent that sets that state and answers with its dialog; \
            asked for the state it already has, it runs nothing. A toggle named alone is shown, not changed. A button takes no state (or press). When the \
            intent fails, the toggle keeps its state.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The control: its name, App.Name or its title.", completion: ShellCompletion.names([.controls]))
    var name: String

    @Argument(help: "on, off, toggle (toggles; none shows the state) or press (buttons; the default for them).")
    var request: ControlCenter.Request?

    @Flag(help: "Confirm without asking, when the intent asks.")
    var yes = false

    @Flag(help: "Print the answer as JSON.")
    var json = false

    func run() throws {
        let engine = try storeOptions.engine(global)
        let session = engine.session
        let found = session.graph.controls(named: name)
        guard found.count == 1, let control = found.first else {
            let titles = session.graph.controls.map(\.title)
            let hint =
                EditDistance.closest(to: name, in: titles + session.graph.controls.map(\.name))
                .map { "; did you mean '\($0)'?" }
                ?? (titles.isEmpty ? "" : "; controls: \(titles.joined(separator: ", "))")
            Terminal.standardError(
                found.isEmpty
                    ? "error: no control named '\(name)'\(hint)\n"
                    : "error: '\(name)' names several controls: \(found.map { "\($0.app).\($0.name)" }.joined(separator: ", "))\n"
            )
            throw ExitCode(2)
        }
        guard let request = self.request ?? ControlCenter.defaultRequest(for: control) else {
            // A toggle named alone is shown, never flipped.
            let center = ControlCenter(session: session)
            let isOn = try WidgetCommand.failing { try center.state(of: control) }
            let state = ControlCenter.State(control: control, isOn: isOn)
            if json {
                try JSONEnvelope.write(
                    Controls.Entry(
                        app: control.app, name: control.name, title: control.title, kind: "toggle", isOn: isOn))
            } else {
                print(Controls.line(state, ascii: false))
            }
            return
        }
        let answer: Answer
        do {
            answer = try engine.control(control, request, EngineRequest(conversation: .make(), confirmAll: yes))
        } catch let failure as ControlCenter.Failure {
            Terminal.standardError("error: \(failure.description)\n")
            throw ExitCode(2)
        } catch {
            Terminal.standardError("error: \(error)\n")
            throw ExitCode(1)
        }
        if json { try JSONEnvelope.write(answer.json) } else { print(answer.text) }
        if answer.status == .error || answer.isQuestion { throw ExitCode(1) }
    }
}
