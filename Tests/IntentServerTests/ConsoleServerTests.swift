import Foundation
import IntentModel
import IntentServer
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The console's page and the routes it needs, over HTTP (the browser tests drive the page itself).
@Suite("Console over HTTP")
struct ConsoleServerTests {
    @Test func thePageNeedsNoTokenAndForbidsInlineScript() async throws {
        try await ServerHarness.with { server in
            let page = try await server.send("GET", "/", as: nil)
            #expect(page.status == 200)
            #expect(page.headers["content-type"] == "text/html; charset=utf-8")
            let policy = try #require(page.headers["content-security-policy"])
            #expect(policy.contains("script-src 'self'"))
            #expect(policy.contains("style-src 'self'"))
            #expect(!policy.contains("unsafe-inline"))
            #expect(!policy.contains("unsafe-eval"))
            #expect(page.headers["x-content-type-options"] == "nosniff")
            // The only script is the served file; no inline handlers, no inline style.
            #expect(page.text.components(separatedBy: "<script").count == 2)
            #expect(page.text.contains(#"<script src="/console.js" defer></script>"#))
            #expect(!page.text.contains(" onclick=") && !page.text.contains(" style="))
            #expect(page.text.contains(#"<html lang="en">"#))
            for (path, type) in [("/console.js", "text/javascript"), ("/console.css", "text/css")] {
                let asset = try await server.send("GET", path, as: nil)
                #expect(asset.status == 200)
                #expect(asset.headers["content-type"]?.hasPrefix(type) == true, "\(path)")
                #expect(asset.body.count > 1_000)
            }
        }
    }

    @Test(arguments: [
        ("de", "de"), ("de-DE,de;q=0.9,en;q=0.8", "de"), ("en-US,en;q=0.9,de;q=0.8", "en"), ("fr-FR,de;q=0.5", "de"),
        ("fr", "en"), ("de;q=0, en", "en"), ("", "en"),
    ])
    func thePageSpeaksTheBrowsersLanguage(_ header: String, _ language: String) async throws {
        try await ServerHarness.with { server in
            let page = try await server.send(
                "GET", "/", as: nil, headers: header.isEmpty ? [] : [("Accept-Language", header)])
            #expect(page.text.contains(#"<html lang="\#(language)">"#), "\(header)")
            #expect(
                page.text.contains(
                    language == "de" ? "<title>Intents-Konsole</title>" : "<title>Intents console</title>"))
            #expect(page.headers["vary"] == "Accept-Language")
        }
    }

    @Test func theEventStreamNeedsAToken() async throws {
        try await ServerHarness.with { server in
            let reply = try await server.send("GET", "/v1/events", as: nil)
            #expect(reply.status == 401)
            #expect(reply.errorCode == "unauthorized")
        }
    }

    /// The first event is the Smart Stack, controls and activities exactly as their own GETs answer.
    @Test func theEventStreamStartsWithTheSurfacesAsTheirOwnRoutesGiveThem() async throws {
        try await ServerHarness.with { server in
            _ = try await server.say("add a task buy milk")
            let event = try await EventStream.first(port: server.port, token: server.tokens["ann"]!)
            #expect(event.head.status == 200)
            #expect(event.head.headers["content-type"] == "text/event-stream; charset=utf-8")
            #expect(event.name == "state")
            let state = try #require(try JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any])
            for key in ["widgets", "controls", "activities"] {
                let own = try await server.send("GET", "/v1/\(key)")
                let expected = own.object[key] as? NSArray
                #expect(state[key] as? NSArray == expected, "\(key)")
            }
            #expect(event.data.contains("buy milk"))
        }
    }

    /// Each stream reads the store again and again: a user gets a few, and one closed frees its place.
    @Test func aUserHasAtMostEightEventStreams() async throws {
        try await ServerHarness.with { server in
            var open: [Int32] = []
            for _ in 0..<8 {
                open.append(try await EventStream.open(port: server.port, token: server.tokens["ann"]!).1)
            }
            let ninth = try await server.send("GET", "/v1/events")
            #expect(ninth.status == 429)
            #expect(ninth.errorCode == "too_many_streams")
            // Bob's streams are his own.
            let bobs = try await EventStream.first(port: server.port, token: server.tokens["bob"]!)
            #expect(bobs.name == "state")
            for socket in open { Glibc.close(socket) }
            // The server notices a gone client at its next write (a keep-alive within 5 s).
            var again: EventStream.Event?
            for _ in 0..<120 where again == nil {
                again = try? await EventStream.first(port: server.port, token: server.tokens["ann"]!)
                if again == nil { try await Task.sleep(for: .milliseconds(500)) }
            }
            #expect(again?.name == "state")
        }
    }

    @Test func aWidgetsButtonIsPressedByNumber() async throws {
        try await ServerHarness.with { server in
            let before = try await Self.card("Fortune.DailyFortune", server)
            #expect(before["title"] as? String == "Daily fortune")
            let buttons = try #require(before["buttons"] as? [[String: Any]])
            #expect(buttons.first?["title"] as? String == "Love")
            let pressed = try await server.send(
                "POST", "/v1/widgets/press", #"{"widget":"Fortune.DailyFortune","button":1}"#)
            #expect(pressed.status == 200, "\(pressed)")
            #expect(pressed["status"] as? String == "done")
            let after = try await Self.card("Fortune.DailyFortune", server)
            #expect(after["title"] as? String == "Love fortune")

            let missing = try await server.send(
                "POST", "/v1/widgets/press", #"{"widget":"Fortune.DailyFortune","button":7}"#)
            #expect(missing.status == 404)
            let unknown = try await server.send("POST", "/v1/widgets/press", #"{"widget":"Nope","button":1}"#)
            #expect(unknown.status == 404)
            let bad = try await server.send("POST", "/v1/widgets/press", #"{"widget":"Fortune.DailyFortune"}"#)
            #expect(bad.status == 400)
            #expect(bad.errorMessage == "'button' is required: a number from 1")
            // Bob's card did not change.
            let bobs = try await Self.card("Fortune.DailyFortune", server, as: "bob")
            #expect(bobs["title"] as? String == "Daily fortune")
        }
    }

    @Test func theTipOfTheMomentIsShownOnce() async throws {
        try await ServerHarness.with { server in
            let first = try await server.send("POST", "/v1/tip", "{}")
            #expect(first.status == 200, "\(first)")
            let tip = try #require(first["tip"] as? [String: Any])
            #expect(tip["intent"] as? String == "FocusBlox.CreateTask")
            #expect(tip["phrase"] as? String == "New task in FocusBlox")
            let second = try await server.send("POST", "/v1/tip", "{}")
            #expect((second["tip"] as? [String: Any])?["intent"] as? String != "FocusBlox.CreateTask")
            let german = try await server.send("POST", "/v1/tip", #"{"lang":"de"}"#, as: "bob")
            #expect((german["tip"] as? [String: Any])?["phrase"] as? String == "Erstelle Task in FocusBlox")
        }
    }

    static func card(_ widget: String, _ server: ServerHarness, as user: String = "ann") async throws -> [String: Any] {
        let stack = try await server.send("GET", "/v1/widgets", as: user)
        let cards = stack.object["widgets"] as? [[String: Any]] ?? []
        return try #require(cards.first { $0["widget"] as? String == widget })
    }
}

/// Reads a server-sent event stream's head and first event, then hangs up.
enum EventStream {
    struct Event {
        var head: HTTPReply
        var name: String
        var data: String
    }

    static func first(port: Int, token: String) async throws -> Event {
        let (event, socket) = try await open(port: port, token: token)
        Glibc.close(socket)
        return event
    }

    /// The first event and the connection, still open (close it with `Glibc.close`).
    static func open(port: Int, token: String) async throws -> (Event, Int32) {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                do {
                    continuation.resume(returning: (try read(socket, port: port, token: token), socket))
                } catch {
                    Glibc.close(socket)
                    continuation.resume(throwing: error)
                }
            }.start()
        }
    }

    private static func read(_ socket: Int32, port: Int, token: String) throws -> Event {
        var timeout = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw HTTPTestClient.Failure(description: "connect: \(errno)") }
        let head =
            "GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nAccept: text/event-stream\r\n\r\n"
        _ = Array(head.utf8).withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else {
                throw HTTPTestClient.Failure(
                    description: "the stream ended: \(String(decoding: received, as: UTF8.self))")
            }
            received.append(contentsOf: buffer[0..<count])
            // The head, then (chunked) an event ending in a blank line.
            let reply = try? HTTPTestClient.parse(received)
            guard let reply else { continue }
            guard reply.status == 200 else { throw HTTPTestClient.Failure(description: "refused: \(reply)") }
            let text = reply.text
            guard let start = text.range(of: "data:"),
                let end = text.range(of: "\n\n", range: start.lowerBound..<text.endIndex)
            else { continue }
            var name = "message"
            var data: [String] = []
            for line in text[..<end.lowerBound].split(separator: "\n") {
                if line.hasPrefix("event:") { name = String(line.dropFirst(6)).trimmingCharacters(in: .whitespaces) }
                if line.hasPrefix("data:") {
                    data.append(String(line.dropFirst(5)).trimmingCharacters(in: .whitespaces))
                }
            }
            return Event(head: reply, name: name, data: data.joined(separator: "\n"))
        }
    }
}
