import Foundation
public import IntentModel
import ModelStore
import PhraseMatching
public import YAML

/// Runs a compiled shortcut: steps in order, each intent its own transaction (or the whole run one
/// with `atomic`), questions answered from inputs, an answers list or the person at the terminal.
public final class ShortcutRunner {
    public struct Options {
        public var dryRun = false
        public var atomic = false
        /// Confirmations are answered yes (`--yes`).
        public var confirmAll = false
        /// `--input name=value`, as typed.
        public var inputs: [String: String] = [:]
        /// Answers to questions, used in order (`--answers FILE`, one per line).
        public var answers: [String] = []
        /// Most steps one run may take, nested runs and loop bodies included.
        public var stepLimit = 1_000_000
        /// Most memory a run may add to the process (nil: unbounded), checked every 64 steps.
        public var memoryLimit: Int? = 1 << 30
        /// Most times one `repeat` or `repeat_each` may go round.
        public var loopLimit = 100_000

        public init() {}
    }

    /// One line of the run's log: what a step did or said.
    public struct Event {
        public let location: SourceRange
        /// `say`, `intent`, `show`, `ask`, `choose`, `output`, `stop`.
        public let step: String
        public let text: String
        public let intent: QualifiedName?
        public let status: Answer.Status?
    }

    public struct Failure: Error {
        public let message: String
        public let location: SourceRange?
        /// The `run:` steps it happened under, innermost first.
        public var calledFrom: [SourceRange] = []

        public init(message: String, location: SourceRange?) {
            self.message = message
            self.location = location
        }
    }

    public enum Ending {
        /// Ran to the end, or to an `output:`.
        case finished
        /// A `stop:` step.
        case stopped
        case failed(Failure)
    }

    public struct Result {
        public var ending: Ending
        public var output: Datum?
        public var outputText: String?
        public var outputJSON: JSONValue?
        public var log: [Event]
        public var steps: Int
    }

    let session: Session
    let shortcuts: [String: Shortcut]
    var options: Options
    /// Asks the person at the terminal; nil when there is none (or the input ended).
    let prompt: ((String, [String]) -> String?)?
    /// Called with each event as it happens (printing progress).
    let onEvent: (Event) -> Void
    private var log: [Event] = []
    private var steps = 0
    /// The process's resident memory when the run began.
    private var memoryAtStart: Int?
    private var answers: ArraySlice<String>
    var depth = 0
    /// In a dry run, the names bound to results the run does not have (see `describeInDryRun`).
    var unknown: Set<String> = []
    /// Whether the last answer was typed at the terminal (a wrong one is asked again) rather than
    /// read from the answers list (a wrong one fails the run: the list would go out of step).
    private(set) var lastAnswerWasTyped = false

    public init(
        session: Session, shortcuts: [String: Shortcut], options: Options, prompt: ((String, [String]) -> String?)?,
        onEvent: @escaping (Event) -> Void = { _ in }
    ) {
        self.session = session
        self.shortcuts = shortcuts
        self.options = options
        self.prompt = prompt
        self.onEvent = onEvent
        self.answers = options.answers[...]
    }

    enum Stop: Error {
        case output(Datum)
        case stop
    }

    var evaluator: Evaluator { session.evaluator(app: nil, store: nil, clock: session.clock.frozen()) }

    /// Runs `shortcut` to its end.
    public func run(_ shortcut: Shortcut) -> Result {
        log = []
        steps = 0
        unknown = []
        memoryAtStart = ResidentMemory.current()
        var ending = Ending.finished
        var output: Datum?
        do {
            let body = { () throws in
                do {
                    output = try self.call(shortcut, inputs: try self.typedInputs(shortcut))
                } catch Stop.stop {
                    ending = .stopped
                }
            }
            if options.atomic, !options.dryRun {
                do {
                    try session.store.atomically(body)
                } catch {
                    // Everything was rolled back: the names of entities made in the run are gone too.
                    do { try session.reloadNames() } catch let unread {
                        let failure = error as? Failure
                        let message = failure?.message ?? "\(error)"
                        throw Failure(
                            message: message + " (the names could not be read again: \(unread))",
                            location: failure?.location)
                    }
                    throw error
                }
            } else {
                try body()
            }
        } catch let failure as Failure {
            ending = .failed(failure)
        } catch {
            ending = .failed(Failure(message: "\(error)", location: nil))
        }
        var result = Result(ending: ending, output: output, log: log, steps: steps)
        if let output {
            result.outputText = evaluator.describe(output)
            result.outputJSON = evaluator.json(output)
        }
        return result
    }

    /// Runs a shortcut's steps with its inputs bound; its output (nil when none).
    func call(_ shortcut: Shortcut, inputs: [String: Datum]) throws -> Datum? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 16 else {
            throw Failure(message: "shortcuts run each other more than 16 deep", location: shortcut.location)
        }
        var scope = inputs
        do {
            try run(shortcut.steps, in: &scope)
        } catch Stop.output(let value) {
            return value
        }
        return nil
    }

    // MARK: Inputs

    private func typedInputs(_ shortcut: Shortcut) throws -> [String: Datum] {
        let values = Values(graph: session.graph, clock: session.clock.frozen())
        if let unknown = options.inputs.keys.sorted().first(where: { shortcut.input($0) == nil }) {
            let known = shortcut.inputs.map(\.name)
            throw Failure(
                message: "'\(shortcut.name)' has no input '\(unknown)'"
                    + (known.isEmpty ? " (it takes none)" : " (its inputs: \(known.joined(separator: ", ")))"),
                location: shortcut.location)
        }
        var result: [String: Datum] = [:]
        for input in shortcut.inputs {
            if let text = options.inputs[input.name] {
                guard let datum = parse(text, as: input.type) else {
                    throw Failure(message: "--input \(input.name)=\(text): not \(input.type)", location: input.location)
                }
                result[input.name] = datum
            } else if let value = input.defaultValue {
                result[input.name] = values.datum(value, as: input.type)
            } else {
                let question = input.prompt ?? "What's \(input.name)?"
                guard let text = try answer(question, choices: [], at: input.location, step: "input") else {
                    throw Failure(
                        message:
                            "input '\(input.name)' (\(input.type)) has no value: give it with --input \(input.name)=…",
                        location: input.location)
                }
                guard let datum = parse(text, as: input.type) else {
                    throw Failure(
                        message: "“\(text)” is not \(input.type) (input '\(input.name)')", location: input.location)
                }
                result[input.name] = datum
            }
        }
        return result
    }

    /// Text read as a value of `type`: ISO dates, numbers in words, enum titles and synonyms, lists.
    func parse(_ text: String, as type: ValueType) -> Datum? {
        let values = Values(graph: session.graph, clock: session.clock.frozen())
        if case .array(let element) = type, text.contains(",") {
            let items = text.split(separator: ",").map { String($0).trimmed }
            let parsed = items.compactMap { parse($0, as: element) }
            return parsed.count == items.count ? .list(parsed) : nil
        }
        if type == .date || type.element == .date,
            let date = ISODate.parse(text.trimmed, timeZone: session.clock.timeZone)
        {
            return type.element == nil ? .date(date) : .list([.date(date)])
        }
        if type == .integer, let numeral = Self.integerNumeral(text) { return numeral.map(Datum.integer) }
        guard let value = session.matcher(clock: session.clock.frozen()).parseValue(text, as: type) else { return nil }
        return try? values.coerce(values.datum(value, as: type), to: type)
    }

    /// An integer written with digits is decimal digits with an optional sign, any that fits 64 bits:
    /// `9007199254740993` is taken exactly, `0x10`, `1e3` and `1.5` are refused (`.some(nil)`). Nil
    /// when `text` is not written with digits ("twelve"): the phrase grammar reads it.
    static func integerNumeral(_ text: String) -> Int?? {
        let trimmed = text.trimmed
        let digits = trimmed.first == "-" || trimmed.first == "+" ? trimmed.dropFirst() : trimmed[...]
        guard let first = digits.first, first.isASCII, first.isNumber else { return nil }
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return .some(nil) }
        return .some(Int(trimmed.first == "+" ? String(digits) : trimmed))
    }

    /// The next answer: from the answers list, else the person at the terminal, else nil.
    /// An answer holding a control character is refused (it could be stored and printed later).
    func answer(_ question: String, choices: [String], at location: SourceRange, step: String) throws -> String? {
        lastAnswerWasTyped = false
        if let next = answers.popFirst() {
            if let problem = ControlCharacters.problem(in: next, what: "the answer to “\(question)”") {
                throw Failure(message: problem, location: location)
            }
            let numbered: [String] = choices.enumerated().map { "\($0.offset + 1). \($0.element)" }
            let asked: String = numbered.isEmpty ? question : question + " " + numbered.joined(separator: "  ")
            record(Event(location: location, step: step, text: asked + " → " + next, intent: nil, status: nil))
            return next
        }
        let typed = prompt?(question, choices)
        lastAnswerWasTyped = typed != nil
        if let typed, let problem = ControlCharacters.problem(in: typed, what: "the answer to “\(question)”") {
            throw Failure(message: problem, location: location)
        }
        return typed
    }

    func record(_ event: Event) {
        log.append(event)
        onEvent(event)
    }

    // MARK: Steps

    func run(_ steps: [Shortcut.Step], in scope: inout [String: Datum]) throws {
        for step in steps { try run(step, in: &scope) }
    }

    func evaluate(_ expression: Expression, _ scope: [String: Datum], at location: SourceRange) throws -> Datum {
        try reading(at: location, queries: expression.containsQuery) { evaluator in
            try evaluator.evaluate(expression, in: scope)
        }
    }

    func value(_ template: Template, _ scope: [String: Datum], at location: SourceRange) throws -> Datum {
        try reading(at: location, queries: template.expressions.contains(where: \.containsQuery)) { evaluator in
            try evaluator.value(of: template, in: scope)
        }
    }

    func text(_ template: Template, _ scope: [String: Datum], at location: SourceRange) throws -> String {
        try reading(at: location, queries: template.expressions.contains(where: \.containsQuery)) { evaluator in
            try evaluator.render(template, in: scope)
        }
    }

    /// Evaluates, turning errors into failures at `location`; with the store readable only when the
    /// expression queries it (a read transaction per step would be most of a loop's cost).
    private func reading<T>(at location: SourceRange, queries: Bool, _ body: (Evaluator) throws -> T) throws -> T {
        do {
            guard queries else { return try body(evaluator) }
            return try session.store.read { transaction in
                try body(session.evaluator(app: nil, store: transaction, clock: session.clock.frozen()))
            }
        } catch let error as RuntimeError {
            throw Failure(message: error.description, location: location)
        } catch {
            throw Failure(message: "\(error)", location: location)
        }
    }

    private func run(_ step: Shortcut.Step, in scope: inout [String: Datum]) throws {
        steps += 1
        guard steps <= options.stepLimit else {
            throw Failure(
                message: "the run took more than \(options.stepLimit) steps; stopped (is a loop endless?)",
                location: step.location)
        }
        if steps % 64 == 0, let limit = options.memoryLimit, let start = memoryAtStart,
            let now = ResidentMemory.current(), now - start > limit
        {
            throw Failure(
                message: "the run holds more than \(limit >> 20) MB of memory; stopped", location: step.location)
        }
        let location = step.location
        if try describeInDryRun(step, in: &scope) { return }
        switch step.kind {
        case .say(let template, _, let binding):
            try runSay(template, binding: binding, at: location, in: &scope)
        case .intent(let name, let arguments, let binding):
            try runIntent(name, arguments, binding: binding, at: location, in: &scope)
        case .set(let assignments):
            try runSet(assignments, at: location, in: &scope)
        case .branch(let condition, _, let then, let otherwise):
            try runBranch(condition, then: then, otherwise: otherwise, at: location, in: &scope)
        case .repeatCount(let count, _, let binding, let body):
            try runRepeatCount(count, binding: binding, body: body, at: location, in: &scope)
        case .repeatEach(let list, _, let binding, let body):
            try runRepeatEach(list, binding: binding, body: body, at: location, in: &scope)
        case .choose(let promptTemplate, let options, _, let binding):
            try runChoose(promptTemplate, from: options, binding: binding, at: location, in: &scope)
        case .ask(let promptTemplate, let type, let binding):
            try runAsk(promptTemplate, type: type, binding: binding, at: location, in: &scope)
        case .show(let template):
            try runShow(template, at: location, in: scope)
        case .output(let template):
            try runOutput(template, at: location, in: scope)
        case .activity(let activityStep):
            try runActivity(activityStep, at: location, in: scope)
        case .stop(let message):
            try runStop(message, at: location, in: scope)
        case .run(let file, let arguments, let binding):
            try runShortcut(file, arguments, binding: binding, at: location, in: &scope)
        }
    }

    /// Binds an intent's result; in a dry run (nothing executed, no result) the name is unknown.
    func bind(_ binding: String?, _ answer: Answer, in scope: inout [String: Datum]) {
        guard let binding else { return }
        if options.dryRun, answer.status == .ready {
            unknown.insert(binding)
            scope[binding] = .null
        } else {
            unknown.remove(binding)
            scope[binding] = answer.value ?? .string(answer.dialog)
        }
    }

    /// Carries a conversation through its questions with answers; fails the step if it cannot.
    func converse(
        _ conversation: Conversation, _ first: Answer, step: String, at location: SourceRange, what: String
    ) throws -> Answer {
        var answer = first
        while answer.isQuestion {
            guard let reply = try self.answer(answer.dialog, choices: answer.choices, at: location, step: step) else {
                conversation.cancel()
                throw Failure(
                    message:
                        "\(what) needs an answer: “\(answer.dialog)”; give it with --answers FILE (one answer per line)",
                    location: location)
            }
            answer = conversation.respond(to: reply)
        }
        switch answer.status {
        case .done, .ready:
            record(
                Event(location: location, step: step, text: answer.text, intent: answer.intent, status: answer.status))
            return answer
        case .noMatch:
            throw Failure(message: "no intent matches \(what)", location: location)
        case .cancelled:
            // The person said no: the run ends here, cleanly, saying so (not a failure).
            record(
                Event(location: location, step: step, text: answer.text, intent: answer.intent, status: answer.status))
            throw Stop.stop
        default:
            throw Failure(message: answer.failure?.message ?? answer.dialog, location: location)
        }
    }
}

extension ShortcutRunner.Result {
    /// A run as `intents run --json` prints it.
    public struct JSONObject: Sendable, Hashable, Codable {
        /// A place in a shortcut file, 1-based.
        public struct Place: Sendable, Hashable, Codable {
            public var file: String
            public var line: Int
            public var column: Int

            public init(file: String, line: Int, column: Int) {
                self.file = file
                self.line = line
                self.column = column
            }
        }

        public struct Step: Sendable, Hashable, Codable {
            /// `say`, `intent`, `show`, `ask`, `choose`, `output`, `stop`.
            public var step: String
            public var text: String
            public var line: Int
            public var column: Int
            public var intent: String?
            public var status: Answer.Status?

            public init(step: String, text: String, line: Int, column: Int, intent: String?, status: Answer.Status?) {
                self.step = step
                self.text = text
                self.line = line
                self.column = column
                self.intent = intent
                self.status = status
            }
        }

        public struct Failure: Sendable, Hashable, Codable {
            public var message: String
            public var file: String?
            public var line: Int?
            public var column: Int?
            /// The `run:` steps it happened under, innermost first.
            public var calledFrom: [Place]?

            public init(message: String, file: String?, line: Int?, column: Int?, calledFrom: [Place]?) {
                self.message = message
                self.file = file
                self.line = line
                self.column = column
                self.calledFrom = calledFrom
            }
        }

        public var shortcut: String
        /// `done`, `stopped` or `failed`.
        public var status: String
        /// The shortcut's output; null when it has none.
        public var output: JSONValue
        public var steps: [Step]
        public var error: Failure?

        public init(shortcut: String, status: String, output: JSONValue, steps: [Step], error: Failure? = nil) {
            self.shortcut = shortcut
            self.status = status
            self.output = output
            self.steps = steps
            self.error = error
        }
    }

    /// The run as `--json` prints it, for the shortcut named `shortcut`.
    public func json(shortcut: String) -> JSONObject {
        let steps = log.map { event in
            JSONObject.Step(
                step: event.step, text: event.text, line: event.location.start.line,
                column: event.location.start.column, intent: event.intent?.description, status: event.status)
        }
        var object = JSONObject(shortcut: shortcut, status: "done", output: outputJSON ?? .null, steps: steps)
        switch ending {
        case .finished: break
        case .stopped: object.status = "stopped"
        case .failed(let failure):
            object.status = "failed"
            let start = failure.location?.start
            let calledFrom = failure.calledFrom.map {
                JSONObject.Place(file: $0.start.file, line: $0.start.line, column: $0.start.column)
            }
            object.error = JSONObject.Failure(
                message: failure.message, file: start?.file, line: start?.line, column: start?.column,
                calledFrom: calledFrom.isEmpty ? nil : calledFrom)
        }
        return object
    }
}
