import Foundation
import IntentModel
public import ModelStore
import PhraseMatching

/// The dialog state machine: a phrase starts an intent; missing values, ambiguous entities,
/// invalid values and confirmations become questions; replies carry it on; then it executes.
/// Everything it says comes from the definitions (prompts, validation messages, summaries, dialogs).
public final class Conversation {
    enum Question {
        case value(parameter: String, choices: [Datum])
        case confirmation
    }

    struct Pending {
        var intent: IntentGraph.Intent
        var values: [String: Datum] = [:]
        /// Slot values not resolved yet.
        var raw: [String: Value] = [:]
        var confirmed = false
        var question: Question?
        /// The stored open question this one is (handoff), when it was saved.
        var handoffID: Int64?
        /// The language of the phrase that started it (nil: `options.language`, else English).
        var language: String?
        /// The learned stage chose the intent: it confirms when it deletes or confirms, even with `--yes`.
        var learned = false
        /// A follow-up carried these parameters over from the last request (and replaced `replaced`).
        var carried: FollowUp?
        /// Parameters the sentence began to say but did not (`Candidate.begun`): asked for, not defaulted.
        var begun: Set<String> = []
    }

    public let session: Session
    public var options: Options
    /// The open question's request. Changing it writes nothing: a saved question this conversation
    /// no longer holds is closed by `settled` when the call that changed it returns.
    var pending: Pending?
    var pendingIntentChoice: [Candidate]?
    /// The phrase whose readings `pendingIntentChoice` holds, and its language (kept in `state`).
    var choiceReading: ConversationState.Reading?
    /// The learned stage's "Did you mean …?", waiting for yes or no.
    var pendingGuess: LearnedGuess?
    /// The phrase `pendingGuess` was guessed from (kept in `state`).
    var guessReading: ConversationState.Reading?
    /// The last request that ran (or was ready in a dry run): what a follow-up reruns.
    var last: ConversationState.LastRequest?
    /// The questions were asked in a dry run: replies to them stay dry runs.
    var askedInDryRun = false
    /// Keeps the conversation's state in the transaction of an intent that runs (the engine sets it,
    /// so a request that executes writes once); `keptState` is what it last kept.
    public var stateKeeper: ((StoreTransaction, ConversationState) throws -> Void)?
    public private(set) var keptState: ConversationState?
    private let words = ConversationWords.understood
    private var resolver: ParameterResolver { ParameterResolver(session: session) }

    public init(session: Session, options: Options = Options()) {
        self.session = session
        self.options = options
    }

    /// Whether the last answer asked something.
    public var isWaiting: Bool { pending != nil || pendingIntentChoice != nil || pendingGuess != nil }

    /// Cancels the open question, if any.
    @discardableResult
    public func cancel() -> Answer? {
        guard isWaiting else { return nil }
        return settled { cancelNow() }
    }

    func cancelNow() -> Answer {
        let intent = pending?.intent
        let language = pending?.language ?? options.language
        pending = nil
        pendingIntentChoice = nil
        pendingGuess = nil
        return Answer(
            status: .cancelled, app: intent?.name.app, intent: intent?.name,
            dialog: Phrasebook.of(language).cancelled)
    }

    /// Answers `text`: a reply to the open question, or a new phrase (or a follow-up of the last
    /// request that names only a new value: "and libra?").
    public func respond(to text: String) -> Answer {
        settled { respondNow(to: text) }
    }

    private func respondNow(to text: String) -> Answer {
        let clock = session.clock.frozen()
        let trimmed = text.trimmed
        if let scalar = ControlCharacters.first(in: trimmed) {
            // Refused before anything else: such text could be stored and printed to a terminal later.
            let message = "That holds a control character (\(ControlCharacters.name(scalar))); type it without."
            return Answer(status: .error, dialog: message, failure: .failed(message))
        }
        if let takenOver = takenOverElsewhere() { return takenOver }
        if isWaiting, words.cancel.contains(Normalizer.foldedWords(trimmed)) { return cancelNow() }
        if let guess = pendingGuess, let answer = replyToGuess(guess, trimmed, clock: clock) { return answer }
        if let candidates = pendingIntentChoice {
            pendingIntentChoice = nil
            choiceReading = nil
            if let choice = Self.choice(trimmed, count: candidates.count) {
                return start(candidates[choice], clock: clock)
            }
        }
        if pending != nil { return reply(trimmed, clock: clock) }
        guard !trimmed.isEmpty else {
            let examples = session.index.completions.prefix(2).map { "“\($0)”" }.joined(separator: " or ")
            return Answer(status: .noMatch, dialog: "Say what you would like to do, for example \(examples).")
        }
        guard trimmed.utf8.count <= 2_000 else {
            let size = trimmed.utf8.count
            return Answer(
                status: .noMatch, dialog: "That is too long for one request (\(size) bytes); say one thing at a time.")
        }
        let recognition = session.matcher(clock: clock).recognize(trimmed, language: options.language)
        switch recognition.outcome {
        case .match(let matched):
            // "open the radar app" read by "open [the] {radar} radar" as a radar named "app", "go to
            // radar please" as one not said: a phrase that takes a value from the words around an
            // app's name, or asks for one, is not what was asked. One with no slot is the author's.
            if !matched.slots.isEmpty || matched.score.unsaid > 0, let answer = openApp(trimmed) { return answer }
            if let answer = review(matched, trimmed, clock: clock) { return answer }
            let candidate = revised(matched, trimmed, clock: clock)
            return start(candidate, clock: clock)
        case .ambiguous(let candidates):
            if let answer = openApp(trimmed) { return answer }
            pendingIntentChoice = candidates
            choiceReading = .init(text: trimmed, language: options.language)
            let choices = candidates.map { candidate -> String in
                guard let intent = session.graph.intent(candidate.intent) else { return candidate.intent.description }
                return "\(intent.title) in \(intent.name.app)"
                    + (candidate.slots.isEmpty
                        ? "" : " (" + candidate.slots.map(\.value.description).joined(separator: ", ") + ")")
            }
            return Answer(status: .needsDisambiguation, dialog: "Which did you mean?", choices: choices)
        case .noMatch(let suggestions):
            // “help”, “what can you do”: what the apps' phrases offer, unless an app reads it itself.
            if let language = ConversationWords.helpLanguage[Normalizer.foldedWords(trimmed)] {
                let spoken = options.language ?? language
                let sentences = session.index.helpSentences(language: spoken)
                return Answer(status: .done, dialog: Phrasebook.of(spoken).youCanSay(sentences), suggestions: sentences)
            }
            // “undo that”, “mach das rückgängig”: the last change taken back, as `intents undo` does.
            if let language = ConversationWords.undoLanguage[Normalizer.foldedWords(trimmed)] {
                return undoLast(language: options.language ?? language)
            }
            // “open Sidebar”, “what can I do with Radar”: what that app understands.
            if let answer = openApp(trimmed) { return answer }
            // Only a sentence no template reads can be a follow-up: an explicit request never is.
            if let followUp = followUp(trimmed, clock: clock) { return carryOver(followUp, clock: clock) }
            // “search for milk”: a search (an app's own phrase with such words was read above; a
            // guess of the learned stage would take any "search for X" for the app's note or task).
            if let request = searchRequest(trimmed), let answer = search(request) { return answer }
            if let answer = understand(trimmed, clock: clock) { return answer }
            // In the language asked for, else the one the sentence's words are in.
            let dialog = Phrasebook.of(options.language ?? recognition.language).notUnderstood(suggestions)
            return Answer(status: .noMatch, dialog: dialog, suggestions: suggestions)
        }
    }

    /// Runs `intent` with these arguments, as a shortcut's `intent:` step does: values are made to
    /// fit their parameters, entity names are looked up, and anything missing, invalid or to be
    /// confirmed is asked like after a phrase.
    public func perform(_ intent: IntentGraph.Intent, arguments: [String: Datum]) -> Answer {
        settled { performNow(intent, arguments: arguments) }
    }

    private func performNow(_ intent: IntentGraph.Intent, arguments: [String: Datum]) -> Answer {
        let clock = session.clock.frozen()
        pending = nil
        pendingIntentChoice = nil
        pendingGuess = nil
        var state = Pending(intent: intent, language: options.language)
        let values = Values(graph: session.graph, clock: clock)
        for (name, datum) in arguments {
            guard let parameter = intent.parameter(name), !datum.isNull else { continue }
            switch (parameter.type, datum) {
            case (.entity, .string(let text)):
                state.raw[name] = .string(text)
            case (.array(.entity), .list(let items)) where items.contains { $0.record == nil }:
                state.raw[name] = .array(
                    items.map {
                        .string(session.evaluator(app: nil, store: nil, clock: clock).describe($0))
                    })
            default:
                do {
                    state.values[name] = try values.coerce(datum, to: parameter.type)
                } catch {
                    return Answer(
                        status: .error, app: intent.name.app, intent: intent.name, dialog: error.description,
                        failure: .failed(error.description))
                }
            }
        }
        // Given values are checked like typed ones, all before anything is asked. `advance` checks
        // only the values it resolves itself (a value chosen from a list or a default is not
        // checked), so this loop stays its own: folding it into `advance` would change what is asked.
        let validator = ParameterValidator(evaluator: session.evaluator(app: intent.name.app, store: nil, clock: clock))
        for parameter in intent.parameters {
            if let datum = state.values[parameter.name],
                let message = validator.violation(of: datum, for: parameter, language: state.language)
            {
                state.values[parameter.name] = nil
                pending = state
                return ask(state, .value(parameter: parameter.name, choices: []), prefix: message, clock: clock)
            }
        }
        pending = state
        return advance(clock: clock)
    }

    func start(_ candidate: Candidate, clock: Clock, learned: Bool = false) -> Answer {
        guard let intent = session.graph.intent(candidate.intent) else {
            return Answer(
                status: .error, dialog: "The intent \(candidate.intent) is not loaded.",
                failure: .failed("unknown intent \(candidate.intent)"))
        }
        // Words that are a date, a number or a span but none that can be used: say so, do nothing.
        if let problem = candidate.problem {
            return Answer(
                status: .error, app: intent.name.app, intent: intent.name, dialog: problem.message,
                failure: .failed(problem.message))
        }
        // A reading that passed a word of the sentence over or read a template word it left out (the
        // matcher's last-resort passes) is a guess too: like the learned stage's, it confirms before it
        // deletes, even with `--yes`.
        let guessed = learned || candidate.score.unknown > 0 || candidate.score.missing > 0
        pending = Pending(
            intent: intent, raw: withContext(candidate.values, for: intent), language: candidate.language,
            learned: guessed, begun: Set(candidate.begun))
        return advance(clock: clock)
    }

    // MARK: Replies

    // Replies are compared as `Normalizer.foldedWords`, not `TextFolding.foldPhrase`: tokenizing is
    // the point, so that punctuation around words goes (“Yes!”, “#2.”) the way it does in phrases.

    private func reply(_ text: String, clock: Clock) -> Answer {
        guard var state = pending, let question = state.question else { return advance(clock: clock) }
        switch question {
        case .confirmation:
            let folded = Normalizer.foldedWords(text)
            if words.yes.contains(folded) {
                state.confirmed = true
                pending = state
                return advance(clock: clock)
            }
            if words.no.contains(folded) { return cancelNow() }
            // Neither yes nor no but a request read word for word: the question is dropped, nothing
            // done, and the new request answered (as at a value question), not “answer yes or no”.
            if let candidate = newRequest(text, clock: clock) {
                pending = nil
                return start(candidate, clock: clock)
            }
            return ask(
                state, .confirmation, prefix: Phrasebook.of(state.language).pleaseAnswerYesOrNo, clock: clock)
        case .value(let name, let choices):
            guard let parameter = state.intent.parameter(name) else { return advance(clock: clock) }
            if !choices.isEmpty {
                if let index = Self.choice(text, count: choices.count) {
                    state.values[name] = choices[index]
                    pending = state
                    return advance(clock: clock)
                }
                var evaluator = session.evaluator(app: state.intent.name.app, store: nil, clock: clock)
                evaluator.language = state.language
                let folded = Normalizer.foldedWords(text)
                if let match = choices.first(where: { Normalizer.foldedWords(evaluator.describe($0)) == folded }) {
                    state.values[name] = match
                    pending = state
                    return advance(clock: clock)
                }
            }
            // "no" to "Which task should I delete?" names no record: it declines, as at a confirmation.
            if (parameter.type.element ?? parameter.type).entityName != nil,
                words.no.contains(Normalizer.foldedWords(text))
            {
                return cancelNow()
            }
            guard let value = session.matcher(clock: clock).parseValue(text, as: parameter.type) else {
                // Not a value of that kind: perhaps a new request instead.
                if let candidate = newRequest(text, clock: clock) {
                    pending = nil
                    return start(candidate, clock: clock)
                }
                return ask(
                    state, question, prefix: text.isEmpty ? nil : Phrasebook.of(state.language).didNotGetThat,
                    clock: clock)
            }
            state.raw[name] = value
            pending = state
            return advance(clock: clock)
        }
    }

    /// A reply to a question that is a request of its own: a template read without a single edit.
    private func newRequest(_ text: String, clock: Clock) -> Candidate? {
        guard
            case .match(let candidate) = session.matcher(clock: clock).recognize(text, language: options.language)
                .outcome,
            candidate.score.edits == 0
        else { return nil }
        return candidate
    }

    /// `2`, `#2`, `number 2`, `two`, `the second` → index 1, in the words of any language.
    static func choice(_ text: String, count: Int) -> Int? {
        ConversationWords.understood.choice(Normalizer.foldedWords(text), count: count)
    }

    // MARK: Resolution

    /// Fills, checks and asks for parameters in order; confirms; executes.
    func advance(clock: Clock) -> Answer {
        guard var state = pending else { return Answer(status: .error, dialog: "Nothing to continue.") }
        var evaluator = session.evaluator(app: state.intent.name.app, store: nil, clock: clock)
        evaluator.language = state.language
        let validator = ParameterValidator(evaluator: evaluator)
        for parameter in state.intent.parameters where state.values[parameter.name] == nil {
            var raw = state.raw.removeValue(forKey: parameter.name)
            switch raw.flatMap({ reference($0, for: parameter, clock: clock) }) {
            case .record(let datum)?:
                if let message = validator.violation(of: datum, for: parameter, language: state.language) {
                    return ask(state, .value(parameter: parameter.name, choices: []), prefix: message, clock: clock)
                }
                state.values[parameter.name] = datum
                continue
            case .unsaid?: raw = nil
            case nil: break
            }
            if let raw {
                switch resolver.resolve(raw, for: parameter, evaluator, language: state.language) {
                case .value(let datum):
                    if let message = validator.violation(of: datum, for: parameter, language: state.language) {
                        return ask(state, .value(parameter: parameter.name, choices: []), prefix: message, clock: clock)
                    }
                    state.values[parameter.name] = datum
                case .choose(let records, let message):
                    return ask(
                        state, .value(parameter: parameter.name, choices: records.map(Datum.entity)),
                        prefix: message, clock: clock, disambiguation: true)
                case .problem(let message):
                    let choices: [Datum]
                    do {
                        if let nothing = try resolver.nothingToChoose(for: parameter, language: state.language) {
                            return stop(state, saying: message + " " + nothing)
                        }
                        choices = try resolver.suggestions(for: parameter, evaluator)
                    } catch {
                        return stop(state, saying: message + " " + Self.unreadable(error), storeFailure: true)
                    }
                    return ask(
                        state, .value(parameter: parameter.name, choices: choices), prefix: message, clock: clock)
                }
            } else if let value = parameter.defaultValue, !state.begun.contains(parameter.name) {
                state.values[parameter.name] = evaluator.values.datum(value, as: parameter.type)
            } else if parameter.isOptional {
                state.values[parameter.name] = .null
            } else {
                let choices: [Datum]
                do {
                    if let nothing = try resolver.nothingToChoose(for: parameter, language: state.language) {
                        return stop(state, saying: nothing)
                    }
                    choices = try resolver.suggestions(for: parameter, evaluator)
                } catch {
                    return stop(state, saying: Self.unreadable(error), storeFailure: true)
                }
                return ask(state, .value(parameter: parameter.name, choices: choices), prefix: nil, clock: clock)
            }
        }
        let needsConfirmation = state.intent.confirmation != nil || state.intent.deletes
        if needsConfirmation, !state.confirmed, !options.confirmAll || state.learned, !isDryRun {
            return ask(state, .confirmation, prefix: nil, clock: clock)
        }
        pending = nil
        if isDryRun {
            var answer = describe(state, status: .ready, evaluator)
            answer.dialog =
                "Ready: "
                + Summary.text(of: state.intent, parameters: state.values, evaluator, language: state.language)
                + ". (dry run: nothing was changed)"
            remember(state, clock: clock)
            return answer
        }
        let (answer, result) = execute(state, clock: clock)
        if answer.status == .done { remember(state, result: result, clock: clock) }
        return answer
    }

    /// Ends the request without a question: `message` says why it cannot go on.
    private func stop(_ state: Pending, saying message: String, storeFailure: Bool = false) -> Answer {
        pending = nil
        return Answer(
            status: .error, app: state.intent.name.app, intent: state.intent.name, dialog: message,
            failure: storeFailure ? .store(message) : .failed(message))
    }

    /// What to say when the records to choose from cannot be read: asking would not help.
    static func unreadable(_ error: any Error) -> String { "I couldn't read the store: \(error)" }

    // MARK: Questions and answers

    func ask(
        _ state: Pending, _ question: Question, prefix: String?, clock: Clock,
        disambiguation: Bool = false
    ) -> Answer {
        var state = state
        state.question = question
        pending = state
        var evaluator = session.evaluator(app: state.intent.name.app, store: nil, clock: clock)
        evaluator.language = state.language
        var answer = describe(state, status: .needsValue, evaluator)
        var lines: [String] = prefix.map { [$0] } ?? []
        switch question {
        case .confirmation:
            answer.status = .needsConfirmation
            let text: String
            if case .dialog(let template)? = state.intent.confirmation,
                let rendered = try? evaluator.render(template.localized(state.language), in: state.values)
            {
                text = rendered
            } else {
                text =
                    Summary.text(of: state.intent, parameters: state.values, evaluator, language: state.language) + "?"
            }
            lines.append(text + " " + Phrasebook.of(state.language).yesNo)
        case .value(let name, let choices):
            let parameter = state.intent.parameter(name)
            answer.asking = name
            answer.choices = choices.map(evaluator.describe)
            if disambiguation { answer.status = .needsDisambiguation }
            let title = parameter?.title.lowercased() ?? name
            let words = Phrasebook.of(state.language)
            lines.append(
                disambiguation ? words.whichOne : parameter?.prompt(in: state.language) ?? words.whatIs(title))
        }
        answer.dialog = lines.joined(separator: " ")
        if isDryRun { askedInDryRun = true }
        saveQuestion(&answer)
        return answer
    }

    /// The answer's frame: the intent and the parameters resolved so far.
    private func describe(_ state: Pending, status: Answer.Status, _ evaluator: Evaluator) -> Answer {
        var answer = Answer(status: status, app: state.intent.name.app, intent: state.intent.name, dialog: "")
        answer.carried = state.carried
        answer.parameters = state.intent.parameters.compactMap { parameter in
            state.values[parameter.name].map { (parameter.name, evaluator.json($0)) }
        }
        return answer
    }

    /// Runs the intent in one transaction: the answer, and the record it made or returned.
    private func execute(_ state: Pending, clock: Clock) -> (Answer, Datum?) {
        let intent = state.intent
        var answer = describe(
            state, status: .done, session.evaluator(app: intent.name.app, store: nil, clock: clock))
        var result: Datum?
        do {
            let (outcome, changes) = try session.store.write {
                transaction -> (Outcome, [(entity: QualifiedName, id: String, before: Record?, after: Record?)]) in
                var executor = Executor(graph: session.graph, store: transaction, clock: clock)
                executor.language = state.language
                let outcome = try executor.run(intent, parameters: state.values)
                let evaluator = session.evaluator(app: intent.name.app, store: transaction, clock: clock)
                var parameters: [String: JSONValue] = [:]
                for (name, value) in state.values { parameters[name] = evaluator.json(value) }
                let changes = transaction.changes
                try transaction.journal(
                    intent: intent.name, parameters: parameters, dialog: outcome.dialog, at: clock.now,
                    donating: Donation.donated(intent, parameters: parameters, via: options.invocation))
                answer.result = evaluator.json(outcome.result)
                answer.value = intent.resultValue == nil ? .string(outcome.dialog) : outcome.result
                // The conversation as it will be after this request, kept in the same transaction.
                if let stateKeeper {
                    var after = self.state
                    after.last = lastRequest(state, result: outcome.result, clock: clock)
                    try stateKeeper(transaction, after)
                    keptState = after
                }
                return (outcome, changes)
            }
            session.noteChanges(changes)
            answer.dialog = outcome.dialog
            answer.opens = outcome.opens
            result = outcome.result
        } catch let error as RuntimeError {
            keptState = nil  // rolled back with the intent
            answer.status = .error
            answer.dialog = error.description
            answer.failure = Answer.Failure(error)
        } catch {
            keptState = nil
            answer.status = .error
            answer.dialog = "\(error)"
            answer.failure = .store("\(error)")
        }
        return (answer, result)
    }
}
