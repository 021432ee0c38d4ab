import Foundation
import IntentModel
public import ModelStore

/// A question left open is saved in the store (with `options.handoff`), so `intents continue` in
/// another shell can carry it on (`resume`), and this shell's copy is then closed. The same encoding
/// keeps the open question in `ConversationState`. The Handoff surface lists what can be carried on.
extension Conversation {
    /// A question that waits this long is no longer offered.
    public static let questionExpiry = IntentGraph.Activity.defaultExpiry

    /// Asks a question another shell saved in the store (`intents continue`) here, and closes it
    /// there; an error when it was answered meanwhile or its intent or records are gone.
    public func resume(_ question: StoredQuestion) -> Answer {
        settled { resumeNow(question) }
    }

    private func resumeNow(_ stored: StoredQuestion) -> Answer {
        let clock = session.clock.frozen()
        let restored: Pending
        do {
            restored = try decode(stored.state)
        } catch {
            return Answer(
                status: .error, dialog: "That question cannot be carried on: \(error)", failure: Answer.Failure(error))
        }
        let taken: Bool
        do {
            taken = try session.store.write {
                try $0.closeQuestion(stored.id, reason: .continued)
            }
        } catch {
            return Answer(
                status: .error, dialog: "That question cannot be carried on: \(error)", failure: .store("\(error)"))
        }
        guard taken else {
            return Answer(
                status: .error, dialog: "That question was answered meanwhile.", failure: .failed("question closed"))
        }
        pendingIntentChoice = nil
        pending = nil
        // A question saved before the dry-run rule was never a dry run's; this one is carried on for real.
        askedInDryRun = false
        guard let question = restored.question else { return Answer(status: .error, dialog: "Nothing to continue.") }
        return ask(restored, question, prefix: nil, clock: clock)
    }

    // MARK: Hooks of the conversation

    /// Runs one public call (`respond`, `perform`, `cancel`, `carryOn`) and then its one effect on
    /// the store: a saved question this conversation held before and no longer holds is closed. A
    /// store error doing so is the answer's (a `.store` failure), never dropped.
    func settled(_ body: () -> Answer) -> Answer {
        let held = pending?.handoffID
        var answer = body()
        if !isWaiting { askedInDryRun = false }
        guard let held, pending?.handoffID != held else { return answer }
        do {
            _ = try session.store.write { try $0.closeQuestion(held, reason: .answered) }
        } catch {
            answer.failure = .store(
                answer.failure?.message ?? "the answered question could not be closed in the store: \(error)")
        }
        return answer
    }

    /// Called when a question is asked: saves it (with `options.handoff`), so `intents continue` can
    /// carry it on. A dry run's question is never saved: a dry run writes nothing, and a question
    /// `continue` found would run for real.
    func saveQuestion(_ answer: inout Answer) {
        guard options.handoff, !isDryRun, let state = pending else { return }
        let now = session.clock.now
        do {
            let id = try session.store.write { transaction in
                try transaction.saveQuestion(
                    intent: state.intent.name, question: answer.dialog, state: encode(state), at: now,
                    expires: now.addingTimeInterval(TimeInterval(Self.questionExpiry)), replacing: state.handoffID)
            }
            if pending?.handoffID != id { pending?.handoffID = id }
        } catch {
            // The question is still asked here; only another shell cannot carry it on.
            answer.failure = .store("the question could not be saved for 'intents continue': \(error)")
        }
    }

    /// When another shell carried this conversation's question on, this one is over.
    func takenOverElsewhere() -> Answer? {
        guard let state = pending, let id = state.handoffID else { return nil }
        let stored: StoredQuestion?
        do {
            stored = try session.store.read { try $0.question(id) }
        } catch {
            return Answer(
                status: .error, app: state.intent.name.app, intent: state.intent.name,
                dialog: "The store cannot be read: \(error)", failure: .store("\(error)"))
        }
        guard stored?.closed == .continued else { return nil }
        pending = nil
        pendingIntentChoice = nil
        return Answer(
            status: .cancelled, app: state.intent.name.app, intent: state.intent.name,
            dialog: "That question was carried on in another shell; nothing more to answer here.")
    }

    // MARK: The saved state

    func encode(_ state: Pending) -> JSONValue {
        var object: [String: JSONValue] = [
            "intent": .string(state.intent.name.description),
            "values": .object(state.values.mapValues(encode)),
            "raw": .object(state.raw.mapValues(encode)),
            "confirmed": .bool(state.confirmed),
            "learned": .bool(state.learned),
        ]
        if let id = state.handoffID { object["handoff"] = .integer(Int(id)) }
        if let language = state.language { object["language"] = .string(language) }
        if let carried = state.carried {
            object["carried"] = .object([
                "replaced": .string(carried.replaced), "kept": .array(carried.kept.map(JSONValue.string)),
            ])
        }
        switch state.question {
        case .confirmation?: object["question"] = .object(["kind": .string("confirmation")])
        case .value(let parameter, let choices)?:
            object["question"] = .object([
                "kind": .string("value"), "parameter": .string(parameter), "choices": .array(choices.map(encode)),
            ])
        case nil: break
        }
        return .object(object)
    }

    func decode(_ json: JSONValue) throws(RuntimeError) -> Pending {
        guard let object = json.object, let name = object["intent"]?.string,
            let intent = session.graph.intents(named: name).first
        else { throw .failed("its intent is no longer defined") }
        var state = Pending(intent: intent)
        for (key, value) in object["values"]?.object ?? [:] { state.values[key] = try decode(datum: value) }
        for (key, value) in object["raw"]?.object ?? [:] { state.raw[key] = try decode(value: value) }
        if case .bool(let flag)? = object["confirmed"] { state.confirmed = flag }
        if case .bool(let flag)? = object["learned"] { state.learned = flag }
        if case .integer(let id)? = object["handoff"] { state.handoffID = Int64(id) }
        state.language = object["language"]?.string
        if let carried = object["carried"]?.object, let replaced = carried["replaced"]?.string {
            state.carried = FollowUp(replaced: replaced, kept: (carried["kept"]?.array ?? []).compactMap(\.string))
        }
        let question = object["question"]?.object
        switch question?["kind"]?.string {
        case "confirmation": state.question = .confirmation
        case "value":
            guard let parameter = question?["parameter"]?.string, intent.parameter(parameter) != nil else {
                throw .failed("it asks for a parameter the intent no longer has")
            }
            let choices = try (question?["choices"]?.array ?? []).map { item throws(RuntimeError) in
                try decode(datum: item)
            }
            state.question = .value(parameter: parameter, choices: choices)
        default: break
        }
        return state
    }

    /// Runtime values, tagged by kind: `{"s": text}`, `{"e": "App.Enum", "id": …}`, `{"r": "App.Entity", "id": …}`, ….
    func encode(_ datum: Datum) -> JSONValue {
        switch datum {
        case .null: .null
        case .string(let text): .object(["s": .string(text)])
        case .integer(let number): .object(["i": .integer(number)])
        case .number(let number): .object(["n": .number(number)])
        case .boolean(let flag): .object(["b": .bool(flag)])
        case .date(let date): .object(["d": .string(ISODate.format(date))])
        case .duration(let seconds): .object(["t": .integer(seconds)])
        case .url(let text): .object(["u": .string(text)])
        case .enumCase(let name, let id): .object(["e": .string(name.description), "id": .string(id)])
        case .entity(let record): .object(["r": .string(record.entity.description), "id": .string(record.id)])
        case .list(let items): .object(["l": .array(items.map(encode))])
        }
    }

    func decode(datum json: JSONValue) throws(RuntimeError) -> Datum {
        guard let object = json.object, let (tag, value) = object.first(where: { $0.key != "id" }) else {
            return .null
        }
        switch (tag, value) {
        case ("s", .string(let text)): return .string(text)
        case ("i", .integer(let number)): return .integer(number)
        case ("n", .number(let number)): return .number(number)
        case ("n", .integer(let number)): return .number(Double(number))
        case ("b", .bool(let flag)): return .boolean(flag)
        case ("d", .string(let text)):
            guard let date = ISODate.parse(text, timeZone: TimeZone(identifier: "UTC")!) else { break }
            return .date(date)
        case ("t", .integer(let seconds)): return .duration(seconds)
        case ("u", .string(let text)): return .url(text)
        case ("e", .string(let name)):
            guard let id = object["id"]?.string, let enumeration = Self.qualified(name) else { break }
            return .enumCase(enumeration, id)
        case ("r", .string(let name)):
            guard let id = object["id"]?.string, let entity = Self.qualified(name) else { break }
            let found: Record?
            do {
                found = try session.store.read { try $0.record(entity, id: id) }
            } catch {
                throw .store("the store could not be read: \(error)")
            }
            guard let record = found else {
                throw .failed("the \(entity.name.lowercased()) it was about no longer exists")
            }
            return .entity(record)
        case ("l", .array(let items)):
            return .list(try items.map { item throws(RuntimeError) in try decode(datum: item) })
        default: break
        }
        throw .failed("its saved state is damaged")
    }

    /// Slot values, tagged like runtime values; dates as the moment they meant.
    private func encode(_ value: Value) -> JSONValue {
        switch value {
        case .string(let text): .object(["s": .string(text)])
        case .integer(let number): .object(["i": .integer(number)])
        case .number(let number): .object(["n": .number(number)])
        case .boolean(let flag): .object(["b": .bool(flag)])
        case .date(let date): .object(["d": .string(ISODate.format(session.clock.resolve(date)))])
        case .duration(let seconds): .object(["t": .integer(seconds)])
        case .url(let text): .object(["u": .string(text)])
        case .enumCase(let id): .object(["c": .string(id)])
        case .array(let items): .object(["l": .array(items.map(encode))])
        }
    }

    private func decode(value json: JSONValue) throws(RuntimeError) -> Value {
        guard let (tag, value) = json.object?.first else { throw .failed("its saved state is damaged") }
        switch (tag, value) {
        case ("s", .string(let text)): return .string(text)
        case ("i", .integer(let number)): return .integer(number)
        case ("n", .number(let number)): return .number(number)
        case ("b", .bool(let flag)): return .boolean(flag)
        case ("d", .string(let text)):
            guard let date = ISODate.parse(text, timeZone: TimeZone(identifier: "UTC")!) else { break }
            return .date(.moment(date))
        case ("t", .integer(let seconds)): return .duration(seconds: seconds)
        case ("u", .string(let text)): return .url(text)
        case ("c", .string(let id)): return .enumCase(id)
        case ("l", .array(let items)):
            return .array(try items.map { item throws(RuntimeError) in try decode(value: item) })
        default: break
        }
        throw .failed("its saved state is damaged")
    }

    private static func qualified(_ text: String) -> QualifiedName? {
        let parts = text.split(separator: ".", maxSplits: 1).map(String.init)
        return parts.count == 2 ? QualifiedName(app: parts[0], name: parts[1]) : nil
    }
}
