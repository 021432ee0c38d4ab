import Foundation
import IntentRequests
import IntentServer
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Limits checked as the bytes arrive, on every route: a refusal closes the connection rather than
/// read what is left of its body; headers, connections and event streams are bounded; the server
/// answers as before afterwards.
@Suite("Limits as bytes arrive")
struct ConnectionLimitsTests {
    static let postRoutes = [
        "/v1/say", "/v1/open", "/v1/share", "/v1/undo", "/v1/continue", "/v1/controls/Focus", "/v1/widgets/press",
        "/v1/tip",
    ]

    /// A body over 64 KB, chunked (no length said), then nothing more for minutes: refused with 413
    /// as soon as the limit is passed on every route that reads a body, not after the rest.
    @Test func aStreamedBodyIsRefusedAtTheLimitOnEveryRoute() async throws {
        var limits = ServerHarness.patient
        limits.requestTimeout = .seconds(120)
        try await ServerHarness.with(limits: limits) { server in
            for route in Self.postRoutes {
                let body = [UInt8](repeating: 0x20, count: 140_000)
                let reply = try await server.send(
                    "POST", route, bytes: body, chunks: 2, pause: .seconds(600), declaredLength: -1)
                #expect(reply.status == 413, "\(route): \(reply)")
                #expect(reply.errorCode == "body_too_large", "\(route): \(reply)")
            }
            #expect(try await server.say("what's next").status == 200)
        }
    }

    /// The refusal ends the connection: a client that goes on sending its body is cut off, not read
    /// to the end (it said 1 GB; it trickles, so the server is never idle).
    @Test(arguments: [
        ("POST /v1/say", 1_000_000_000, true, 413),
        ("POST /v1/say", 60_000, false, 401),
        ("GET /v1/widgets", 60_000, true, 400),
        ("POST /v1/nothing", 60_000, true, 404),
    ])
    func aRefusedBodyIsNotReadToItsEnd(_ line: String, _ length: Int, _ token: Bool, _ status: Int) async throws {
        try await ServerHarness.with { server in
            var head =
                "\(line) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(length)\r\nContent-Type: application/json\r\n"
            if token { head += "Authorization: Bearer \(server.tokens["ann"]!)\r\n" }
            let outcome = try await RawConnection.trickle(port: server.port, head: head + "\r\n", for: .seconds(120))
            #expect(outcome.closed, "the server read on: \(outcome.response)")
            #expect(outcome.response.hasPrefix("HTTP/1.1 \(status) "), "\(outcome.response)")
            #expect(try await server.say("what's next").status == 200)
        }
    }

    /// A head sent a byte at a time never becomes a request: the connection counts as silent and
    /// is closed after the idle timeout (3 s here), long before the head could reach its limit.
    @Test func aHeadSentAByteAtATimeIsCutOff() async throws {
        try await ServerHarness.with(idleTimeout: .seconds(3)) { server in
            let head = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
            let outcome = try await RawConnection.trickle(port: server.port, head: head, for: .seconds(120))
            #expect(outcome.closed, "still open after 120 s")
            #expect(try await server.say("what's next").status == 200)
        }
    }

    @Test(arguments: [
        ("one long header", [("X-Long", String(repeating: "a", count: 20_000))]),
        ("many headers", (0..<150).map { ("X-H\($0)", "v") }),
    ])
    func headersOverTheLimitAre431(_ name: String, _ headers: [(String, String)]) async throws {
        try await ServerHarness.with { server in
            let reply = try await server.send("GET", "/v1/widgets", headers: headers)
            #expect(reply.status == 431, "\(name): \(reply)")
            #expect(reply.errorCode == "headers_too_large", "\(reply)")
            #expect(reply.headers["connection"] == "close")
            #expect(try await server.say("what's next").status == 200)
        }
    }

    @Test func aLongPathIs431() async throws {
        try await ServerHarness.with { server in
            let reply = try await server.send("GET", "/v1/search?q=" + String(repeating: "a", count: 20_000))
            #expect(reply.status == 431, "\(reply)")
            #expect(try await server.say("what's next").status == 200)
        }
    }

    /// Connections held open without a word: one past the limit is told 503 and closed, unread,
    /// while the others stay open; any further one is refused too; and the server answers again
    /// once they are gone.
    ///
    /// Which of five silent connections is the one past the limit is the server's to say: a
    /// connection that `connect` returned is in the kernel's queue, not yet counted, and the
    /// server's event loops take them up in no set order (a later one may be counted before an
    /// earlier). So the test waits for whichever is answered, not for the last.
    @Test func connectionsPastTheLimitAreRefused() async throws {
        var limits = ServerHarness.patient
        limits.maxConnections = 4
        // Silent connections stay open for the whole test, however slow the machine.
        try await ServerHarness.with(limits: limits, idleTimeout: .seconds(3_600)) { server in
            var silent: [Int32] = []
            defer { for socket in silent { Glibc.close(socket) } }
            for _ in 0..<5 { silent.append(try RawConnection.connect(port: server.port)) }
            let (index, bytes) = try await RawConnection.firstAnswered(silent, deadline: .seconds(120))
            let refused = try HTTPTestClient.parse(bytes)
            #expect(refused.status == 503, "\(refused)")
            #expect(refused.errorCode == "busy", "\(refused)")
            #expect(refused.headers["retry-after"] == "1")
            #expect(refused.headers["connection"] == "close")
            // The four counted are open, and were told nothing.
            let others = silent.enumerated().filter { $0.offset != index }.map(\.element)
            #expect(RawConnection.readable(others).isEmpty)
            // The four are counted now (one past them was refused): a sixth is refused at once.
            let sixth = try await server.send("GET", "/healthz", as: nil)
            #expect(sixth.status == 503, "\(sixth)")
            #expect(sixth.errorCode == "busy", "\(sixth)")
            for socket in silent { Glibc.close(socket) }
            silent = []
            try await waitUntil("the server to answer again", deadline: .seconds(120)) {
                try await server.say("what's next").status == 200
            }
        }
    }

    /// Event streams of all users together are bounded: past it, 503 for anyone; one closed frees a place.
    @Test func eventStreamsOfAllUsersAreBounded() async throws {
        var limits = ServerHarness.patient
        limits.maxEventStreams = 2
        try await ServerHarness.with(limits: limits) { server in
            var open: [Int32] = []
            for _ in 0..<2 {
                open.append(try await EventStream.open(port: server.port, token: server.tokens["ann"]!).1)
            }
            let bobs = try await server.send("GET", "/v1/events", as: "bob")
            #expect(bobs.status == 503, "\(bobs)")
            #expect(bobs.errorCode == "busy")
            let third = try await server.send("GET", "/v1/events", as: "ann")
            #expect(third.status == 503, "\(third)")
            #expect(try await server.send("GET", "/v1/widgets", as: "bob").status == 200)
            Glibc.close(open.removeFirst())
            // The server notices the gone client at its next write (a keep-alive within 5 s).
            try await waitUntil("a stream's place to be free again", deadline: .seconds(120)) {
                (try? await EventStream.first(port: server.port, token: server.tokens["bob"]!))?.name == "state"
            }
            for socket in open { Glibc.close(socket) }
        }
    }

    static let badConsoleRequests: [(path: String, body: String?, status: Int, says: String)] = [
        ("/v1/events?since=5", nil, 400, "unknown query parameter 'since'"),
        ("/v1/search?q=%ZZ", nil, 400, "broken %-escape"),
        ("/v1/search?q=%FF", nil, 400, "not UTF-8"),
        ("/v1/widgets/press", #"{"widget":"Fortune.Daily\u0000Fortune","button":1}"#, 400, "no control characters"),
        (
            "/v1/widgets/press", #"{"widget":"\#(String(repeating: "W", count: 300))","button":1}"#, 400,
            "1 to 200 bytes"
        ),
        (
            "/v1/widgets/press", #"{"widget":"Fortune.DailyFortune","button":1,"instance":0}"#, 400,
            "'instance' must be from 1"
        ),
        ("/v1/tip", #"{"lang":"de","extra":1}"#, 400, "unknown field 'extra'"),
        ("/v1/tip", #"{"lang":"d"}"#, 400, "'lang' must be a language code"),
    ]

    @Test func theConsolesRoutesRefuseBadInput() async throws {
        try await ServerHarness.with { server in
            for c in Self.badConsoleRequests {
                let reply = try await server.send(c.body == nil ? "GET" : "POST", c.path, c.body)
                #expect(reply.status == c.status, "\(c.path) \(c.body ?? ""): \(reply)")
                #expect(reply.errorMessage?.contains(c.says) == true, "\(c.path) \(c.body ?? ""): \(reply)")
            }
            #expect(try await server.say("what's next").status == 200)
        }
    }

    @Test func aQueryIsDecodedAsFormsAre() async throws {
        try await ServerHarness.with { server in
            _ = try await server.say("create a radar on quantum computing")
            let reply = try await server.send("GET", "/v1/search?q=quantum+comp%75ting&limit=5")
            #expect(reply.status == 200, "\(reply)")
            #expect(reply["query"] as? String == "quantum computing", "\(reply)")
        }
    }
}

/// A connection driven by hand: what a client that does not follow the rules sends.
enum RawConnection {
    static func connect(port: Int) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw HTTPTestClient.Failure(description: "socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            Glibc.close(socket)
            throw HTTPTestClient.Failure(description: "connect: \(errno)")
        }
        return socket
    }

    /// Waits (on a thread of its own, at most `deadline`) until one of `sockets` has something to
    /// read, then reads it to its end: that socket's index and the bytes.
    static func firstAnswered(_ sockets: [Int32], deadline: Duration) async throws -> (Int, [UInt8]) {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try firstAnsweredNow(sockets, deadline: deadline) })
            }.start()
        }
    }

    private static func firstAnsweredNow(_ sockets: [Int32], deadline: Duration) throws -> (Int, [UInt8]) {
        let end = ContinuousClock.now + deadline
        while ContinuousClock.now < end {
            var polled = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&polled, nfds_t(polled.count), 100) > 0,
                let index = polled.firstIndex(where: { $0.revents != 0 })
            else { continue }
            var timeout = timeval(tv_sec: 120, tv_usec: 0)
            setsockopt(sockets[index], SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = recv(sockets[index], &buffer, buffer.count, 0)
                if count <= 0 { break }
                received.append(contentsOf: buffer[0..<count])
            }
            return (index, received)
        }
        throw HTTPTestClient.Failure(description: "none of \(sockets.count) connections was answered in \(deadline)")
    }

    /// Those of `sockets` that have something to read (or were closed) now.
    static func readable(_ sockets: [Int32]) -> [Int32] {
        var polled = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        _ = poll(&polled, nfds_t(polled.count), 0)
        return polled.filter { $0.revents != 0 }.map(\.fd)
    }

    /// Sends `head`, then a byte of body every 20 ms for up to `duration`, reading what comes
    /// back: whether the server closed the connection (end of stream, or a reset), and what it said.
    static func trickle(port: Int, head: String, for duration: Duration) async throws -> (
        closed: Bool, response: String
    ) {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try trickleNow(port: port, head: head, for: duration) })
            }.start()
        }
    }

    private static func trickleNow(port: Int, head: String, for duration: Duration) throws -> (
        closed: Bool, response: String
    ) {
        let socket = try connect(port: port)
        defer { Glibc.close(socket) }
        var received: [UInt8] = []
        func send(_ bytes: [UInt8]) -> Bool {
            bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
        }
        guard send(Array(head.utf8)) else { return (true, "") }
        let end = ContinuousClock.now + duration
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while ContinuousClock.now < end {
            var ready = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, 20) > 0 {
                let count = recv(socket, &buffer, buffer.count, 0)
                if count <= 0 { return (true, String(decoding: received, as: UTF8.self)) }
                received.append(contentsOf: buffer[0..<count])
            }
            if !send([0x20]) { return (true, String(decoding: received, as: UTF8.self)) }
        }
        return (false, String(decoding: received, as: UTF8.self))
    }
}
