import Foundation
import HTTPTypes
import Hummingbird
import IntentEngine
import IntentModel
import IntentRequests
import IntentRuntime
import NIOCore

/// The conversational routes: say, open, share, undo, continue. Each reads its body within the
/// limits, asks the user's engine on the thread pool, and takes one conversation's requests in order.
extension IntentServer {
    func addRoutes(to router: Router<ServerContext>) {
        router.get("/healthz") { _, _ in JSONBody.response(["status": "ok"]) }
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: metrics.text())))
        }
        router.get("/v1/openapi.json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.json)))
        }
        router.post("/v1/say") { request, context in try await say(request, context) }
        router.post("/v1/open") { request, context in try await open(request, context) }
        router.post("/v1/share") { request, context in try await share(request, context) }
        router.post("/v1/undo") { request, context in try await undo(request, context) }
        router.get("/v1/continuations") { request, context in try await continuations(request, context) }
        router.post("/v1/continue") { request, context in try await carryOn(request, context) }
        router.get("/v1/search") { request, context in try await search(request, context) }
        router.get("/v1/suggest") { request, context in try await suggest(request, context) }
        router.get("/v1/widgets") { request, context in try await widgets(request, context) }
        router.get("/v1/controls") { request, context in try await controls(request, context) }
        router.post("/v1/controls/:name") { request, context in try await control(request, context) }
        router.get("/v1/activities") { request, context in try await activities(request, context) }
        addConsoleRoutes(to: router)
    }

    // MARK: Conversations

    func say(_ request: Request, _ context: ServerContext) async throws -> Response {
        let say = try SayRequest(bytes: try await bytes(request), limits: configuration.limits)
        let user = try self.user(context)
        let engineRequest = EngineRequest(
            conversation: say.conversation.map(ConversationID.init) ?? .make(), user: user, language: say.language,
            context: say.context, dryRun: say.dryRun, isNewConversation: say.conversation == nil)
        let engine = try await engines.engine(for: user, conversation: engineRequest.conversation)
        return try await answering(engineRequest, context) {
            let start = ContinuousClock.now
            // Whether it replied to an open question: from the state the engine restored (one
            // read of the conversation, not two).
            let (answer, reply) = engine.respondSayingIfReply(to: say.text, engineRequest)
            metrics.answer(
                status: answer.status.rawValue,
                stage: reply ? "reply" : answer.status == .noMatch ? "none" : "matched",
                duration: ContinuousClock.now - start)
            return answer
        }
    }

    func open(_ request: Request, _ context: ServerContext) async throws -> Response {
        let fields = try await body(request, allowed: ["url", "conversation", "dryRun"])
        guard let url = try fields.string("url", required: true) else { throw APIError.badRequest("'url' is required") }
        let (engine, engineRequest) = try await conversation(fields, context, language: false)
        return try await conversations.run(queueKey(engineRequest), timeout: configuration.limits.requestTimeout) {
            let result = try await Blocking.run { engine.open(url, engineRequest) }
            switch result {
            case .success(let answer): return Self.answerResponse(answer, engineRequest)
            case .failure(let error): throw Self.refusal(error)
            }
        }
    }

    /// A link refused: a route or record that is not there is 404 (another user's record is not
    /// there either, so nothing tells it exists); a malformed link is 400.
    static func refusal(_ error: LinkError) -> APIError {
        switch error.code {
        case .unknownScheme, .unknownRoute, .noSuchEntity: APIError(404, error.code.rawValue, error.message)
        default: APIError(400, error.code.rawValue, error.message)
        }
    }

    func share(_ request: Request, _ context: ServerContext) async throws -> Response {
        let fields = try await body(request, allowed: ["items", "to", "conversation", "dryRun"])
        let objects = try fields.objects("items", required: true) ?? []
        guard !objects.isEmpty else { throw APIError.badRequest("the field 'items' must hold at least one item") }
        var items: [ShareItem] = []
        for (index, object) in objects.enumerated() {
            let item = try RequestFields(trusted: object, allowed: ["text", "url"], at: "items[\(index)]")
            switch (try item.string("text"), try item.string("url")) {
            case (let text?, nil):
                guard text.utf8.count <= ShareItem.maximumTextBytes else {
                    throw APIError.badRequest("items[\(index)]: the text is over \(ShareItem.maximumTextBytes) bytes")
                }
                items.append(ShareItem(kind: .text, text: text))
            case (nil, let url?):
                guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
                    ["http", "https"].contains(scheme), parsed.host != nil
                else { throw APIError.badRequest("items[\(index)]: '\(url)' is not an http(s) URL") }
                items.append(ShareItem(kind: .url, text: url, url: url))
            default:
                throw APIError.badRequest("items[\(index)] must have exactly one of 'text' or 'url'")
            }
        }
        let app = try fields.string("to")
        let (engine, engineRequest) = try await conversation(fields, context, language: false)
        if let app, engine.graph.app(named: app) == nil {
            throw APIError(400, "unknown_app", "no app named '\(app)'")
        }
        let (offers, rejections) = engine.shareOffers(for: items, app: app)
        guard let offer = offers.first else {
            throw APIError(
                422, "share_refused",
                "no app accepts this share: " + rejections.map(\.reason).joined(separator: "; "))
        }
        guard offers.count == 1 else {
            throw APIError(
                409, "choose_app",
                "several apps accept this share: \(offers.map(\.app).joined(separator: ", ")); say which with 'to'")
        }
        return try await conversations.run(queueKey(engineRequest), timeout: configuration.limits.requestTimeout) {
            let shared = items
            let answers = try await Blocking.run { engine.share(shared, with: offer, engineRequest) }
            let failed = answers.contains { $0.status == .error }
            return JSONBody.response(
                ShareResponse(conversation: engineRequest.conversation.rawValue, answers: answers.map(\.json)),
                status: failed
                    ? (answers.contains(where: \.storeFailure) ? .internalServerError : .unprocessableContent) : .ok)
        }
    }

    func undo(_ request: Request, _ context: ServerContext) async throws -> Response {
        let fields = try await body(request, allowed: ["lang"])
        let language = try fields.language()
        let user = try self.user(context)
        let engine = try await engines.engine(for: user)
        let dialog = try await Blocking.run { try engine.undo(user: user, language: language) }
        return JSONBody.response(["dialog": dialog])
    }

    func continuations(_ request: Request, _ context: ServerContext) async throws -> Response {
        let user = try self.user(context)
        let engine = try await engines.engine(for: user)
        let list = try await Blocking.run { try engine.continuations(user: user) }
        return JSONBody.response(["continuations": list.enumerated().map { Self.json($0.offset + 1, $0.element) }])
    }

    /// Carries on the `number`th continuation (1: the newest) in the request's conversation.
    func carryOn(_ request: Request, _ context: ServerContext) async throws -> Response {
        let fields = try await body(request, allowed: ["number", "conversation", "dryRun"])
        let number = try fields.integer("number", in: 1...1_000) ?? 1
        let (engine, engineRequest) = try await conversation(fields, context, language: false)
        return try await conversations.run(queueKey(engineRequest), timeout: configuration.limits.requestTimeout) {
            let answer: Answer = try await Blocking.run {
                let list = try engine.continuations(user: engineRequest.user)
                guard number <= list.count else {
                    throw APIError.notFound(
                        list.isEmpty ? "nothing to continue" : "there are \(list.count) continuations, not \(number)")
                }
                return engine.carryOn(list[number - 1], engineRequest)
            }
            return Self.answerResponse(answer, engineRequest)
        }
    }

    static func json(_ number: Int, _ continuation: Continuation) -> JSONValue {
        var object: [String: JSONValue] = [
            "number": .integer(number), "at": .string(ISODate.format(continuation.at)),
            "line": .string(continuation.line),
        ]
        switch continuation {
        case .question(let question):
            object["kind"] = .string("question")
            object["intent"] = .string(question.intent)
            object["question"] = .string(question.question)
        case .activity(let activity):
            object["kind"] = .string("activity")
            object["title"] = .string(activity.title)
            if let link = activity.link { object["link"] = .string(link) }
        }
        return .object(object)
    }

    // MARK: Helpers

    /// The body as a JSON object whose keys are all `allowed`.
    func body(_ request: Request, allowed: [String]) async throws -> RequestFields {
        try RequestFields(bytes: try await bytes(request), allowed: allowed)
    }

    /// The body, read as it arrives and refused once it passes the limit (or its time is up: then
    /// the reading is abandoned at once, and the connection closed after the 408).
    func bytes(_ request: Request) async throws -> [UInt8] {
        let limit = configuration.limits.maxBodyBytes
        let race = FirstOutcome<[UInt8]>()
        let reader = Task {
            do {
                let buffer = try await request.body.collect(upTo: limit)
                race.finish(.success(Array(buffer.readableBytesView)))
            } catch is NIOTooManyBytesError {
                race.finish(.failure(APIError.tooLarge(limit)))
            } catch {
                race.finish(.failure(error))
            }
        }
        let timer = Task { [timeout = configuration.limits.requestTimeout] in
            try await Task.sleep(for: timeout)
            race.finish(.failure(APIError(408, "timeout", "the body did not arrive in time", closes: true)))
            reader.cancel()
        }
        defer { timer.cancel() }
        let bytes = try await race.value()
        RequestNote.current?.bodyRead = true
        return bytes
    }

    func user(_ context: ServerContext) throws -> User {
        guard let user = context.user else { throw APIError.unauthorized }
        return user
    }

    /// The user's engine and the request in its conversation (a new one when none is named).
    func conversation(_ fields: RequestFields, _ context: ServerContext, language: Bool) async throws
        -> (IntentEngine, EngineRequest)
    {
        let user = try self.user(context)
        let named = try fields.conversation().map(ConversationID.init)
        let lang = language ? try fields.language() : nil
        let request = EngineRequest(
            conversation: named ?? .make(), user: user, language: lang, context: try fields.strings("context") ?? [:],
            dryRun: try fields.bool("dryRun") ?? false, isNewConversation: named == nil)
        return (try await engines.engine(for: user, conversation: request.conversation), request)
    }

    func queueKey(_ request: EngineRequest) -> String {
        request.user.id + "\u{0}" + request.conversation.rawValue
    }

    /// Runs `body` on the thread pool in the conversation's turn; the answer as the response.
    func answering(
        _ request: EngineRequest, _ context: ServerContext, _ body: @escaping @Sendable () throws -> Answer
    ) async throws -> Response {
        try await conversations.run(queueKey(request), timeout: configuration.limits.requestTimeout) {
            Self.answerResponse(try await Blocking.run(body), request)
        }
    }

    /// An answer and its conversation: 200, or 422 when the intent failed (the store is as it was),
    /// or 500 when the store could not be used.
    static func answerResponse(_ answer: Answer, _ request: EngineRequest) -> Response {
        let status: HTTPResponse.Status =
            answer.status != .error ? .ok : answer.storeFailure ? .internalServerError : .unprocessableContent
        return JSONBody.response(
            AnswerResponse(conversation: request.conversation.rawValue, answer: answer.json), status: status)
    }
}

/// `say --json`'s object, with the conversation's id to send with a follow-up.
struct AnswerResponse: Encodable {
    var conversation: String
    var answer: Answer.JSONObject

    enum Key: String, CodingKey { case conversation }

    func encode(to encoder: any Encoder) throws {
        try answer.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(conversation, forKey: .conversation)
    }
}

struct ShareResponse: Encodable {
    var conversation: String
    var answers: [Answer.JSONObject]
}
