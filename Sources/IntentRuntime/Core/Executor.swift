import Foundation
package import IntentModel
import ModelStore

/// What running an intent's steps gave: its result value, its answer and the links it opens.
struct Outcome {
    var result: Datum
    var dialog: String
    var opens: [String]
}

/// Runs an intent's perform steps inside one store transaction (the caller's): every step lands,
/// or, when one fails, none does.
struct Executor {
    let graph: IntentGraph
    let store: StoreTransaction
    /// Frozen: one "now" for the whole execution.
    let clock: Clock
    private(set) var opens: [String] = []
    /// The language of the request: a `dialog:` given per language is said in it.
    var language: String?
    private var depth = 0
    static let maximumCallDepth = 16

    init(graph: IntentGraph, store: StoreTransaction, clock: Clock) {
        self.graph = graph
        self.store = store
        self.clock = clock
    }

    private func evaluator(for app: String) -> Evaluator {
        var evaluator = Evaluator(graph: graph, clock: clock, app: app, store: store)
        evaluator.language = language
        return evaluator
    }

    /// Runs `intent` with resolved `parameters` (every parameter present, `.null` for none).
    mutating func run(_ intent: IntentGraph.Intent, parameters: [String: Datum]) throws(RuntimeError) -> Outcome {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumCallDepth else {
            throw .failed("\(intent.title) calls intents more than \(Self.maximumCallDepth) deep")
        }
        let evaluator = evaluator(for: intent.name.app)
        var scope: Evaluator.Scope = [:]
        for (name, value) in parameters { scope[name] = try refreshed(value) }
        try run(intent.perform, in: &scope, evaluator)
        let result =
            try intent.resultValue.map { template throws(RuntimeError) in try evaluator.value(of: template, in: scope) }
            ?? .null
        if let opens = intent.opens { self.opens.append(try link(opens, in: scope, evaluator)) }
        let dialog: String
        if let template = language.flatMap({ intent.resultDialogs[$0] }) ?? intent.resultDialog {
            dialog = try evaluator.render(template, in: scope)
        } else {
            dialog = "Done: " + Summary.text(of: intent, parameters: parameters, evaluator, language: language) + "."
        }
        if depth == 1 { try recordActivity(of: intent, parameters: parameters, scope: scope, evaluator) }
        return Outcome(result: result, dialog: dialog, opens: opens)
    }

    private mutating func run(_ steps: [IntentGraph.Step], in scope: inout Evaluator.Scope, _ evaluator: Evaluator)
        throws(RuntimeError)
    {
        for step in steps {
            try run(step, in: &scope, evaluator)
        }
    }

    private mutating func run(_ step: IntentGraph.Step, in scope: inout Evaluator.Scope, _ evaluator: Evaluator)
        throws(RuntimeError)
    {
        switch step {
        case .create(let entityName, let assignments, let binding):
            try create(entityName, assignments, binding, in: &scope, evaluator)

        case .update(let target, let set, let increment, let toggle, let binding):
            try update(target, set: set, increment: increment, toggle: toggle, binding, in: &scope, evaluator)

        case .delete(let target):
            for record in try records(of: target, toBe: "delete", in: scope, evaluator).records {
                try storing { () throws in try store.delete(record) }
            }

        case .find(let query, let first, let binding):
            var query = query
            if first {
                query = IntentGraph.Query(entity: query.entity, filter: query.filter, sort: query.sort, limit: 1)
            }
            let records = try evaluator.query(query, in: scope)
            let name = binding ?? lowercasedFirst(query.entity.name) + (first ? "" : "s")
            scope[name] = first ? records.first.map(Datum.entity) ?? .null : .list(records.map(Datum.entity))

        case .bind(let assignments):
            for assignment in assignments {
                scope[assignment.name] = try evaluator.value(of: assignment.value, in: scope)
            }

        case .call(let intentName, let arguments, let binding):
            try call(intentName, arguments, binding, in: &scope, evaluator)

        case .open(let url):
            opens.append(try link(url, in: scope, evaluator))

        case .branch(let condition, let then, let otherwise):
            try run(try evaluator.evaluate(condition, in: scope).truthy ? then : otherwise, in: &scope, evaluator)

        case .fail(let message):
            throw .failed(try evaluator.render(message.localized(language), in: scope))

        case .activity(let activityStep):
            try LiveActivityWriter(graph: graph, store: store, evaluator: evaluator, clock: clock)
                .run(activityStep, in: scope)
        }
    }

    /// `create`: a record of `entityName` from the assignments, bound to its name (or `binding`).
    private mutating func create(
        _ entityName: QualifiedName, _ assignments: [IntentGraph.Assignment], _ binding: String?,
        in scope: inout Evaluator.Scope, _ evaluator: Evaluator
    ) throws(RuntimeError) {
        guard let entity = graph.entity(entityName) else { throw .failed("unknown entity \(entityName)") }
        var values: [String: Value] = [:]
        for assignment in assignments {
            guard let property = entity.property(assignment.name), !property.isBuiltin else { continue }
            let datum = try value(of: assignment, as: property.type, in: scope, evaluator)
            if let value = evaluator.values.value(datum) { values[property.name] = value }
        }
        let record = try storing { () throws -> Record in
            try store.insert(entityName, values: values, now: clock.now)
        }
        scope[binding ?? lowercasedFirst(entityName.name)] = .entity(record)
    }

    /// `update`: each target record read again, set, incremented and toggled; the new records
    /// replace the old ones under the target's name (and `binding`), so the answer shows new values.
    private mutating func update(
        _ target: Expression, set: [IntentGraph.Assignment], increment: [IntentGraph.Assignment],
        toggle: [String], _ binding: String?, in scope: inout Evaluator.Scope, _ evaluator: Evaluator
    ) throws(RuntimeError) {
        let (targetValue, records) = try records(of: target, toBe: "update", in: scope, evaluator)
        var updated: [Datum] = []
        for stale in records {
            // Read again inside the transaction: another process may have changed it since.
            let record = try current(stale)
            guard let entity = graph.entity(record.entity) else { continue }
            let recordScope = try evaluator.scope(of: record, over: scope)
            var changes: [String: Value?] = [:]
            for assignment in set {
                guard let property = entity.property(assignment.name) else { continue }
                let datum = try value(of: assignment, as: property.type, in: scope, evaluator)
                changes[property.name] = .some(evaluator.values.value(datum))
            }
            for assignment in increment {
                guard let property = entity.property(assignment.name) else { continue }
                let amount = try evaluator.value(of: assignment.value, in: scope)
                let sum = try Self.sum(recordScope[property.name] ?? .null, amount)
                changes[property.name] = .some(
                    evaluator.values.value(try evaluator.values.coerce(sum, to: property.type)))
            }
            for name in toggle {
                changes[name] = .some(.boolean(!(recordScope[name] ?? .null).truthy))
            }
            let after = try storing { () throws -> Record in try store.update(record, set: changes, now: clock.now)
            }
            updated.append(.entity(after))
        }
        let result: Datum = targetValue.items != nil ? .list(updated) : updated.first ?? .null
        // The updated records replace the old ones under their name, so the answer shows new values.
        if case .name(let name) = target.kind { scope[name] = result }
        if let binding { scope[binding] = result }
    }

    /// `call`: another intent with its parameters from the arguments or their defaults.
    private mutating func call(
        _ intentName: QualifiedName, _ arguments: [IntentGraph.Assignment], _ binding: String?,
        in scope: inout Evaluator.Scope, _ evaluator: Evaluator
    ) throws(RuntimeError) {
        guard let callee = graph.intent(intentName) else { throw .failed("unknown intent \(intentName)") }
        var parameters: [String: Datum] = [:]
        for parameter in callee.parameters {
            if let assignment = arguments.first(where: { $0.name == parameter.name }) {
                parameters[parameter.name] = try value(of: assignment, as: parameter.type, in: scope, evaluator)
            } else if let value = parameter.defaultValue {
                parameters[parameter.name] = evaluator.values.datum(value, as: parameter.type)
            } else {
                parameters[parameter.name] = .null
            }
            if parameters[parameter.name] == .null, parameter.isRequired {
                throw .failed("\(callee.title) needs \(parameter.title.lowercased())")
            }
        }
        let outcome = try run(callee, parameters: parameters)
        if let binding { scope[binding] = outcome.result }
    }

    /// An assignment's value, coerced to the type of what it sets.
    private func value(
        of assignment: IntentGraph.Assignment, as type: ValueType, in scope: Evaluator.Scope, _ evaluator: Evaluator
    ) throws(RuntimeError) -> Datum {
        try evaluator.values.coerce(try evaluator.value(of: assignment.value, in: scope), to: type)
    }

    /// The records a `delete:` or `update:` target names: one record or a list of them (an empty list
    /// is nothing to do; anything else, an error that says there is nothing to `verb`).
    private func records(
        of target: Expression, toBe verb: String, in scope: Evaluator.Scope, _ evaluator: Evaluator
    ) throws(RuntimeError) -> (value: Datum, records: [Record]) {
        let value = try evaluator.evaluate(target, in: scope)
        let records = (value.items ?? [value]).compactMap(\.record)
        guard !records.isEmpty || value.items != nil else { throw .failed("there is nothing to \(verb)") }
        return (value, records)
    }

    /// `increment:`: integers and durations add with an overflow check, a missing value counts as 0.
    private static func sum(_ current: Datum, _ amount: Datum) throws(RuntimeError) -> Datum {
        switch (current, amount) {
        case (.integer(let a), .integer(let b)):
            .integer(try Evaluator.checked(a, "+", b, a.addingReportingOverflow(b)))
        case (.null, .integer(let b)): .integer(b)
        case (.duration(let a), .duration(let b)):
            .duration(try Evaluator.checked(a, "+", b, a.addingReportingOverflow(b)))
        default: .number((current.numeric ?? 0) + (amount.numeric ?? 0))
        }
    }

    /// The record as the store holds it now; an error when it has gone.
    private func current(_ record: Record) throws(RuntimeError) -> Record {
        let fresh = try storing { () throws -> Record? in try store.record(record.entity, id: record.id) }
        guard let fresh else {
            throw .failed("“\(evaluator(for: record.entity.app).describe(.entity(record)))” is no longer in the store")
        }
        return fresh
    }

    /// Entity values as the store holds them now (resolution read them before the transaction began).
    private func refreshed(_ datum: Datum) throws(RuntimeError) -> Datum {
        switch datum {
        case .entity(let record): return .entity(try current(record))
        case .list(let items):
            var fresh: [Datum] = []
            for item in items { fresh.append(try refreshed(item)) }
            return .list(fresh)
        default: return datum
        }
    }

    private func storing<T>(_ body: () throws -> T) throws(RuntimeError) -> T {
        do { return try body() } catch let error as StoreError {
            if case .invalidData(let message) = error { throw .failed(message) }
            throw .store(error.description)
        } catch {
            throw .store(store.describing(error))
        }
    }

    private func lowercasedFirst(_ name: String) -> String {
        name.prefix(1).lowercased() + name.dropFirst()
    }
}

/// The parameter summary of an intent ("Create buy milk due tomorrow"): the first branch whose
/// condition holds, else the title.
package enum Summary {
    /// The first branch whose condition holds, in `language` when it was given in it.
    package static func text(
        of intent: IntentGraph.Intent, parameters: [String: Datum], _ evaluator: Evaluator, language: String? = nil
    ) -> String {
        for branch in intent.summary {
            if let condition = branch.condition, (try? evaluator.evaluate(condition, in: parameters).truthy) != true {
                continue
            }
            if let text = try? evaluator.render(branch.text.localized(language), in: parameters) { return text }
        }
        return intent.title
    }
}
