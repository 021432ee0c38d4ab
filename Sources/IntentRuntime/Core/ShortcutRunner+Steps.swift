import Foundation
import IntentModel
import ModelStore
import PhraseMatching
import YAML

/// One function per kind of step; `run(_ step:)` counts the step, checks the limits and chooses.
extension ShortcutRunner {
    /// A `say:` step: the phrase through a conversation of its own, its questions answered from the run.
    func runSay(_ template: Template, binding: String?, at location: SourceRange, in scope: inout [String: Datum])
        throws
    {
        let phrase = try text(template, scope, at: location)
        let conversation = Conversation(session: session, options: .shortcutStep(options))
        let answer = try converse(
            conversation, conversation.respond(to: phrase), step: "say", at: location, what: "“\(phrase)”")
        bind(binding, answer, in: &scope)
    }

    /// An `intent:` step: the intent run directly with the step's values.
    func runIntent(
        _ name: QualifiedName, _ arguments: [IntentGraph.Assignment], binding: String?, at location: SourceRange,
        in scope: inout [String: Datum]
    ) throws {
        guard let intent = session.graph.intent(name) else {
            throw Failure(message: "unknown intent \(name)", location: location)
        }
        var values: [String: Datum] = [:]
        for argument in arguments { values[argument.name] = try value(argument.value, scope, at: location) }
        let conversation = Conversation(session: session, options: .shortcutStep(options))
        let answer = try converse(
            conversation, conversation.perform(intent, arguments: values), step: "intent", at: location,
            what: intent.title)
        bind(binding, answer, in: &scope)
    }

    /// A `set:` step: names bound to values.
    func runSet(_ assignments: [IntentGraph.Assignment], at location: SourceRange, in scope: inout [String: Datum])
        throws
    {
        for assignment in assignments { scope[assignment.name] = try value(assignment.value, scope, at: location) }
    }

    /// An `if:` step: one of its two sides.
    func runBranch(
        _ condition: Expression, then: [Shortcut.Step], otherwise: [Shortcut.Step], at location: SourceRange,
        in scope: inout [String: Datum]
    ) throws {
        try run(try evaluate(condition, scope, at: location).truthy ? then : otherwise, in: &scope)
    }

    /// A `repeat:` step: its body a number of times, the round bound when named.
    func runRepeatCount(
        _ count: Expression, binding: String?, body: [Shortcut.Step], at location: SourceRange,
        in scope: inout [String: Datum]
    ) throws {
        let times = try evaluate(count, scope, at: location)
        guard case .integer(let n) = times else {
            throw Failure(
                message: "'repeat' needs a whole number, not \(evaluator.describe(times))", location: location)
        }
        guard n <= options.loopLimit else {
            throw Failure(
                message: "repeat \(n) is more than the limit of \(options.loopLimit) rounds", location: location)
        }
        for round in 0..<max(0, n) {
            if let binding { scope[binding] = .integer(round + 1) }
            try run(body, in: &scope)
        }
        if let binding { scope[binding] = nil }
    }

    /// A `repeat_each:` step: its body once per item, the item bound.
    func runRepeatEach(
        _ list: Expression, binding: String, body: [Shortcut.Step], at location: SourceRange,
        in scope: inout [String: Datum]
    ) throws {
        let items = try evaluate(list, scope, at: location)
        let elements = items.items ?? [items]
        guard elements.count <= options.loopLimit else {
            throw Failure(
                message:
                    "repeat_each over \(elements.count) items is more than the limit of \(options.loopLimit) rounds",
                location: location)
        }
        let outer = scope[binding]
        for element in elements {
            scope[binding] = element
            try run(body, in: &scope)
        }
        scope[binding] = outer
    }

    /// A `choose:` step: one of the options, by number or by its words, asked again when typed wrong.
    func runChoose(
        _ promptTemplate: Template, from options: Expression, binding: String, at location: SourceRange,
        in scope: inout [String: Datum]
    ) throws {
        let question = try text(promptTemplate, scope, at: location)
        let choices = try evaluate(options, scope, at: location).items ?? []
        guard !choices.isEmpty else {
            throw Failure(message: "nothing to choose from for “\(question)”", location: location)
        }
        let titles = choices.map(evaluator.describe)
        var asking = question
        while true {
            guard let reply = try answer(asking, choices: titles, at: location, step: "choose") else {
                throw Failure(
                    message: "“\(question)” needs a choice: give one with --answers FILE", location: location)
            }
            if let index = Conversation.choice(reply, count: choices.count) {
                scope[binding] = choices[index]
            } else if let index = titles.map(Normalizer.foldedWords).firstIndex(of: Normalizer.foldedWords(reply)) {
                scope[binding] = choices[index]
            } else if lastAnswerWasTyped {
                asking = "“\(reply)” is not one of the choices. \(question)"
                continue
            } else {
                throw Failure(
                    message:
                        "“\(reply)” is not one of the choices for “\(question)”: \(titles.joined(separator: ", "))",
                    location: location)
            }
            break
        }
    }

    /// An `ask:` step: an answer parsed as the step's type.
    func runAsk(
        _ promptTemplate: Template, type: ValueType, binding: String, at location: SourceRange,
        in scope: inout [String: Datum]
    ) throws {
        let question = try text(promptTemplate, scope, at: location)
        guard let reply = try answer(question, choices: [], at: location, step: "ask") else {
            throw Failure(
                message: "“\(question)” needs an answer: give one with --answers FILE", location: location)
        }
        guard let datum = parse(reply, as: type) else {
            throw Failure(message: "“\(reply)” is not \(type) (answering “\(question)”)", location: location)
        }
        scope[binding] = datum
    }

    /// A `show:` step: its text in the log.
    func runShow(_ template: Template, at location: SourceRange, in scope: [String: Datum]) throws {
        record(
            Event(
                location: location, step: "show", text: try text(template, scope, at: location), intent: nil,
                status: nil))
    }

    /// An `output:` step: the run's output; it ends the run.
    func runOutput(_ template: Template, at location: SourceRange, in scope: [String: Datum]) throws {
        let output = try value(template, scope, at: location)
        if depth == 1 {
            record(
                Event(
                    location: location, step: "output", text: evaluator.describe(output), intent: nil, status: nil))
        }
        throw Stop.output(output)
    }

    /// A live activity step (`start_activity:`, `update_activity:`, `end_activity:`), in its own write.
    func runActivity(_ activityStep: IntentGraph.ActivityStep, at location: SourceRange, in scope: [String: Datum])
        throws
    {
        if options.dryRun {
            let shown = try activityStep.arguments.map { "\($0.name): \(try text($0.value, scope, at: location))" }
            record(
                Event(
                    location: location, step: activityStep.action.verb,
                    text: "Would \(activityStep.action.rawValue) \(activityStep.activity.name)"
                        + (shown.isEmpty ? "" : " with " + shown.joined(separator: ", ")),
                    intent: nil, status: .ready))
            return
        }
        do {
            try session.store.write { transaction in
                let evaluator = Evaluator(
                    graph: session.graph, clock: session.clock.frozen(), app: activityStep.activity.app,
                    store: transaction)
                try LiveActivityWriter(
                    graph: session.graph, store: transaction, evaluator: evaluator, clock: session.clock.frozen()
                ).run(activityStep, in: scope)
            }
        } catch let error as RuntimeError {
            throw Failure(message: error.description, location: location)
        }
    }

    /// A `stop:` step: the run ends here, cleanly.
    func runStop(_ message: Template?, at location: SourceRange, in scope: [String: Datum]) throws {
        if let message {
            record(
                Event(
                    location: location, step: "stop", text: try text(message, scope, at: location), intent: nil,
                    status: nil))
        }
        throw Stop.stop
    }

    /// A `run:` step: another shortcut file with the step's inputs, its output bound.
    func runShortcut(
        _ file: String, _ arguments: [IntentGraph.Assignment], binding: String?, at location: SourceRange,
        in scope: inout [String: Datum]
    ) throws {
        guard let callee = shortcuts[file] else {
            throw Failure(message: "the shortcut \(file) is not compiled", location: location)
        }
        let values = Values(graph: session.graph, clock: session.clock.frozen())
        var inputs: [String: Datum] = [:]
        for input in callee.inputs {
            if let argument = arguments.first(where: { $0.name == input.name }) {
                do {
                    inputs[input.name] = try values.coerce(
                        try value(argument.value, scope, at: location), to: input.type)
                } catch let error as RuntimeError {
                    throw Failure(
                        message: "input '\(input.name)' of \(callee.name): \(error.description)", location: location
                    )
                }
            } else if let value = input.defaultValue {
                inputs[input.name] = values.datum(value, as: input.type)
            }
        }
        do {
            let output = try call(callee, inputs: inputs)
            if let binding { scope[binding] = output ?? .null }
        } catch var failure as Failure {
            failure.calledFrom.append(location)
            throw failure
        }
    }
}
