import Foundation
import HTTPTypes
import Hummingbird
import IntentEngine
import IntentModel
import IntentRequests
import IntentRuntime
import NIOCore
import ServiceLifecycle

/// The web console (docs/console.md): the page at `/` with its script and style (no token: the
/// page asks for one and keeps it in the tab's session storage), the store's changes as server-sent
/// events, a widget's buttons, and the tip of the moment.
extension IntentServer {
    func addConsoleRoutes(to router: Router<ServerContext>) {
        router.get("/") { request, _ in
            let language = ConsoleText.language(acceptLanguage: request.headers[.acceptLanguage])
            var response = Self.asset(ConsolePage.html(language), type: "text/html; charset=utf-8")
            response.headers[.vary] = "Accept-Language"
            return response
        }
        router.get(RouterPath(ConsolePage.scriptPath)) { _, _ in
            Self.asset(ConsoleScript.source, type: "text/javascript; charset=utf-8")
        }
        router.get(RouterPath(ConsolePage.stylePath)) { _, _ in
            Self.asset(ConsoleStyle.source, type: "text/css; charset=utf-8")
        }
        router.get("/v1/events") { request, context in try await events(request, context) }
        router.post("/v1/widgets/press") { request, context in try await press(request, context) }
        router.post("/v1/tip") { request, context in try await tip(request, context) }
    }

    /// Scripts and styles only from this server, nothing inline, no framing, no referrer.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    static func asset(_ text: String, type: String) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: type, .contentSecurityPolicy: contentSecurityPolicy, .xContentTypeOptions: "nosniff",
                .init("Referrer-Policy")!: "no-referrer", .cacheControl: "no-cache",
            ],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    // MARK: Events

    /// How often a user's surfaces are read again for the event stream, and how long the stream may
    /// stay silent before a comment keeps the connection open (and finds a client that has gone).
    static let eventPoll: Duration = .milliseconds(400)
    static let eventKeepAlive: Duration = .seconds(5)

    /// `GET /v1/events`: `event: state` with the Smart Stack, the controls and the live activities
    /// (each exactly as its own `GET` answers), at once and again whenever one of them changes, a
    /// write to the store or an activity's progress. Ends when the client goes or the server stops.
    func events(_ request: Request, _ context: ServerContext) async throws -> Response {
        _ = try EventsRequest(query: request.uri.query)
        let user = try self.user(context)
        switch streams.open(user.id) {
        case .opened: break
        case .userFull:
            throw APIError(
                429, "too_many_streams",
                "\(EventStreams.perUser) event streams are open for this user already; close one (a tab) first",
                retryAfter: 5)
        case .serverFull:
            throw APIError(
                503, "busy", "the server has as many event streams open as it takes; try again", retryAfter: 5)
        }
        let engine: IntentEngine
        let first: String
        do {
            engine = try await engines.engine(for: user)
            first = try await Blocking.run { try Self.surfaces(engine, user) }
        } catch {
            streams.close(user.id)
            throw error
        }
        let headers: HTTPFields = [
            .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store",
            .init("X-Accel-Buffering")!: "no",
        ]
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { [streams] writer in
                defer { streams.close(user.id) }
                var last = first
                try await writer.write(ByteBuffer(string: "retry: 2000\nevent: state\ndata: \(first)\n\n"))
                var silent: Duration = .zero
                while !Task.isCancelled && !Task.isShuttingDownGracefully {
                    try? await Task.sleep(for: Self.eventPoll)
                    silent += Self.eventPoll
                    // A store that cannot be read now is tried again; the client keeps what it has.
                    guard let now = try? await Blocking.run({ try Self.surfaces(engine, user) }) else { continue }
                    if now != last {
                        try await writer.write(ByteBuffer(string: "event: state\ndata: \(now)\n\n"))
                        last = now
                        silent = .zero
                    } else if silent >= Self.eventKeepAlive {
                        try await writer.write(ByteBuffer(string: ": still here\n\n"))
                        silent = .zero
                    }
                }
                try await writer.finish(nil)
            })
    }

    /// The user's Smart Stack, controls and activities, one line of JSON.
    static func surfaces(_ engine: IntentEngine, _ user: User) throws -> String {
        let stack = try engine.widgets(user: user)
        let controls = try engine.controls(user: user)
        let activities = try engine.activities(user: user)
        return JSONText.compact(
            JSONValue.object([
                "widgets": .array(stack.map(json)), "controls": .array(controls.map(json)),
                "activities": .array(activities.map(\.json)),
            ]))
    }

    // MARK: Widget buttons

    /// `POST /v1/widgets/press`: `{widget, button, instance?, conversation?, dryRun?}` presses a
    /// button of a card of the Smart Stack (the numbers `GET /v1/widgets` gives), as tapping it does.
    func press(_ request: Request, _ context: ServerContext) async throws -> Response {
        let fields = try RequestFields(bytes: try await bytes(request), allowed: PressRequest.fields)
        let press = try PressRequest(fields)
        let (name, button, instance) = (press.widget, press.button, press.instance)
        let (engine, engineRequest) = try await conversation(fields, context, language: false)
        let found = engine.graph.widgets(named: name)
        guard found.count == 1, let widget = found.first else {
            throw found.isEmpty
                ? APIError.notFound("no widget named '\(name)'")
                : APIError.badRequest("'\(name)' names \(found.count) widgets; use App.Name")
        }
        return try await conversations.run(queueKey(engineRequest), timeout: configuration.limits.requestTimeout) {
            let answer: Answer = try await Blocking.run {
                guard let answer = try engine.press(button, on: widget, instance: instance, engineRequest) else {
                    throw APIError.notFound(
                        instance.map { "\(widget.title) #\($0) has no button \(button) now" }
                            ?? "\(widget.title) has no button \(button) now")
                }
                return answer
            }
            return Self.answerResponse(answer, engineRequest)
        }
    }

    // MARK: Tips

    /// `POST /v1/tip`: `{lang?}` → `{tip: {app, intent, phrase}}`, the next tip for the start of a
    /// conversation (each shown once, then remembered in the user's store), or `{tip: null}`.
    func tip(_ request: Request, _ context: ServerContext) async throws -> Response {
        let language = try TipRequest(bytes: try await bytes(request)).language
        let user = try self.user(context)
        let engine = try await engines.engine(for: user)
        let tip = try await Blocking.run { try engine.startTip(user: user, language: language) }
        let json: JSONValue =
            tip.map {
                .object([
                    "app": .string($0.app), "intent": .string($0.intent.description), "phrase": .string($0.phrase),
                ])
            } ?? .null
        return JSONBody.response(["tip": json])
    }

    // MARK: JSON

    /// What the console draws beyond the command line's `--json` of a card: the widget's own title,
    /// its families, sentence, figures, link, buttons (numbered as `POST /v1/widgets/press` takes
    /// them), and the added instance with its settings; each item's buttons.
    static func addConsoleFields(_ snapshot: WidgetSnapshot, to object: inout [String: JSONValue]) {
        func buttons(_ list: [WidgetSnapshot.Button]) -> JSONValue {
            .array(list.map { .object(["number": .integer($0.number), "title": .string($0.title)]) })
        }
        object["name"] = .string(snapshot.widget.title)
        object["app"] = .string(snapshot.widget.app)
        object["families"] = .array(snapshot.widget.families.map { .string($0.rawValue) })
        if let text = snapshot.text { object["text"] = .string(text) }
        if !snapshot.figures.isEmpty {
            object["figures"] = .array(
                snapshot.figures.map { figure in
                    var fields: [String: JSONValue] = ["value": .string(figure.value)]
                    if let label = figure.label { fields["label"] = .string(label) }
                    return .object(fields)
                })
        }
        if let link = snapshot.link { object["link"] = .string(link) }
        if !snapshot.buttons.isEmpty { object["buttons"] = buttons(snapshot.buttons) }
        if let instance = snapshot.instance { object["instance"] = .integer(Int(instance)) }
        if let family = snapshot.family { object["family"] = .string(family.rawValue) }
        if !snapshot.settings.isEmpty {
            object["settings"] = .array(
                snapshot.settings.map { .object(["name": .string($0.name), "value": .string($0.value)]) })
        }
        if case .array(var items)? = object["items"] {
            for (index, item) in snapshot.items.enumerated() where index < items.count && !item.buttons.isEmpty {
                if case .object(var fields) = items[index] {
                    fields["buttons"] = buttons(item.buttons)
                    items[index] = .object(fields)
                }
            }
            object["items"] = .array(items)
        }
    }
}

/// How many event streams each user has open: a stream reads the store every few hundred
/// milliseconds, so a user gets a handful (tabs), not as many as they can open.
final class EventStreams: @unchecked Sendable {
    static let perUser = 8
    /// Streams of all users together.
    let maximum: Int
    private let lock = NSLock()
    private var open: [String: Int] = [:]
    private var total = 0

    init(maximum: Int) {
        self.maximum = maximum
    }

    enum Outcome { case opened, userFull, serverFull }

    /// Counts one more stream for `user`; nothing is counted when they, or the server, have the most already.
    func open(_ user: String) -> Outcome {
        lock.withLock {
            guard open[user, default: 0] < Self.perUser else { return .userFull }
            guard total < maximum else { return .serverFull }
            open[user, default: 0] += 1
            total += 1
            return .opened
        }
    }

    func close(_ user: String) {
        lock.withLock {
            guard let count = open[user] else { return }
            open[user] = count > 1 ? count - 1 : nil
            total -= 1
        }
    }

    func count(_ user: String) -> Int { lock.withLock { open[user, default: 0] } }
}
