import Foundation
import IntentModel
import IntentRendering
import IntentRuntime

extension Repl {
    /// The running live activities, compactly (`[Focus 18:42 ▓▓▓▓░░]`); empty when none runs or the
    /// store cannot be read.
    func activityIsland(_ session: Session) -> String {
        guard !session.graph.liveActivities.isEmpty,
            let running = try? LiveActivityCenter(graph: session.graph, store: session.store).running()
        else { return "" }
        return LiveActivityRenderer(ascii: ProcessInfo.processInfo.environment["TERM"] == "dumb").island(running)
    }

    /// `:widgets [FAMILY]`, `:controls`, `:control NAME [on|off|toggle|press]`.
    func surfaceCommand(_ command: String, _ argument: String, session: Session) {
        do {
            switch command {
            case ":widgets":
                var family: IntentGraph.WidgetFamily?
                if !argument.isEmpty {
                    guard let known = IntentGraph.WidgetFamily(rawValue: argument) else {
                        let all = IntentGraph.WidgetFamily.allCases.map(\.rawValue)
                        print("Usage: :widgets [FAMILY] (one of \(all.joined(separator: ", ")))")
                        return
                    }
                    family = known
                }
                let stack = try WidgetCenter(graph: session.graph, store: session.store).stack(family: family)
                let drawing = WidgetDrawing()
                print(
                    stack.isEmpty
                        ? "No widget."
                        : stack.map {
                            drawing.draw($0, family: family ?? $0.family ?? $0.widget.families[0], clock: session.clock)
                        }.joined(separator: "\n\n"))
            case ":activities":
                let current = try LiveActivityCenter(graph: session.graph, store: session.store).current()
                let clock = session.clock.frozen()
                print(
                    current.isEmpty
                        ? "No live activity."
                        : LiveActivityRenderer().lines(current, clock: clock).joined(separator: "\n"))
            case ":controls":
                let states = try ControlCenter(session: session).states()
                print(
                    states.isEmpty
                        ? "No control." : states.map { Controls.line($0, ascii: false) }.joined(separator: "\n"))
            default:
                var words = argument.split(separator: " ").map(String.init)
                let request = words.last.flatMap(ControlCenter.Request.init(rawValue:))
                if request != nil { words.removeLast() }
                let name = words.joined(separator: " ")
                guard let control = session.graph.controls(named: name).first else {
                    let titles = session.graph.controls.map(\.title).joined(separator: ", ")
                    print("Usage: :control NAME [on|off|toggle] (controls: \(titles))")
                    return
                }
                let center = ControlCenter(session: session)
                guard let request = request ?? ControlCenter.defaultRequest(for: control) else {
                    // A toggle named alone is shown, never flipped.
                    print(Controls.line(.init(control: control, isOn: try center.state(of: control)), ascii: false))
                    return
                }
                let answer = try center.perform(request, on: control, options: .init(language: lang))
                print(answer.text)
            }
        } catch let failure as ControlCenter.Failure {
            print("error: \(failure.description)")
        } catch {
            print("error: \(error)")
        }
    }
}
