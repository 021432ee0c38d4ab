public import IntentModel
import ModelStore

/// Control Center: toggles that read their state from the store and change it through intents
/// (Apple's SetValueIntent), and buttons that run an intent.
public struct ControlCenter {
    /// What a person asks of a control.
    public enum Request: String, Sendable, CaseIterable {
        case on, off, toggle, press
    }

    public struct State: Sendable {
        public let control: IntentGraph.Control
        /// A toggle's state; nil for a button.
        public let isOn: Bool?

        public init(control: IntentGraph.Control, isOn: Bool?) {
            self.control = control
            self.isOn = isOn
        }
    }

    public enum Failure: Error, CustomStringConvertible {
        case notAToggle(String)
        case notAButton(String)
        case unknownIntent(QualifiedName)

        public var description: String {
            switch self {
            case .notAToggle(let title): "“\(title)” is a button: press it, it cannot be turned on or off"
            case .notAButton(let title): "“\(title)” is a toggle: say on, off or toggle"
            case .unknownIntent(let name): "unknown intent \(name)"
            }
        }
    }

    public let session: Session

    /// What naming a control alone asks: a button is pressed; a toggle is only shown (nil), since
    /// flipping it unasked could end what is running (a focus block): that is `toggle`.
    public static func defaultRequest(for control: IntentGraph.Control) -> Request? {
        if case .button = control.kind { return .press }
        return nil
    }

    public init(session: Session) {
        self.session = session
    }

    public func states() throws -> [State] {
        let controls = session.graph.controls
        let clock = session.clock.frozen()
        return try session.store.read { transaction in
            try controls.map { control in
                State(
                    control: control,
                    isOn: try Self.isOn(control, session.evaluator(app: control.app, store: transaction, clock: clock)))
            }
        }
    }

    public func state(of control: IntentGraph.Control) throws -> Bool? {
        let clock = session.clock.frozen()
        return try session.store.read { transaction in
            try Self.isOn(control, session.evaluator(app: control.app, store: transaction, clock: clock))
        }
    }

    /// Runs the intent the request calls for. A toggle asked for the state it already has runs nothing
    /// and says so; a toggle whose intent fails keeps its state (the intent's transaction is undone).
    public func perform(
        _ request: Request, on control: IntentGraph.Control, options: Conversation.Options
    ) throws -> Answer {
        let call: IntentGraph.IntentCall
        switch (control.kind, request) {
        case (.button(let action), .press):
            call = action
        case (.button, _):
            throw Failure.notAToggle(control.title)
        case (.toggle, .press):
            throw Failure.notAButton(control.title)
        case (.toggle(_, let on, let off), _):
            let current = try state(of: control) ?? false
            let wanted = request == .toggle ? !current : request == .on
            if wanted == current {
                return Answer(
                    status: .done, app: control.app, intent: nil,
                    dialog: "\(control.title) is already \(current ? "on" : "off").")
            }
            call = wanted ? on : off
        }
        guard let intent = session.graph.intent(call.intent) else { throw Failure.unknownIntent(call.intent) }
        let clock = session.clock.frozen()
        let arguments = try session.store.read { transaction in
            let evaluator = session.evaluator(app: control.app, store: transaction, clock: clock)
            var values: [String: Datum] = [:]
            for argument in call.arguments { values[argument.name] = try evaluator.value(of: argument.value, in: [:]) }
            return values
        }
        return Conversation(session: session, options: options).perform(intent, arguments: arguments)
    }

    private static func isOn(_ control: IntentGraph.Control, _ evaluator: Evaluator) throws -> Bool? {
        guard case .toggle(let state, _, _) = control.kind else { return nil }
        return try evaluator.evaluate(state, in: [:]).truthy
    }
}
