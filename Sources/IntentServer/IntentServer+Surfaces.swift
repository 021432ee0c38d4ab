import Foundation
import Hummingbird
import IntentEngine
import IntentModel
import IntentRequests
import IntentRuntime

/// The system around the intents, each read from the user's own store: search, suggestions,
/// widgets, controls, live activities.
extension IntentServer {
    func search(_ request: Request, _ context: ServerContext) async throws -> Response {
        let query = try Self.query(request, allowed: ["q", "limit"])
        guard let text = query["q"], !text.allSatisfy(\.isWhitespace) else {
            throw APIError.badRequest("the query parameter 'q' is required: GET /v1/search?q=milk")
        }
        guard text.utf8.count <= configuration.limits.maxPhraseBytes else {
            throw APIError(400, "phrase_too_long", "'q' is over \(configuration.limits.maxPhraseBytes) bytes")
        }
        let limit = try Self.number(query, "limit", in: 1...100) ?? 10
        let user = try self.user(context)
        let engine = try await engines.engine(for: user)
        let json = try await Blocking.run {
            try engine.search(text, user: user, limit: limit).json(graph: engine.graph)
        }
        return JSONBody.response(json)
    }

    func suggest(_ request: Request, _ context: ServerContext) async throws -> Response {
        let query = try Self.query(request, allowed: ["limit"])
        let limit = try Self.number(query, "limit", in: 1...50) ?? 3
        let user = try self.user(context)
        let engine = try await engines.engine(for: user)
        let list = try await Blocking.run { try engine.suggestions(user: user, limit: limit) }
        let json = list.map { suggestion -> JSONValue in
            .object([
                "intent": .string(suggestion.intent.description), "title": .string(suggestion.title),
                "text": .string(suggestion.text),
                "parameters": .object(Dictionary(suggestion.parameters, uniquingKeysWith: { first, _ in first })),
                "confidence": .number((suggestion.confidence * 1_000).rounded() / 1_000),
            ])
        }
        return JSONBody.response(["suggestions": JSONValue.array(json)])
    }

    func widgets(_ request: Request, _ context: ServerContext) async throws -> Response {
        let query = try Self.query(request, allowed: ["family"])
        var family: IntentGraph.WidgetFamily?
        if let name = query["family"] {
            guard let known = IntentGraph.WidgetFamily(rawValue: name) else {
                throw APIError.badRequest(
                    "unknown widget family '\(name)' (families: \(IntentGraph.WidgetFamily.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            family = known
        }
        let user = try self.user(context)
        let engine = try await engines.engine(for: user)
        let chosen = family
        let stack = try await Blocking.run { try engine.widgets(user: user, family: chosen) }
        return JSONBody.response(["widgets": JSONValue.array(stack.map(Self.json))])
    }

    static func json(_ snapshot: WidgetSnapshot) -> JSONValue {
        var object: [String: JSONValue] = [
            "widget": .string("\(snapshot.widget.app).\(snapshot.widget.name)"),
            "relevance": .object([
                "score": .integer(snapshot.relevance.score), "why": .string(snapshot.relevance.explanation),
            ]),
            "items": .array(
                snapshot.items.map { item in
                    var fields: [String: JSONValue] = ["id": .string(item.id), "line": .string(item.line)]
                    if let detail = item.detail { fields["detail"] = .string(detail) }
                    if let link = item.link { fields["link"] = .string(link) }
                    return .object(fields)
                }),
        ]
        for (key, value) in [
            ("title", snapshot.title), ("value", snapshot.value), ("label", snapshot.label), ("empty", snapshot.empty),
        ] {
            if let value { object[key] = .string(value) }
        }
        if let gauge = snapshot.gauge { object["gauge"] = .number((gauge * 1_000).rounded() / 1_000) }
        addConsoleFields(snapshot, to: &object)
        return .object(object)
    }

    func controls(_ request: Request, _ context: ServerContext) async throws -> Response {
        _ = try Self.query(request, allowed: [])
        let user = try self.user(context)
        let engine = try await engines.engine(for: user)
        let states = try await Blocking.run { try engine.controls(user: user) }
        return JSONBody.response(["controls": JSONValue.array(states.map(Self.json))])
    }

    static func json(_ state: ControlCenter.State) -> JSONValue {
        var object: [String: JSONValue] = [
            "control": .string("\(state.control.app).\(state.control.name)"), "title": .string(state.control.title),
            "kind": .string(state.isOn == nil ? "button" : "toggle"),
        ]
        if let isOn = state.isOn { object["isOn"] = .bool(isOn) }
        return .object(object)
    }

    /// Turns a control on or off, toggles or presses it (`action`, by default what naming it does).
    func control(_ request: Request, _ context: ServerContext) async throws -> Response {
        let name = context.parameters.get("name") ?? ""
        let fields = try await body(request, allowed: ["action", "conversation", "dryRun"])
        let (engine, engineRequest) = try await conversation(fields, context, language: false)
        let found = engine.graph.controls(named: name)
        guard found.count == 1, let control = found.first else {
            throw found.isEmpty
                ? APIError.notFound("no control named '\(name)'")
                : APIError.badRequest("'\(name)' names \(found.count) controls; use App.Name")
        }
        var action = Self.defaultAction(control)
        if let given = try fields.string("action") {
            guard let known = ControlCenter.Request(rawValue: given) else {
                throw APIError.badRequest("'action' must be one of on, off, toggle, press, not '\(given)'")
            }
            action = known
        }
        // A toggle is never flipped unasked (it could end what is running): the request says how.
        guard let chosen = action else {
            throw APIError.badRequest("'\(name)' is a toggle: give 'action' (on, off or toggle)")
        }
        return try await conversations.run(queueKey(engineRequest), timeout: configuration.limits.requestTimeout) {
            let answer: Answer = try await Blocking.run {
                do {
                    return try engine.control(control, chosen, engineRequest)
                } catch let failure as ControlCenter.Failure {
                    throw APIError.badRequest(failure.description)
                }
            }
            return Self.answerResponse(answer, engineRequest)
        }
    }

    /// What naming `control` does. Not inlined: the release compiler's ownership verifier trapped
    /// (CopyPropagation, a `switch` on the control's kind) when it was inlined into `control(_:_:)`.
    @inline(never)
    static func defaultAction(_ control: IntentGraph.Control) -> ControlCenter.Request? {
        ControlCenter.defaultRequest(for: control)
    }

    func activities(_ request: Request, _ context: ServerContext) async throws -> Response {
        _ = try Self.query(request, allowed: [])
        let user = try self.user(context)
        let engine = try await engines.engine(for: user)
        let list = try await Blocking.run { try engine.activities(user: user) }
        return JSONBody.response(["activities": JSONValue.array(list.map(\.json))])
    }

    /// The query's parameters, each known and given once (decoded as `QueryParameters` says).
    static func query(_ request: Request, allowed: Set<String>) throws -> [String: String] {
        try QueryParameters(request.uri.query, allowed: allowed).values
    }

    static func number(_ query: [String: String], _ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = query[name] else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw APIError.badRequest(
                "'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
