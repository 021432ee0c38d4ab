import Foundation
import IntentModel
import ModelStore

/// Runs `start_activity:`, `update_activity:` and `end_activity:` steps in the transaction of the
/// intent or shortcut step that has them: the activity changes with the store, or not at all.
struct LiveActivityWriter {
    let graph: IntentGraph
    let store: StoreTransaction
    let evaluator: Evaluator
    let clock: Clock

    func run(_ step: IntentGraph.ActivityStep, in scope: Evaluator.Scope) throws(RuntimeError) {
        guard let activity = graph.liveActivity(step.activity) else {
            throw .failed("unknown activity \(step.activity)")
        }
        let key = try step.id.map { template throws(RuntimeError) in try evaluator.render(template, in: scope) } ?? ""
        try LiveActivityValues.checkKey(key)
        var given: [String: JSONValue] = [:]
        for argument in step.arguments {
            guard let property = activity.stateValue(argument.name) ?? activity.attribute(argument.name) else {
                continue
            }
            let datum = try evaluator.values.coerce(
                try evaluator.value(of: argument.value, in: scope), to: property.type)
            given[argument.name] = LiveActivityValues.json(datum)
        }
        let now = clock.now
        let name = activity.qualifiedName.description
        do {
            switch step.action {
            case .start:
                let attributes = try values(activity.attributes, given)
                let state = try values(activity.state, given)
                try store.startLiveActivity(name, key: key, attributes: attributes, state: state, at: now)
            case .update, .end:
                // Updating or ending one that no longer runs changes nothing, as ActivityKit does.
                guard let running = try store.runningLiveActivity(name, key: key, at: now) else { return }
                let state = running.state.merging(given) { _, new in new }
                if step.action == .update {
                    try store.updateLiveActivity(running.id, state: state, at: now)
                } else {
                    let dismissAt: Date? =
                        switch step.dismissal {
                        case .standard: nil
                        case .immediately: now
                        case .after(let seconds): now.addingTimeInterval(Double(seconds))
                        }
                    try store.endLiveActivity(running.id, state: state, at: now, dismissAt: dismissAt)
                }
            }
        } catch let error as RuntimeError {
            throw error
        } catch let error as StoreError {
            throw .store(error.description)
        } catch {
            throw .store("\(error)")
        }
    }

    /// The declared values from `given`, defaults for the rest; a required one missing is an error.
    private func values(
        _ properties: [IntentGraph.Property], _ given: [String: JSONValue]
    ) throws(RuntimeError) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for property in properties {
            if let value = given[property.name], value != .null {
                result[property.name] = value
            } else if let value = property.defaultValue {
                result[property.name] = LiveActivityValues.json(evaluator.values.datum(value, as: property.type))
            } else if !property.isOptional {
                throw .failed("the activity needs a value for '\(property.name)'")
            }
        }
        return result
    }
}

/// Activity values as the store keeps them: plain JSON, read back by their declared type.
enum LiveActivityValues {
    /// A key longer than this is refused: it names an activity, it does not hold content.
    static let longestKey = 200

    static func checkKey(_ key: String) throws(RuntimeError) {
        if key.count > longestKey { throw .failed("an activity's id is at most \(longestKey) characters") }
    }

    static func json(_ datum: Datum) -> JSONValue {
        switch datum {
        case .string(let text), .url(let text): .string(text)
        case .integer(let number), .duration(let number): .integer(number)
        case .number(let number): .number(number)
        case .boolean(let flag): .bool(flag)
        case .date(let date): .string(ISODate.format(date))
        case .enumCase(_, let id): .string(id)
        case .entity(let record): .string(record.id)
        case .null, .list: .null
        }
    }

    /// The stored value as `type`; anything that does not fit (a damaged or hand-edited store) is nil.
    static func datum(_ json: JSONValue?, as type: ValueType) -> Datum {
        switch (type, json) {
        case (.string, .string(let text)?): .string(text)
        case (.url, .string(let text)?): .url(text)
        case (.integer, .integer(let number)?): .integer(number)
        case (.duration, .integer(let number)?): .duration(number)
        case (.number, .integer(let number)?): .number(Double(number))
        case (.number, .number(let number)?): .number(number)
        case (.boolean, .bool(let flag)?): .boolean(flag)
        case (.date, .string(let text)?):
            ISODate.parse(text, timeZone: TimeZone(identifier: "UTC")!).map(Datum.date) ?? .null
        case (.enumeration(let name), .string(let id)?): .enumCase(name, id)
        default: .null
        }
    }
}
