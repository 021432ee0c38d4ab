import Foundation
import IntentRequests
import IntentServer
import Testing

/// Bad input gets a clear 4xx and changes nothing; limits are checked before work is done.
@Suite("Limits and bad input")
struct LimitsTests {
    struct Case: Sendable, CustomStringConvertible {
        var body: String
        var status: Int
        var code: String
        /// Words the message must hold.
        var says: String
        var description: String { body.count > 60 ? String(body.prefix(60)) + "…" : body }
    }

    static let cases: [Case] = [
        Case(body: "{", status: 400, code: "bad_request", says: "not valid JSON"),
        Case(body: "not json", status: 400, code: "bad_request", says: "not valid JSON"),
        Case(body: "[1,2]", status: 400, code: "bad_request", says: "must be a JSON object, not an array"),
        Case(body: "{}", status: 400, code: "bad_request", says: "'text' is required"),
        Case(body: #"{"text":5}"#, status: 400, code: "bad_request", says: "'text' must be a string, not a number"),
        Case(body: #"{"text":"   "}"#, status: 400, code: "bad_request", says: "must not be empty"),
        Case(
            body: #"{"txt":"hi"}"#, status: 400, code: "bad_request", says: "unknown field 'txt'; did you mean 'text'?"),
        Case(
            body: #"{"text":"hi","dryRun":"yes"}"#, status: 400, code: "bad_request",
            says: "'dryRun' must be true or false"),
        Case(
            body: #"{"text":"hi","context":{"area":1}}"#, status: 400, code: "bad_request",
            says: "'context.area' must be a string"),
        Case(
            body: #"{"text":"hi","conversation":"../../etc"}"#, status: 400, code: "bad_request",
            says: "'conversation' must be"),
        Case(
            body: #"{"text":"hi","lang":"e n"}"#, status: 400, code: "bad_request",
            says: "'lang' must be a language code"),
        Case(
            body: #"{"text":"\#(String(repeating: "a", count: 2_001))"}"#, status: 400, code: "phrase_too_long",
            says: "2001 bytes"),
    ]

    @Test(arguments: cases)
    func refusesBadBodies(_ c: Case) async throws {
        try await ServerHarness.with { server in
            let reply = try await server.send("POST", "/v1/say", c.body)
            #expect(reply.status == c.status, "\(reply)")
            #expect(reply.errorCode == c.code, "\(reply)")
            #expect(reply.errorMessage?.contains(c.says) == true, "\(reply)")
        }
    }

    @Test func aPhraseOfTheLimitIsRead() async throws {
        try await ServerHarness.with { server in
            let reply = try await server.say(String(repeating: "a", count: 2_000))
            #expect(reply.status == 200, "\(reply)")
        }
    }

    @Test func aBodyAnnouncedOverTheLimitIsRefusedBeforeItIsSent() async throws {
        try await ServerHarness.with { server in
            let body = Array(#"{"text":""#.utf8) + [UInt8](repeating: 0x61, count: 70_000) + Array(#""}"#.utf8)
            let reply = try await server.send("POST", "/v1/say", bytes: body)
            #expect(reply.status == 413, "\(reply)")
            #expect(reply.errorCode == "body_too_large")
        }
    }

    /// Chunked, with no length announced: refused once 64 KB have arrived, not after reading it all.
    @Test func aStreamedBodyIsRefusedAsItPassesTheLimit() async throws {
        try await ServerHarness.with { server in
            let body = Array(#"{"text":""#.utf8) + [UInt8](repeating: 0x61, count: 1_000_000) + Array(#""}"#.utf8)
            let reply = try await server.send("POST", "/v1/say", bytes: body, chunks: 100, declaredLength: -1)
            #expect(reply.status == 413, "\(reply)")
            #expect(reply.errorCode == "body_too_large")
        }
    }

    @Test func aShareOfServerFilesIsNotPossible() async throws {
        try await ServerHarness.with { server in
            let reply = try await server.send("POST", "/v1/share", #"{"items":[{"path":"/etc/passwd"}]}"#)
            #expect(reply.status == 400, "\(reply)")
            #expect(reply.errorMessage?.contains("unknown field 'path'") == true, "\(reply)")
        }
    }

    static let queries: [(method: String, path: String, status: Int)] = [
        ("GET", "/v1/search", 400),
        ("GET", "/v1/search?q=milk&limit=0", 400),
        ("GET", "/v1/search?q=milk&sort=x", 400),
        ("GET", "/v1/search?q=milk&q=tea", 400),
        ("GET", "/v1/widgets?family=huge", 400),
        ("GET", "/v1/nothing-here", 404),
        ("DELETE", "/v1/say", 404),
        ("POST", "/v1/controls/NoSuchControl", 404),
        // A toggle is never flipped unasked (issue 22 item 16): the request must say how.
        ("POST", "/v1/controls/Focus", 400),
    ]

    @Test func queryParametersAndPathsAreChecked() async throws {
        try await ServerHarness.with { server in
            for query in Self.queries {
                let reply = try await server.send(query.method, query.path, query.method == "POST" ? "{}" : nil)
                #expect(reply.status == query.status, "\(query.method) \(query.path): \(reply)")
                #expect(reply.errorMessage?.isEmpty == false, "\(reply)")
            }
        }
    }

    @Test func aUserOverTheRateIsToldWhenToComeBack() async throws {
        var limits = ServerHarness.patient
        limits.ratePerSecond = 0.01
        limits.burst = 2
        try await ServerHarness.with(limits: limits) { server in
            #expect(try await server.say("what's next").status == 200)
            #expect(try await server.say("what's next").status == 200)
            let refused = try await server.say("what's next")
            #expect(refused.status == 429, "\(refused)")
            #expect(refused.errorCode == "rate_limited")
            #expect(Int(refused.headers["retry-after"] ?? "") ?? 0 >= 1, "\(refused.headers)")
            // Another user's budget is their own.
            #expect(try await server.say("what's next", as: "bob").status == 200)
        }
    }

    /// A body that does not arrive within the request timeout: 408, and the slot is free again.
    @Test func aSlowBodyTimesOut() async throws {
        var limits = ServerHarness.patient
        limits.requestTimeout = .milliseconds(500)
        try await ServerHarness.with(limits: limits) { server in
            // Half the body, then nothing for a minute (the client stops waiting once answered).
            let reply = try await server.send(
                "POST", "/v1/say", #"{"text":"what's next"}"#, chunks: 2, pause: .seconds(60))
            #expect(reply.status == 408, "\(reply)")
            #expect(try await server.say("what's next").status == 200)
        }
    }

    /// One slot and no queue: while a slow request holds the slot, others are refused at once with
    /// 503 and Retry-After, not left waiting; whichever came first is answered.
    @Test func requestsBeyondTheSlotsAreRefused() async throws {
        var limits = ServerHarness.patient
        limits.maxConcurrentRequests = 1
        limits.maxQueuedRequests = 0
        try await ServerHarness.with(limits: limits) { server in
            _ = try await server.say("what's next", as: "ann")
            _ = try await server.say("what's next", as: "bob")
            async let slow = server.send(
                "POST", "/v1/say", #"{"text":"what's next"}"#, chunks: 5, pause: .milliseconds(400))
            var replies: [HTTPReply] = []
            for _ in 0..<1_000 where !replies.contains(where: { $0.status == 503 }) {
                replies.append(try await server.send("GET", "/v1/controls", as: "bob"))
                try await Task.sleep(for: .milliseconds(20))
            }
            replies.append(try await slow)
            let refused = try #require(replies.first { $0.status == 503 }, "nothing was refused: \(replies)")
            #expect(refused.errorCode == "busy")
            #expect(refused.headers["retry-after"] == "1")
            #expect(replies.allSatisfy { $0.status == 200 || $0.status == 503 }, "\(replies)")
            #expect(replies.contains { $0.status == 200 }, "\(replies)")
        }
    }
}

/// The API's own description and its metrics.
@Suite("OpenAPI and metrics")
struct DocumentTests {
    @Test func theDocumentListsEveryRoute() async throws {
        try await ServerHarness.with { server in
            let reply = try await server.send("GET", "/v1/openapi.json", as: nil)
            let paths = try #require((reply["paths"] as? [String: Any])?.keys)
            #expect(reply["openapi"] as? String == "3.1.0")
            for path in [
                "/v1/say", "/v1/open", "/v1/share", "/v1/search", "/v1/suggest", "/v1/widgets", "/v1/controls",
                "/v1/controls/{name}", "/v1/activities", "/v1/undo", "/v1/continuations", "/v1/continue", "/healthz",
                "/metrics",
            ] {
                #expect(paths.contains(path), "\(path) is not documented")
            }
        }
    }

    @Test func metricsCountRequestsAnswersAndErrors() async throws {
        try await ServerHarness.with { server in
            _ = try await server.say("what's next")
            _ = try await server.say("blorp flibber")
            // A question, and its reply: counted as a reply.
            let asked = try await server.say("check compatibility")
            let conversation = try #require(asked["conversation"] as? String)
            _ = try await server.say("leo", conversation: conversation)
            _ = try await server.send("POST", "/v1/say", "{", as: "ann")
            let reply = try await server.send("GET", "/metrics", as: nil)
            #expect(reply.status == 200)
            let text = reply.text
            #expect(
                text.contains(#"intents_http_requests_total{route="/v1/say",method="POST",status="200"} 4"#), "\(text)")
            #expect(text.contains(#"intents_http_errors_total{kind="client",status="400"} 1"#), "\(text)")
            #expect(text.contains(#"intents_engine_answers_total{status="no_match",stage="none"} 1"#), "\(text)")
            #expect(
                text.contains(#"intents_engine_answers_total{status="needs_value",stage="reply"} 1"#), "\(text)")
            #expect(
                text.contains(#"intents_engine_answers_total{status="needs_value",stage="matched"} 1"#), "\(text)")
            #expect(text.contains("intents_http_request_duration_seconds_bucket"), "\(text)")
        }
    }

    /// Every surface answered once, each reply checked against the document by the harness.
    @Test func everySurfaceAnswersAsDocumented() async throws {
        try await ServerHarness.with { server in
            _ = try await UsersApartTests.annsDay(server)
            let replies = [
                try await server.send("GET", "/healthz", as: nil),
                try await server.send("GET", "/v1/search?q=quantum"),
                try await server.send("GET", "/v1/suggest"),
                try await server.send("GET", "/v1/widgets"),
                try await server.send("GET", "/v1/controls"),
                try await server.send("POST", "/v1/controls/RefreshRadars", #"{"dryRun":true}"#),
                try await server.send("GET", "/v1/activities"),
                try await server.send("GET", "/v1/continuations"),
                try await server.send(
                    "POST", "/v1/share", #"{"items":[{"url":"https://example.com/rust-lang"}],"to":"Radar"}"#),
                try await server.send("POST", "/v1/open", #"{"url":"radar://refresh"}"#),
                try await server.send("POST", "/v1/undo"),
            ]
            for reply in replies { #expect(reply.status == 200, "\(reply)") }
            #expect(server.checked.value >= replies.count)
        }
    }
}
