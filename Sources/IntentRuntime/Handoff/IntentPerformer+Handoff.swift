import Foundation
import IntentModel
import ModelStore

/// Handoff: a question left open is saved in the store (the conversation's own business), so
/// `intents continue` in another shell can carry it on; an intent with `activity:` leaves an
/// activity that can be continued until it expires.
extension IntentPerformer {
    /// What `intents continue` can carry on: the open questions and the activities eligible for
    /// handoff that have not expired, newest first (a question before an activity of the same moment).
    public func continuations() throws -> [Continuation] {
        let now = session.clock.now
        let (questions, activities) = try session.store.read { transaction in
            (
                try transaction.openQuestions(at: now),
                try transaction.activities(at: now, eligible: .handoff)
            )
        }
        let all = questions.map(Continuation.question) + activities.map(Continuation.activity)
        return all.enumerated().sorted { a, b in
            a.element.at != b.element.at ? a.element.at > b.element.at : a.offset < b.offset
        }.map(\.element)
    }

    /// Carries `continuation` on here: an open question is asked again (and closed where it was
    /// asked); an activity's intent runs again with its parameters.
    public func carryOn(_ continuation: Continuation) -> Answer {
        switch continuation {
        case .question(let stored): resume(stored)
        case .activity(let stored): carryOn(stored)
        }
    }

    private func carryOn(_ stored: StoredActivity) -> Answer {
        guard let intent = session.graph.intents(named: stored.intent).first else {
            return Answer(
                status: .error, dialog: "The intent \(stored.intent) is not loaded.",
                failure: .failed("unknown intent"))
        }
        var arguments: [String: Datum] = [:]
        for (name, json) in stored.parameters {
            guard let parameter = intent.parameter(name) else { continue }
            if let entity = (parameter.type.element ?? parameter.type).entityName {
                let ids = (json.array ?? [json]).compactMap { $0.object?["id"]?.string }
                let records: [Record]
                do {
                    records = try ids.compactMap { id in try session.store.read { try $0.record(entity, id: id) } }
                } catch {
                    return Answer(
                        status: .error, app: intent.name.app, intent: intent.name,
                        dialog: "“\(stored.title)” cannot be carried on: the store could not be read.",
                        failure: .store("\(error)"))
                }
                guard records.count == ids.count else {
                    return Answer(
                        status: .error, app: intent.name.app, intent: intent.name,
                        dialog:
                            "“\(stored.title)” is gone: the \(entity.name.lowercased()) it was about no longer exists.",
                        failure: .failed("record gone"))
                }
                arguments[name] = parameter.type.element == nil ? .entity(records[0]) : .list(records.map(Datum.entity))
            } else {
                arguments[name] = Datum.plain(json)
            }
        }
        return perform(intent, arguments: arguments)
    }
}

extension Datum {
    /// A stored activity's parameter as a value (objects, which were records, are handled before).
    fileprivate static func plain(_ json: JSONValue) -> Datum {
        switch json {
        case .null, .object: .null
        case .bool(let flag): .boolean(flag)
        case .integer(let number): .integer(number)
        case .number(let number): .number(number)
        case .string(let text): .string(text)
        case .array(let items): .list(items.map(plain))
        }
    }
}
