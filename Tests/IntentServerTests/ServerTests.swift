import Foundation
import IntentServer
import Testing

/// Who gets in: every /v1 request carries a bearer token; without one, or with a wrong one, the
/// answer is 401 and says nothing else. Health, metrics and the API's document are open.
@Suite("Tokens")
struct TokenTests {
    struct Case: Sendable, CustomStringConvertible {
        var method: String
        var path: String
        var authorization: String?
        var status: Int
        var description: String { "\(method) \(path) with \(authorization ?? "no token") → \(status)" }
    }

    static let cases: [Case] = [
        Case(method: "POST", path: "/v1/say", authorization: nil, status: 401),
        Case(method: "POST", path: "/v1/say", authorization: "Bearer it_wrong", status: 401),
        Case(method: "POST", path: "/v1/say", authorization: "Basic YW5uOmFubg==", status: 401),
        Case(method: "POST", path: "/v1/say", authorization: "Bearer", status: 401),
        Case(method: "GET", path: "/v1/search?q=milk", authorization: nil, status: 401),
        Case(method: "GET", path: "/v1/widgets", authorization: "Bearer it_wrong", status: 401),
        Case(method: "POST", path: "/v1/undo", authorization: nil, status: 401),
        // An unknown path reveals nothing either, before the token is checked.
        Case(method: "GET", path: "/v1/users", authorization: nil, status: 401),
        Case(method: "GET", path: "/healthz", authorization: nil, status: 200),
        Case(method: "GET", path: "/v1/openapi.json", authorization: nil, status: 200),
        Case(method: "GET", path: "/metrics", authorization: nil, status: 200),
    ]

    @Test(arguments: cases)
    func refusesWithoutAValidToken(_ c: Case) async throws {
        try await ServerHarness.with { server in
            let reply = try await server.send(
                c.method, c.path, c.method == "POST" ? #"{"text":"what's next"}"# : nil, as: nil,
                headers: c.authorization.map { [("Authorization", $0)] } ?? [])
            #expect(reply.status == c.status, "\(reply)")
            if c.status == 401 {
                #expect(reply.errorCode == "unauthorized")
                #expect(reply.headers["www-authenticate"] == "Bearer")
            }
        }
    }

    @Test func aValidTokenIsTheUsers() async throws {
        try await ServerHarness.with { server in
            let reply = try await server.say("what's next", as: "bob")
            #expect(reply.status == 200, "\(reply)")
            #expect(reply.headers["x-request-id"]?.isEmpty == false)
        }
    }

    @Test func aRemovedUserIsRefusedAtOnce() async throws {
        try await ServerHarness.with { server in
            #expect(try await server.say("what's next", as: "bob").status == 200)
            try UserDirectory(path: UserDirectory.path(forStore: server.store)).remove("bob")
            #expect(try await server.say("what's next", as: "bob").status == 401)
            #expect(try await server.say("what's next", as: "ann").status == 200)
        }
    }
}

/// Conversations across requests: the id in one answer carries the next request on.
@Suite("Conversations over HTTP")
struct ConversationTests {
    static let turns: [(say: String, status: String, dialog: String)] = [
        ("check compatibility", "needs_value", "What's your zodiac sign?"),
        ("leo", "needs_value", "What's their zodiac sign?"),
        ("virgo", "done", "Leo and Virgo: 78% compatible. Different rhythms that make surprisingly good music."),
    ]

    @Test func aFollowUpIsAnsweredByTheNextRequest() async throws {
        try await ServerHarness.with { server in
            var conversation: String?
            for turn in Self.turns {
                let reply = try await server.say(turn.say, conversation: conversation)
                #expect(reply.status == 200, "\(reply)")
                #expect(reply["status"] as? String == turn.status, "\(turn.say): \(reply)")
                #expect(reply["dialog"] as? String == turn.dialog, "\(turn.say): \(reply)")
                if let conversation { #expect(reply["conversation"] as? String == conversation) }
                conversation = reply["conversation"] as? String
            }
        }
    }

    @Test func aFollowUpIsAnsweredAfterARestart() async throws {
        let first = try await ServerHarness.start()
        let asked = try await first.say("check compatibility")
        let conversation = try #require(asked["conversation"] as? String)
        #expect(
            try await first.say("leo", conversation: conversation)["dialog"] as? String == "What's their zodiac sign?")
        await first.stop(remove: false)
        let second = try await ServerHarness.start(directory: first.directory, tokens: first.tokens)
        let reply = try await second.say("virgo", conversation: conversation)
        await second.stop(remove: true)
        #expect(reply["status"] as? String == "done", "\(reply)")
        #expect((reply["dialog"] as? String)?.hasPrefix("Leo and Virgo: 78% compatible.") == true, "\(reply)")
    }

    /// Two replies to one question sent at once: one answers "your sign", the other "their sign",
    /// never both the same question (they would, were the two requests interleaved).
    @Test(arguments: 0..<3)
    func requestsOfOneConversationAreTakenInOrder(_ round: Int) async throws {
        try await ServerHarness.with { server in
            let asked = try await server.say("check compatibility")
            let conversation = try #require(asked["conversation"] as? String)
            async let first = server.say("leo", conversation: conversation)
            async let second = server.say("virgo", conversation: conversation)
            let replies = try await [first, second]
            let statuses = replies.compactMap { $0["status"] as? String }.sorted()
            #expect(statuses == ["done", "needs_value"], "\(replies)")
            let done = replies.first { $0["status"] as? String == "done" }
            let dialog = done?["dialog"] as? String
            #expect(dialog?.contains("compatible.") == true, "\(replies)")
        }
    }

    @Test func manyConversationsAtOnceEachKeepTheirOwn() async throws {
        try await ServerHarness.with { server in
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<6 {
                    group.addTask {
                        let user = index % 2 == 0 ? "ann" : "bob"
                        let asked = try await server.say("check compatibility", as: user)
                        let id = asked["conversation"] as? String
                        _ = try await server.say("leo", conversation: id, as: user)
                        let done = try await server.say("virgo", conversation: id, as: user)
                        return (done["dialog"] as? String)?.hasPrefix("Leo and Virgo: 78% compatible.") == true
                    }
                }
                for try await ok in group { #expect(ok) }
            }
        }
    }

    @Test func aDryRunWritesNothing() async throws {
        try await ServerHarness.with { server in
            let reply = try await server.say("create a radar on dry topics", dryRun: true)
            #expect(reply["status"] as? String == "ready", "\(reply)")
            let search = try await server.send("GET", "/v1/search?q=dry")
            let hits = (search["hits"] as? [[String: Any]]) ?? []
            #expect(!hits.contains { $0["kind"] as? String == "entity" }, "\(search)")
        }
    }
}
