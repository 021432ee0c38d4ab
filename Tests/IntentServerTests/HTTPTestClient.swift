import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A response as the tests see it: status, headers (names lowercased), body.
struct HTTPReply: Sendable, CustomStringConvertible {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) }
    var object: [String: Any] { json as? [String: Any] ?? [:] }
    var errorCode: String? { (object["error"] as? [String: Any])?["code"] as? String }
    var errorMessage: String? { (object["error"] as? [String: Any])?["message"] as? String }
    subscript(key: String) -> Any? { object[key] }
    var description: String { "\(status) \(text)" }
}

/// A small HTTP/1.1 client over a blocking socket on its own thread: one request per connection
/// (`Connection: close`), the body sent whole or in pieces with pauses, nothing hidden (no retries,
/// no redirects), so the tests see exactly what the server sends.
enum HTTPTestClient {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func send(
        port: Int, method: String, path: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
        chunks: Int = 1, pause: Duration = .zero, declaredLength: Int? = nil
    ) async throws -> HTTPReply {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(
                    with: Result {
                        try exchange(
                            port: port, method: method, path: path, headers: headers, body: body, chunks: chunks,
                            pause: pause, declaredLength: declaredLength)
                    })
            }
            thread.start()
        }
    }

    private static func exchange(
        port: Int, method: String, path: String, headers: [(String, String)], body: [UInt8]?, chunks: Int,
        pause: Duration, declaredLength: Int?
    ) throws -> HTTPReply {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(errno)") }
        defer { close(socket) }
        var timeout = timeval(tv_sec: 300, tv_usec: 0)
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
        guard connected == 0 else { throw Failure(description: "connect: \(errno)") }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let chunked = declaredLength == -1
        if chunked {
            head += "Transfer-Encoding: chunked\r\n"
        } else if let body {
            head += "Content-Length: \(declaredLength ?? body.count)\r\n"
        }
        head += "\r\n"
        try write(socket, Array(head.utf8))
        if let body, !body.isEmpty {
            let size = (body.count + chunks - 1) / max(1, chunks)
            var offset = 0
            while offset < body.count {
                let end = min(body.count, offset + size)
                // The server may answer (413) and close before the whole body is sent: stop then.
                var piece = Array(body[offset..<end])
                if chunked { piece = Array("\(String(piece.count, radix: 16))\r\n".utf8) + piece + [13, 10] }
                if (try? write(socket, piece)) == nil { break }
                offset = end
                // Pause, but stop sending as soon as the server answers (it may refuse early).
                if offset < body.count && pause > .zero {
                    var ready = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                    if poll(&ready, 1, Int32(pause / .milliseconds(1))) > 0 { break }
                }
            }
            if chunked { _ = try? write(socket, Array("0\r\n\r\n".utf8)) }
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return try parse(received)
    }

    private static func write(_ socket: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw Failure(description: "send: \(errno)") }
            offset += sent
        }
    }

    static func parse(_ bytes: [UInt8]) throws -> HTTPReply {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else {
            throw Failure(description: "no response head in \(bytes.count) bytes")
        }
        let lines = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "bad status line \(lines[0])")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body = Array(bytes[(end + 4)...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = dechunk(body) }
        return HTTPReply(status: status, headers: headers, body: body)
    }

    private static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard let lineEnd = (index..<bytes.count - 1).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }),
                let size = Int(
                    String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";")[0], radix: 16),
                size > 0
            else { break }
            let start = lineEnd + 2
            result.append(contentsOf: bytes[start..<min(bytes.count, start + size)])
            index = start + size + 2
        }
        return result
    }
}
