import Foundation

/// Reads LSP base-protocol messages (`Content-Length` header, blank line, body) from a file
/// descriptor. Limits are checked as bytes arrive: a header line longer than `maximumHeaderBytes`
/// or a body longer than `maximumBodyBytes` is refused without being allocated (its bytes are
/// read and dropped), and reading goes on with the next message.
final class MessageReader {
    enum Item {
        /// A whole message body.
        case message([UInt8])
        /// A message that could not be taken, and why (answered with the protocol's error).
        case refused(String)
        /// The input ended.
        case end
    }

    let descriptor: Int32
    let maximumBodyBytes: Int
    let maximumHeaderBytes = 8 * 1024
    private var buffer: [UInt8] = []
    private var start = 0

    init(descriptor: Int32 = STDIN_FILENO, maximumBodyBytes: Int = 16 * 1024 * 1024) {
        self.descriptor = descriptor
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// Whether a byte is waiting (buffered, or readable within `milliseconds`).
    func hasInput(within milliseconds: Int32) -> Bool {
        if start < buffer.count { return true }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, milliseconds) > 0
    }

    /// The next message, refusal, or the end of input.
    func next() -> Item {
        var length: Int?
        var sawHeader = false
        while true {
            guard let line = readLine() else { return .end }
            switch line {
            case .tooLong:
                return .refused("a header line is longer than \(maximumHeaderBytes) bytes")
            case .line(let text):
                if text.isEmpty {
                    if !sawHeader { continue }  // stray blank lines between messages
                    guard let length else { return .refused("a message without a Content-Length header") }
                    if length > maximumBodyBytes {
                        guard skip(length) else { return .end }
                        return .refused("a message of \(length) bytes is over the limit of \(maximumBodyBytes) bytes")
                    }
                    guard let body = read(length) else { return .end }
                    return .message(body)
                }
                sawHeader = true
                let parts = text.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-length" {
                    let value = parts[1].trimmingCharacters(in: .whitespaces)
                    guard let number = Int(value), number >= 0 else {
                        return .refused("Content-Length '\(value)' is not a number of bytes")
                    }
                    length = number
                }
            }
        }
    }

    private enum Line {
        case line(String)
        case tooLong
    }

    private func readLine() -> Line? {
        var line: [UInt8] = []
        var tooLong = false
        while true {
            guard let byte = readByte() else { return nil }
            if byte == UInt8(ascii: "\n") {
                if tooLong { return .tooLong }
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return .line(String(decoding: line, as: UTF8.self))
            }
            if line.count >= maximumHeaderBytes { tooLong = true } else { line.append(byte) }
        }
    }

    private func readByte() -> UInt8? {
        if start >= buffer.count, !fill() { return nil }
        defer { start += 1 }
        return buffer[start]
    }

    private func read(_ count: Int) -> [UInt8]? {
        var body: [UInt8] = []
        body.reserveCapacity(count)
        while body.count < count {
            if start >= buffer.count, !fill() { return nil }
            let take = min(count - body.count, buffer.count - start)
            body.append(contentsOf: buffer[start..<start + take])
            start += take
        }
        return body
    }

    private func skip(_ count: Int) -> Bool {
        var left = count
        while left > 0 {
            if start >= buffer.count, !fill() { return false }
            let take = min(left, buffer.count - start)
            start += take
            left -= take
        }
        return true
    }

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        buffer = Array(chunk[0..<count])
        start = 0
        return true
    }
}
