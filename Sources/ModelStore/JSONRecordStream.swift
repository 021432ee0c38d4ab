public import Foundation
public import IntentModel

/// Reads an export (`{"App.Entity": [records], …}`) one record at a time from a file or a pipe,
/// in chunks: memory holds one chunk and one record, whatever the file's size.
public struct JSONRecordStream {
    /// What the text is not, named by its place, as `StoreExport(json:)` names it.
    public enum Problem: Error, CustomStringConvertible {
        /// Not an object at the top.
        case notAnExport
        /// Not JSON: where (1-based; the column counts characters) and why.
        case syntax(line: Int, column: Int, reason: String)
        case shape(String)

        public var description: String {
            switch self {
            case .notAnExport: "not a JSON object of the form {\"App.Entity\": [records]}"
            case .syntax(let line, let column, let reason): "line \(line), column \(column): \(reason)"
            case .shape(let message): message
            }
        }
    }

    private let read: (Int) -> [UInt8]
    private var buffer: [UInt8] = []
    private var position = 0
    /// Line breaks in the bytes already dropped from `buffer`, and the characters after the last.
    private var linesDropped = 0
    private var columnDropped = 0
    /// The start of the token being read (a number, an escape), kept in `buffer` until it is read.
    private var mark: Int?
    private var ended = false
    private static let chunk = 1 << 20

    private enum State { case start, afterKey, inList, afterList, done }
    private var state = State.start
    /// The entity key of the list being read, and the index of the next record in it.
    private var key = ""
    private var index = 0

    /// Longest text one value may hold (1 MB, as an intent's value): refused as its bytes arrive,
    /// so one huge string cannot fill memory before it is measured.
    public static let maximumTextBytes = 1 << 20
    /// Largest record (16 MB of text, counting 16 bytes a value besides): a record of a million
    /// fields is refused as it is read.
    public static let maximumRecordBytes = 16 << 20
    /// Longest number (digits, sign, point and exponent).
    static let maximumNumberBytes = 400
    /// What the record being read has cost so far, against `maximumRecordBytes`.
    private var spent = 0

    /// Where the reader is, for messages: `Radar.Radar[3]`, or the entity names between lists.
    private var place: String {
        state == .inList ? "\(key)[\(index)]" : "an entity name"
    }

    private mutating func spend(_ bytes: Int) throws(Problem) {
        spent += bytes
        guard spent <= Self.maximumRecordBytes else {
            throw .shape("\(place) is larger than \(Self.maximumRecordBytes >> 20) MB; a record may be at most that")
        }
    }

    private func tooLong() -> Problem {
        .shape("\(place) holds a text longer than \(Self.maximumTextBytes >> 20) MB; a value may be at most that")
    }

    /// Bytes as text, refused unless they are UTF-8 (never a U+FFFD put in their place).
    private func text(_ bytes: some Collection<UInt8>) throws(Problem) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .shape("\(place) holds bytes that are not UTF-8 text")
        }
        return text
    }

    /// Reads chunks from `handle` (a file, or standard input) as it goes.
    public init(handle: FileHandle) {
        read = { count in (try? handle.read(upToCount: count)).map { Array($0) } ?? [] }
    }

    /// The text, `piece` bytes at a time (for tests: every value cut at every place).
    public init(text: String, piece: Int = Int.max) {
        self.init(bytes: Array(text.utf8), piece: piece)
    }

    /// Bytes as they would come from a file, not necessarily UTF-8 (for tests and fuzzing).
    public init(bytes: [UInt8], piece: Int = Int.max) {
        var rest = bytes[...]
        read = { count in
            let taken = rest.prefix(min(count, piece))
            rest = rest.dropFirst(taken.count)
            return Array(taken)
        }
    }

    /// What the stream reads next: a list beginning (its entity key), or one of its records.
    public enum Event {
        case list(key: String)
        case record(key: String, index: Int, fields: [String: JSONValue])
    }

    /// The next list or record; nil at the end.
    public mutating func next() throws(Problem) -> Event? {
        while true {
            switch state {
            case .start:
                guard try peekOrEnd() == UInt8(ascii: "{") else { throw .notAnExport }
                position += 1
                if try peek() == UInt8(ascii: "}") {
                    position += 1
                    state = .done
                } else {
                    state = .afterKey
                }
            case .afterKey:
                guard try peek() == UInt8(ascii: "\"") else { throw expected("an entity name in double quotes") }
                let name = try string()
                try expect(UInt8(ascii: ":"), "':' after the entity name")
                guard try peek() == UInt8(ascii: "[") else {
                    _ = try value()
                    throw .shape("'\(name)' must be a list of records")
                }
                position += 1
                key = name
                index = 0
                if try peek() == UInt8(ascii: "]") {
                    position += 1
                    state = .afterList
                } else {
                    state = .inList
                }
                return .list(key: name)
            case .inList:
                spent = 0
                let item = try value()
                guard case .object(let fields) = item else { throw .shape("\(key)[\(index)] must be an object") }
                defer { index += 1 }
                let separator = try peek()
                if separator == UInt8(ascii: "]") {
                    state = .afterList
                } else if separator != UInt8(ascii: ",") {
                    throw expected("',' or ']' after a record")
                }
                position += 1
                return .record(key: key, index: index, fields: fields)
            case .afterList:
                let separator = try peek()
                if separator == UInt8(ascii: "}") {
                    state = .done
                } else if separator == UInt8(ascii: ",") {
                    state = .afterKey
                } else {
                    throw expected("',' or '}' after a list of records")
                }
                position += 1
            case .done:
                // Only white space may follow.
                if try peekOrEnd() != nil { throw syntax("text after the end of the export") }
                return nil
            }
        }
    }

    /// Whether the text opens as an export does (with `{`), read before anything is written.
    public mutating func startsLikeAnExport() -> Bool {
        (try? peekOrEnd()) == UInt8(ascii: "{")
    }

    // MARK: Bytes

    /// Makes `count` bytes from `position` available; false at the end of the input.
    private mutating func fill(_ count: Int) -> Bool {
        while buffer.count - position < count {
            guard !ended else { return false }
            // Bytes read are dropped, but not those from `mark` on: a message may point back at them.
            let dropped = min(position, mark ?? position)
            if dropped > 0 {
                (linesDropped, columnDropped) = Self.advance(linesDropped, columnDropped, over: buffer[..<dropped])
                buffer.removeFirst(dropped)
                position -= dropped
                mark = mark.map { $0 - dropped }
            }
            let more = read(Self.chunk)
            if more.isEmpty { ended = true } else { buffer += more }
        }
        return true
    }

    /// Line and column after `bytes`, from `line` and `column`: a column counts characters (a
    /// UTF-8 continuation byte adds none).
    private static func advance(_ line: Int, _ column: Int, over bytes: ArraySlice<UInt8>) -> (Int, Int) {
        var (line, column) = (line, column)
        for byte in bytes {
            if byte == 0x0A {
                line += 1
                column = 0
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    /// A syntax error at `offset` bytes from `position` (back, when negative): its line and
    /// column, and the reason.
    private func syntax(_ reason: String, at offset: Int = 0) -> Problem {
        let end = min(max(position + offset, 0), buffer.count)
        let (line, column) = Self.advance(linesDropped, columnDropped, over: buffer[..<end])
        return .syntax(line: line + 1, column: column + 1, reason: reason)
    }

    /// What is at `position`, for a message: `']'`, `U+0001`, or the end of the text.
    private mutating func found() -> String {
        guard fill(1) else { return "the end of the text" }
        let byte = buffer[position]
        if (0x21..<0x7F).contains(byte) { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte < 0x80 { return String(format: "U+%04X", byte) }
        return "a non-ASCII character"
    }

    /// `expected X, found Y` at `position`.
    private mutating func expected(_ what: String) -> Problem {
        syntax("expected \(what), found \(found())")
    }

    private mutating func skipSpace() {
        while fill(1) {
            switch buffer[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func peekOrEnd() throws(Problem) -> UInt8? {
        skipSpace()
        return fill(1) ? buffer[position] : nil
    }

    private mutating func peek() throws(Problem) -> UInt8 {
        guard let byte = try peekOrEnd() else { throw syntax("the text ends before the export does") }
        return byte
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(Problem) {
        guard try peek() == byte else { throw expected(what) }
        position += 1
    }

    private mutating func byte() throws(Problem) -> UInt8 {
        guard fill(1) else { throw syntax("the text ends inside a string") }
        defer { position += 1 }
        return buffer[position]
    }

    // MARK: Values

    private mutating func value(depth: Int = 0) throws(Problem) -> JSONValue {
        guard depth < 512 else { throw syntax("values nested deeper than 512 levels") }
        try spend(16)
        switch try peek() {
        case UInt8(ascii: "{"):
            position += 1
            var fields: [String: JSONValue] = [:]
            if try peek() == UInt8(ascii: "}") {
                position += 1
                return .object(fields)
            }
            while true {
                guard try peek() == UInt8(ascii: "\"") else { throw expected("a field name in double quotes") }
                let name = try string()
                try expect(UInt8(ascii: ":"), "':' after the field name")
                fields[name] = try value(depth: depth + 1)
                let separator = try peek()
                guard separator == UInt8(ascii: "}") || separator == UInt8(ascii: ",") else {
                    throw expected("',' or '}' after a field's value")
                }
                position += 1
                if separator == UInt8(ascii: "}") { return .object(fields) }
            }
        case UInt8(ascii: "["):
            position += 1
            var items: [JSONValue] = []
            if try peek() == UInt8(ascii: "]") {
                position += 1
                return .array(items)
            }
            while true {
                items.append(try value(depth: depth + 1))
                let separator = try peek()
                guard separator == UInt8(ascii: "]") || separator == UInt8(ascii: ",") else {
                    throw expected("',' or ']' after a value in a list")
                }
                position += 1
                if separator == UInt8(ascii: "]") { return .array(items) }
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            try word("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try word("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try word("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try number()
        default:
            throw expected("a value")
        }
    }

    private mutating func word(_ text: String) throws(Problem) {
        let bytes = Array(text.utf8)
        for offset in bytes.indices where !fill(offset + 1) || buffer[position + offset] != bytes[offset] {
            throw syntax("expected \(text)", at: 0)
        }
        position += bytes.count
    }

    private mutating func number() throws(Problem) -> JSONValue {
        mark = position
        defer { mark = nil }
        var text: [UInt8] = []
        var integral = true
        while fill(1) {
            let byte = buffer[position]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"): break
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"): integral = false
            default:
                return try number(text, integral: integral)
            }
            text.append(byte)
            position += 1
            guard text.count <= Self.maximumNumberBytes else {
                throw .shape("\(place) holds a number longer than \(Self.maximumNumberBytes) characters")
            }
        }
        return try number(text, integral: integral)
    }

    /// The number `bytes` spell, just read.
    private func number(_ bytes: [UInt8], integral: Bool) throws(Problem) -> JSONValue {
        let text = String(decoding: bytes, as: UTF8.self)
        if integral, let number = Int(text) { return .integer(number) }
        let start = (mark ?? position) - position
        guard let number = Double(text) else { throw syntax("'\(text)' is not a number", at: start) }
        guard number.isFinite else { throw syntax("\(text) is too large for a number", at: start) }
        return .number(number)
    }

    /// A string from its opening quote: bytes as they are up to the closing one, escapes read.
    private mutating func string() throws(Problem) -> String {
        position += 1
        // Fast path: no escape before the closing quote within what is buffered.
        var scan = position
        while true {
            if scan == buffer.count {
                // Needs more input: make room and keep scanning from the same offset.
                let offset = scan - position
                guard offset <= Self.maximumTextBytes else { throw tooLong() }
                guard fill(offset + 1) else { throw syntax("the text ends inside a string") }
                scan = position + offset
            }
            let byte = buffer[scan]
            if byte == UInt8(ascii: "\"") {
                guard scan - position <= Self.maximumTextBytes else { throw tooLong() }
                try spend(scan - position)
                let text = try text(buffer[position..<scan])
                position = scan + 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            scan += 1
        }
        var bytes = Array(buffer[position..<scan])
        position = scan
        while true {
            let byte = try self.byte()
            switch byte {
            case UInt8(ascii: "\""):
                try spend(bytes.count)
                return try text(bytes)
            case UInt8(ascii: "\\"):
                mark = position - 1
                defer { mark = nil }
                let escaped = try self.byte()
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(escaped)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard try self.byte() == UInt8(ascii: "\\"), try self.byte() == UInt8(ascii: "u") else {
                            throw syntax(
                                "\\u\(String(scalar, radix: 16)) is half a character: a low surrogate \\u must follow",
                                at: (mark ?? position) - position)
                        }
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else {
                            throw syntax(
                                "\\u\(String(low, radix: 16)) cannot follow a high surrogate",
                                at: (mark ?? position) - position)
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else {
                        throw syntax(
                            "\\u\(String(scalar, radix: 16)) is half a character (a lone surrogate)",
                            at: (mark ?? position) - position)
                    }
                    bytes += Array(String(Character(unicode)).utf8)
                default:
                    throw syntax(
                        "'\\\(Character(Unicode.Scalar(escaped)))' is not an escape JSON has",
                        at: (mark ?? position) - position)
                }
            default:
                guard byte >= 0x20 else {
                    throw syntax(
                        "a control character (\(String(format: "U+%04X", byte))) must be escaped in a string", at: -1)
                }
                bytes.append(byte)
            }
            guard bytes.count <= Self.maximumTextBytes else { throw tooLong() }
        }
    }

    private mutating func hex4() throws(Problem) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = try self.byte()
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw syntax("\\u needs four hexadecimal digits", at: -1)
            }
            value = value * 16 + digit
        }
        return value
    }
}
