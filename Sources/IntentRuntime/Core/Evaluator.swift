import Foundation
package import IntentModel
package import ModelStore

/// Evaluates checked expressions and templates against names in scope, the app's constants and,
/// for queries, the store. Queries compile to SQL where they can (`QueryCompiler`).
package struct Evaluator {
    package typealias Scope = [String: Datum]

    let graph: IntentGraph
    package let values: Values
    /// The app whose constants and entities bare names refer to.
    let app: IntentGraph.App?
    /// The open transaction, for queries and entity references; nil where only text is rendered.
    let store: StoreTransaction?
    /// The language dialogs are said in: dates, durations and yes/no read in it ("morgen um 09:00").
    /// Nil (or a language without words of its own here) reads in English.
    package var language: String?

    package init(graph: IntentGraph, clock: Clock, app: String?, store: StoreTransaction?) {
        self.graph = graph
        self.values = Values(graph: graph, clock: clock)
        self.app = app.flatMap(graph.app(named:))
        self.store = store
    }

    func with(app name: String) -> Evaluator {
        var evaluator = Evaluator(graph: graph, clock: values.clock, app: name, store: store)
        evaluator.language = language
        return evaluator
    }

    // MARK: Templates

    /// The template's value: the sole `${expr}` keeps its type; anything else is text.
    func value(of template: Template, in scope: Scope) throws(RuntimeError) -> Datum {
        if let expression = template.soleExpression { return try evaluate(expression, in: scope) }
        return .string(try render(template, in: scope))
    }

    func render(_ template: Template, in scope: Scope) throws(RuntimeError) -> String {
        var text = ""
        for part in template.parts {
            switch part {
            case .text(let literal): text += literal
            case .expression(let expression, _): text += describe(try evaluate(expression, in: scope))
            }
            try Self.bounded(text)
        }
        return text
    }

    // MARK: Expressions

    func evaluate(_ expression: Expression, in scope: Scope) throws(RuntimeError) -> Datum {
        switch expression.kind {
        case .literal(let value):
            return values.plain(value)
        case .null:
            return .null
        case .name(let name):
            if let datum = scope[name] { return datum }
            if let constant = app?.constants[name] { return values.datum(constant.value, as: constant.type) }
            throw .failed("nothing is called '\(name)' here")
        case .implicitCase(let name):
            return .string(name)
        case .enumCase(let enumeration, let id):
            return .enumCase(enumeration, id)
        case .member(let base, let member):
            return try self.member(try evaluate(base, in: scope), member)
        case .unary(.not, let operand):
            return .boolean(!(try evaluate(operand, in: scope)).truthy)
        case .unary(.negate, let operand):
            switch try evaluate(operand, in: scope) {
            case .integer(let value):
                return .integer(try Self.checked(0, "-", value, 0.subtractingReportingOverflow(value)))
            case .number(let value): return .number(-value)
            case .duration(let value):
                return .duration(try Self.checked(0, "-", value, 0.subtractingReportingOverflow(value)))
            default: return .null
            }
        case .binary(let op, let left, let right):
            return try binary(op, left, right, in: scope)
        case .conditional(let condition, let then, let otherwise):
            if try evaluate(condition, in: scope).truthy { return try evaluate(then, in: scope) }
            return try evaluate(otherwise, in: scope)
        case .call(let name, let arguments):
            return try call(name, arguments, in: scope)
        case .query(let entity, let filter):
            guard let name = qualified(entity) else { throw .failed("unknown entity \(entity)") }
            return .list(
                try query(IntentGraph.Query(entity: name, filter: filter, sort: [], limit: nil), in: scope).map(
                    Datum.entity))
        case .list(let items):
            var result: [Datum] = []
            for item in items { result.append(try evaluate(item, in: scope)) }
            return .list(result)
        }
    }

    private func qualified(_ text: String) -> QualifiedName? {
        let parts = text.split(separator: ".", maxSplits: 1).map(String.init)
        if parts.count == 2 { return QualifiedName(app: parts[0], name: parts[1]) }
        return app.map { QualifiedName(app: $0.name, name: text) }
    }

    package func member(_ base: Datum, _ member: String) throws(RuntimeError) -> Datum {
        switch base {
        case .null:
            return .null
        case .entity(let record):
            guard let entity = graph.entity(record.entity) else { return .null }
            let type = entity.property(member)?.type ?? IntentGraph.BuiltinProperty(rawValue: member)?.type ?? .string
            guard let value = record[member] else { return .null }
            return try values.datum(value, as: type) { name, id throws(RuntimeError) in
                guard let store else { return .string(id) }
                do { return try store.record(name, id: id).map(Datum.entity) ?? .null } catch {
                    throw .store("\(error)")
                }
            }
        case .enumCase(let name, let id):
            if member == "id" { return .string(id) }
            return .string(graph.enumeration(name)?.case(id)?.title ?? id)
        case .list(let items):
            return .integer(items.count)
        case .url(let text):
            let components = URLComponents(string: text)
            return member == "host" ? .string(components?.host ?? text) : .string(components?.path ?? "")
        case .duration(let seconds):
            switch member {
            case "hours": return .integer(seconds / 3600)
            case "minutes": return .integer(seconds / 60)
            default: return .integer(seconds)
            }
        default:
            return .null
        }
    }

    private func binary(
        _ op: Expression.BinaryOperator, _ leftExpression: Expression, _ rightExpression: Expression, in scope: Scope
    ) throws(RuntimeError) -> Datum {
        // Short-circuits first.
        switch op {
        case .and:
            guard try evaluate(leftExpression, in: scope).truthy else { return .boolean(false) }
            return .boolean(try evaluate(rightExpression, in: scope).truthy)
        case .or:
            if try evaluate(leftExpression, in: scope).truthy { return .boolean(true) }
            return .boolean(try evaluate(rightExpression, in: scope).truthy)
        case .coalesce:
            let left = try evaluate(leftExpression, in: scope)
            return left.isNull ? try evaluate(rightExpression, in: scope) : left
        default: break
        }
        let left = try evaluate(leftExpression, in: scope)
        let right = try evaluate(rightExpression, in: scope)
        switch op {
        case .equal: return .boolean(equal(left, right))
        case .notEqual: return .boolean(!equal(left, right))
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let order = compare(left, right) else { return .boolean(false) }
            switch op {
            case .less: return .boolean(order < 0)
            case .lessOrEqual: return .boolean(order <= 0)
            case .greater: return .boolean(order > 0)
            default: return .boolean(order >= 0)
            }
        case .contains:
            if let items = right.items { return .boolean(items.contains { equal($0, left) }) }
            if case .string(let haystack) = right, case .string(let needle) = left {
                // The store's `intents_fold` is the same folding, so SQL and evaluation agree.
                let folded = TextFolding.fold(needle)
                return .boolean(folded.isEmpty || TextFolding.fold(haystack).contains(folded))
            }
            return .boolean(false)
        case .add:
            switch (left, right) {
            case (.string(let a), _): return .string(try Self.bounded(a + describe(right)))
            case (_, .string(let b)): return .string(try Self.bounded(describe(left) + b))
            case (.date(let date), .duration(let seconds)), (.duration(let seconds), .date(let date)):
                return .date(date.addingTimeInterval(TimeInterval(seconds)))
            case (.duration(let a), .duration(let b)):
                return .duration(try Self.checked(a, "+", b, a.addingReportingOverflow(b)))
            case (.list(let a), .list(let b)):
                guard a.count + b.count <= Self.maximumListItems else {
                    throw .failed(
                        "a list of \(a.count + b.count) items is too long: a value holds at most "
                            + "\(Self.maximumListItems)")
                }
                return .list(a + b)
            default: return try arithmetic(op, left, right)
            }
        case .subtract:
            switch (left, right) {
            case (.date(let date), .duration(let seconds)):
                return .date(date.addingTimeInterval(TimeInterval(-seconds)))
            case (.date(let a), .date(let b)): return .duration(try Self.seconds(a.timeIntervalSince(b)))
            case (.duration(let a), .duration(let b)):
                return .duration(try Self.checked(a, "-", b, a.subtractingReportingOverflow(b)))
            default: return try arithmetic(op, left, right)
            }
        case .multiply:
            switch (left, right) {
            case (.duration(let seconds), .integer(let factor)), (.integer(let factor), .duration(let seconds)):
                return .duration(
                    try Self.checked(seconds, "*", factor, seconds.multipliedReportingOverflow(by: factor)))
            default: return try arithmetic(op, left, right)
            }
        default:
            return try arithmetic(op, left, right)
        }
    }

    /// Largest text one value may hold (1 MB): a shortcut doubling a string 64 times grew to 23 GB.
    static let maximumTextBytes = 1 << 20
    /// Longest list one value may hold.
    static let maximumListItems = 100_000

    /// `text` when it is within `maximumTextBytes`, else an error saying so.
    @discardableResult
    static func bounded(_ text: String) throws(RuntimeError) -> String {
        guard text.utf8.count <= maximumTextBytes else {
            throw .failed(
                "a text of \(text.utf8.count) bytes is too long: a value holds at most \(maximumTextBytes >> 20) MB "
                    + "(it begins “\(text.prefix(20))…”)")
        }
        return text
    }

    /// `result` unless it overflowed: then an error naming the operation (never a wrapped value or a trap).
    /// Dividing by zero is an error naming the values, never a silent nothing (`1 / 0`).
    static func checkDivisor<N: Numeric & CustomStringConvertible>(_ a: N, _ op: String, _ b: N)
        throws(RuntimeError)
    {
        guard b == 0 else { return }
        throw .failed("\(a) \(op) \(b): division by zero (guard it: `total > 0 ? done / total : 0`)")
    }

    static func checked(_ a: Int, _ op: String, _ b: Int, _ result: (partialValue: Int, overflow: Bool))
        throws(RuntimeError) -> Int
    {
        guard !result.overflow else {
            throw .failed("\(a) \(op) \(b) is out of range: whole numbers go from \(Int.min) to \(Int.max)")
        }
        return result.partialValue
    }

    /// Whole seconds of `interval`, or an error when it is beyond what a duration holds.
    static func seconds(_ interval: Double) throws(RuntimeError) -> Int {
        let rounded = interval.rounded()
        guard rounded.isFinite, abs(rounded) < 9.2e18 else {
            throw .failed("a span of \(interval) seconds is out of range")
        }
        return Int(rounded)
    }

    private func arithmetic(_ op: Expression.BinaryOperator, _ left: Datum, _ right: Datum) throws(RuntimeError)
        -> Datum
    {
        if case .integer(let a) = left, case .integer(let b) = right {
            switch op {
            case .add: return .integer(try Self.checked(a, "+", b, a.addingReportingOverflow(b)))
            case .subtract: return .integer(try Self.checked(a, "-", b, a.subtractingReportingOverflow(b)))
            case .multiply: return .integer(try Self.checked(a, "*", b, a.multipliedReportingOverflow(by: b)))
            case .divide:
                try Self.checkDivisor(a, "/", b)
                return .integer(try Self.checked(a, "/", b, a.dividedReportingOverflow(by: b)))
            case .remainder:
                try Self.checkDivisor(a, "%", b)
                return .integer(try Self.checked(a, "%", b, a.remainderReportingOverflow(dividingBy: b)))
            default: return .null
            }
        }
        guard let a = left.numeric, let b = right.numeric else { return .null }
        switch op {
        case .add: return .number(a + b)
        case .subtract: return .number(a - b)
        case .multiply: return .number(a * b)
        case .divide:
            try Self.checkDivisor(a, "/", b)
            return .number(a / b)
        case .remainder:
            try Self.checkDivisor(a, "%", b)
            return .number(a.truncatingRemainder(dividingBy: b))
        default: return .null
        }
    }

    func equal(_ left: Datum, _ right: Datum) -> Bool {
        switch (left, right) {
        case (.entity(let a), .entity(let b)): return a.entity == b.entity && a.id == b.id
        case (.enumCase(_, let a), .string(let b)), (.string(let b), .enumCase(_, let a)): return a == b
        case (.url(let a), .string(let b)), (.string(let b), .url(let a)): return a == b
        default:
            if let a = left.numeric, let b = right.numeric { return a == b }
            return left == right
        }
    }

    func compare(_ left: Datum, _ right: Datum) -> Int? {
        switch (left, right) {
        case (.string(let a), .string(let b)): return a < b ? -1 : a == b ? 0 : 1
        case (.date(let a), .date(let b)): return a < b ? -1 : a == b ? 0 : 1
        case (.enumCase(let name, let a), .enumCase(_, let b)):
            guard let cases = graph.enumeration(name)?.cases.map(\.id), let i = cases.firstIndex(of: a),
                let j = cases.firstIndex(of: b)
            else { return nil }
            return i < j ? -1 : i == j ? 0 : 1
        default:
            guard let a = left.numeric, let b = right.numeric else { return nil }
            return a < b ? -1 : a == b ? 0 : 1
        }
    }

    private func call(_ name: String, _ arguments: [Expression], in scope: Scope) throws(RuntimeError) -> Datum {
        guard let function = BuiltinFunction(rawValue: name) else { throw .failed("unknown function '\(name)'") }
        // `count(Task where …)` and `exists(…)` ask the store for a number instead of reading every record.
        if function == .count || function == .exists, arguments.count == 1,
            case .query(let entity, let filter) = arguments[0].kind,
            let counted = try count(entity, filter, upTo: function == .exists ? 1 : nil, in: scope)
        {
            return function == .count ? .integer(counted) : .boolean(counted > 0)
        }
        var evaluated: [Datum] = []
        for argument in arguments { evaluated.append(try evaluate(argument, in: scope)) }
        func list(_ index: Int) -> [Datum] {
            evaluated.indices.contains(index) ? evaluated[index].items ?? [evaluated[index]] : []
        }
        switch function {
        case .count: return .integer(list(0).count)
        case .exists: return .boolean(!list(0).isEmpty)
        case .first: return list(0).first ?? .null
        case .now: return .date(values.clock.resolve(.now))
        case .today: return .date(values.clock.resolve(.relative(days: 0, time: nil)))
        case .pick:
            let items = list(0)
            guard !items.isEmpty else { return .null }
            return items[Int(Self.stableHash(evaluated.dropFirst().map(\.seed).sorted()) % UInt64(items.count))]
        case .percent:
            return .integer(Int(Self.stableHash(evaluated.map(\.seed).sorted()) % 101))
        case .lowercase: return .string(describe(evaluated.first ?? .null).lowercased())
        case .uppercase: return .string(describe(evaluated.first ?? .null).uppercased())
        case .capitalized:
            let text = describe(evaluated.first ?? .null)
            return .string(text.prefix(1).uppercased() + text.dropFirst())
        case .join:
            let separator = evaluated.count > 1 ? describe(evaluated[1]) : ", "
            return .string(try Self.bounded(list(0).map(describe).joined(separator: separator)))
        case .minutes, .hours, .days:
            guard let amount = evaluated.first?.numeric else { return .null }
            let unit = function == .minutes ? 60.0 : function == .hours ? 3600.0 : 86400.0
            // A span of more than 100 years is no span a shortcut means (and past Int it would trap).
            guard abs(amount * unit) <= 100 * 366 * 86400 else {
                throw .failed("\(name)(\(describe(evaluated[0]))) is out of range: a span is at most 100 years")
            }
            return .duration(Int((amount * unit).rounded()))
        }
    }

    /// FNV-1a over the seeds: the same day and arguments always pick the same reading, on any machine.
    static func stableHash(_ seeds: [String]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in seeds.joined(separator: "\u{1F}").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    // MARK: Queries

    /// Records matching `query`: the filter as SQL when it compiles, else filtered here.
    func query(_ query: IntentGraph.Query, in scope: Scope) throws(RuntimeError) -> [Record] {
        guard let store else { throw .failed("queries need the store") }
        guard let entity = graph.entity(query.entity) else { throw .failed("unknown entity \(query.entity)") }
        do {
            guard let filter = query.filter else {
                return try store.fetch(RecordQuery(entity: query.entity, sort: query.sort, limit: query.limit))
            }
            if let compiled = try QueryCompiler(evaluator: self, entity: entity, scope: scope).filter(filter) {
                return try store.fetch(
                    RecordQuery(entity: query.entity, filter: compiled, sort: query.sort, limit: query.limit))
            }
            var matching: [Record] = []
            for record in try store.fetch(RecordQuery(entity: query.entity, sort: query.sort)) {
                if let limit = query.limit, matching.count >= limit { break }
                if try evaluate(filter, in: self.scope(of: record, over: scope)).truthy { matching.append(record) }
            }
            return matching
        } catch let error as RuntimeError {
            throw error
        } catch {
            throw .store("\(error)")
        }
    }

    /// How many records match, counted by the store (at most `limit`); nil when the filter is not
    /// one the store can say, and the records must be read and filtered here.
    private func count(_ entity: String, _ filter: Expression?, upTo limit: Int?, in scope: Scope) throws(RuntimeError)
        -> Int?
    {
        guard let store, let name = qualified(entity), let declared = graph.entity(name) else { return nil }
        do {
            var compiled: RecordFilter?
            if let filter {
                guard let lowered = try QueryCompiler(evaluator: self, entity: declared, scope: scope).filter(filter)
                else { return nil }
                compiled = lowered
            }
            return try store.count(RecordQuery(entity: name, filter: compiled, limit: limit))
        } catch let error as RuntimeError {
            throw error
        } catch {
            throw .store("\(error)")
        }
    }

    /// Inside `where`, the entity's own properties come first.
    func scope(of record: Record, over scope: Scope) throws(RuntimeError) -> Scope {
        var inner = scope
        guard let entity = graph.entity(record.entity) else { return inner }
        for builtin in IntentGraph.BuiltinProperty.allCases {
            inner[builtin.rawValue] = try member(.entity(record), builtin.rawValue)
        }
        for property in entity.properties { inner[property.name] = try member(.entity(record), property.name) }
        return inner
    }

    // MARK: Text

    /// How a value reads in a dialog: enum titles, entity display titles, friendly dates.
    package func describe(_ datum: Datum) -> String {
        switch datum {
        case .null: return ""
        case .string(let text), .url(let text): return text
        case .integer(let number): return String(number)
        case .number(let number):
            return number == number.rounded() && abs(number) < 1e15
                ? String(Int(number))
                : String(format: "%.2f", number).replacingOccurrences(
                    of: #"0+$"#, with: "", options: .regularExpression)
        case .boolean(let flag): return language == "de" ? (flag ? "ja" : "nein") : (flag ? "yes" : "no")
        case .date(let date): return values.clock.describe(date, language: language)
        case .duration(let seconds): return DurationText.describe(seconds: seconds, language: language)
        case .enumCase(let name, let id): return graph.enumeration(name)?.case(id)?.title ?? id
        case .entity(let record):
            guard let entity = graph.entity(record.entity) else { return record.id }
            let evaluator = with(app: entity.name.app)
            guard let scope = try? evaluator.scope(of: record, over: [:]),
                let title = try? evaluator.render(entity.displayTitle, in: scope)
            else { return record.id }
            return title
        case .list(let items): return items.map(describe).joined(separator: ", ")
        }
    }

    /// The value in a `--json` answer: enum ids, ISO dates, entities as `{type, id, title}`.
    func json(_ datum: Datum) -> JSONValue {
        switch datum {
        case .null: .null
        case .string(let text), .url(let text): .string(text)
        case .integer(let number): .integer(number)
        case .number(let number): .number(number)
        case .boolean(let flag): .bool(flag)
        case .date(let date): .string(ISODate.format(date))
        case .duration(let seconds): .integer(seconds)
        case .enumCase(_, let id): .string(id)
        case .entity(let record):
            .object([
                "type": .string(record.entity.description), "id": .string(record.id), "title": .string(describe(datum)),
            ])
        case .list(let items): .array(items.map(json))
        }
    }
}

extension DurationText {
    /// `1 hour 30 minutes` (`1 Stunde 30 Minuten`), for dialogs.
    static func describe(seconds: Int, language: String? = nil) -> String {
        let german = language == "de"
        let units =
            german
            ? [("Stunde", "Stunden"), ("Minute", "Minuten"), ("Sekunde", "Sekunden")]
            : [("hour", "hours"), ("minute", "minutes"), ("second", "seconds")]
        let hours = seconds / 3600, minutes = seconds % 3600 / 60, rest = seconds % 60
        func part(_ count: Int, _ unit: (String, String)) -> String { "\(count) \(count == 1 ? unit.0 : unit.1)" }
        var parts: [String] = []
        if hours > 0 { parts.append(part(hours, units[0])) }
        if minutes > 0 { parts.append(part(minutes, units[1])) }
        if rest > 0 || parts.isEmpty { parts.append(part(rest, units[2])) }
        return parts.joined(separator: " ")
    }
}
