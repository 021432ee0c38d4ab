import YAML

/// A compact binary form of `Codable` values, for the compiled cache (`IntentGraph` written once,
/// read by every later process). Every string once in a table at the front; after it one value:
///
/// - a tag byte per value: nil, false, true, an integer (8 bytes), an unsigned integer (8), a double
///   (8), a string (its table number, 4), a keyed or an unkeyed container, a source range (six
///   numbers of 4 bytes: file, line, column of its start and its end);
/// - a container: its count and the offset of its end (4 bytes each), for a keyed one the table
///   numbers of its keys, then its values. A value can be skipped without reading it, so a key read
///   out of order (or not at all) finds its value all the same.
///
/// Numbers are little-endian. Reading checks every offset, count and number against the bytes and
/// throws on anything else: a damaged file is an error, never a trap. Both sides are this program's
/// own: the cache's key includes the build, so a file is only ever read by the build that wrote it.
package enum CompactCoding {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// `value` as bytes.
    package static func encode(_ value: some Encodable) throws -> [UInt8] {
        let root = CompactEncoder()
        try root.encodeValue(value)
        var writer = CompactWriter()
        writer.write(root.box)
        return writer.finished()
    }

    /// The value of type `T` in `bytes` (what `encode` wrote).
    package static func decode<T: Decodable>(_: T.Type, from bytes: some Collection<UInt8>) throws -> T {
        let array = Array(bytes)
        return try array.withUnsafeBytes { raw in
            let decoder = try CompactDecoder(raw)
            return try decoder.decodeValue(T.self)
        }
    }
}

// MARK: - Tags

enum CompactTag: UInt8 {
    case null = 0
    case `false` = 1
    case `true` = 2
    case int = 3
    case uint = 4
    case double = 5
    case string = 6
    case keyed = 7
    case unkeyed = 8
    case sourceRange = 9
}

// MARK: - Writing

/// What an encoder collected: a primitive or a container of boxes.
final class CompactBox {
    enum Content {
        case empty
        case null
        case bool(Bool)
        case int(Int64)
        case uint(UInt64)
        case double(Double)
        case string(String)
        case sourceRange(SourceRange)
        case keyed(keys: [String], values: [CompactBox])
        case unkeyed([CompactBox])
    }

    var content: Content = .empty

    func appendKeyed(_ key: String, _ box: CompactBox) throws {
        switch content {
        case .empty: content = .keyed(keys: [key], values: [box])
        case .keyed(var keys, var values):
            content = .empty
            keys.append(key)
            values.append(box)
            content = .keyed(keys: keys, values: values)
        default: throw CompactCoding.Failure(description: "a keyed container over another value")
        }
    }

    func appendUnkeyed(_ box: CompactBox) throws {
        switch content {
        case .empty: content = .unkeyed([box])
        case .unkeyed(var values):
            content = .empty
            values.append(box)
            content = .unkeyed(values)
        default: throw CompactCoding.Failure(description: "an unkeyed container over another value")
        }
    }
}

final class CompactEncoder: Encoder {
    let box = CompactBox()
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Encodes `value` into this encoder's box: the common primitives directly, the rest by their `encode(to:)`.
    func encodeValue<T: Encodable>(_ value: T) throws {
        if let text = value as? String {
            box.content = .string(text)
        } else if let range = value as? SourceRange {
            box.content = .sourceRange(range)
        } else {
            try value.encode(to: self)
        }
    }

    func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .empty = box.content { box.content = .keyed(keys: [], values: []) }
        return KeyedEncodingContainer(CompactKeyedEncoding<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .empty = box.content { box.content = .unkeyed([]) }
        return CompactUnkeyedEncoding(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { CompactSingleEncoding(encoder: self) }

    /// A new box holding `value`.
    static func box(_ value: some Encodable) throws -> CompactBox {
        let encoder = CompactEncoder()
        try encoder.encodeValue(value)
        return encoder.box
    }

    static func primitive(_ content: CompactBox.Content) -> CompactBox {
        let box = CompactBox()
        box.content = content
        return box
    }

    static func integer<T: BinaryInteger>(_ value: T) throws -> CompactBox {
        if let signed = Int64(exactly: value) { return primitive(.int(signed)) }
        if let unsigned = UInt64(exactly: value) { return primitive(.uint(unsigned)) }
        throw CompactCoding.Failure(description: "an integer out of range")
    }
}

struct CompactKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: CompactEncoder
    var codingPath: [any CodingKey] { [] }

    private func put(_ box: CompactBox, _ key: Key) throws { try encoder.box.appendKeyed(key.stringValue, box) }

    mutating func encodeNil(forKey key: Key) throws { try put(CompactEncoder.primitive(.null), key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try put(CompactEncoder.primitive(.bool(value)), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try put(CompactEncoder.primitive(.string(value)), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try put(CompactEncoder.primitive(.double(value)), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try put(CompactEncoder.primitive(.double(Double(value))), key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { try put(CompactEncoder.integer(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try put(CompactEncoder.integer(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try put(CompactEncoder.integer(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try put(CompactEncoder.integer(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try put(CompactEncoder.integer(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try put(CompactEncoder.integer(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(CompactEncoder.integer(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(CompactEncoder.integer(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(CompactEncoder.integer(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(CompactEncoder.integer(value), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try put(CompactEncoder.box(value), key) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = CompactEncoder()
        nested.box.content = .keyed(keys: [], values: [])
        try? put(nested.box, key)
        return KeyedEncodingContainer(CompactKeyedEncoding<NestedKey>(encoder: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = CompactEncoder()
        nested.box.content = .unkeyed([])
        try? put(nested.box, key)
        return CompactUnkeyedEncoding(encoder: nested)
    }

    mutating func superEncoder() -> any Encoder { CompactEncoder() }
    mutating func superEncoder(forKey _: Key) -> any Encoder { CompactEncoder() }
}

struct CompactUnkeyedEncoding: UnkeyedEncodingContainer {
    let encoder: CompactEncoder
    var codingPath: [any CodingKey] { [] }
    var count: Int {
        if case .unkeyed(let values) = encoder.box.content { return values.count }
        return 0
    }

    private func put(_ box: CompactBox) throws { try encoder.box.appendUnkeyed(box) }

    mutating func encodeNil() throws { try put(CompactEncoder.primitive(.null)) }
    mutating func encode(_ value: Bool) throws { try put(CompactEncoder.primitive(.bool(value))) }
    mutating func encode(_ value: String) throws { try put(CompactEncoder.primitive(.string(value))) }
    mutating func encode(_ value: Double) throws { try put(CompactEncoder.primitive(.double(value))) }
    mutating func encode(_ value: Float) throws { try put(CompactEncoder.primitive(.double(Double(value)))) }
    mutating func encode(_ value: Int) throws { try put(CompactEncoder.integer(value)) }
    mutating func encode(_ value: Int8) throws { try put(CompactEncoder.integer(value)) }
    mutating func encode(_ value: Int16) throws { try put(CompactEncoder.integer(value)) }
    mutating func encode(_ value: Int32) throws { try put(CompactEncoder.integer(value)) }
    mutating func encode(_ value: Int64) throws { try put(CompactEncoder.integer(value)) }
    mutating func encode(_ value: UInt) throws { try put(CompactEncoder.integer(value)) }
    mutating func encode(_ value: UInt8) throws { try put(CompactEncoder.integer(value)) }
    mutating func encode(_ value: UInt16) throws { try put(CompactEncoder.integer(value)) }
    mutating func encode(_ value: UInt32) throws { try put(CompactEncoder.integer(value)) }
    mutating func encode(_ value: UInt64) throws { try put(CompactEncoder.integer(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try put(CompactEncoder.box(value)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = CompactEncoder()
        nested.box.content = .keyed(keys: [], values: [])
        try? put(nested.box)
        return KeyedEncodingContainer(CompactKeyedEncoding<NestedKey>(encoder: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = CompactEncoder()
        nested.box.content = .unkeyed([])
        try? put(nested.box)
        return CompactUnkeyedEncoding(encoder: nested)
    }

    mutating func superEncoder() -> any Encoder { CompactEncoder() }
}

struct CompactSingleEncoding: SingleValueEncodingContainer {
    let encoder: CompactEncoder
    var codingPath: [any CodingKey] { [] }

    private func set(_ content: CompactBox.Content) { encoder.box.content = content }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(.double(value)) }
    mutating func encode(_ value: Float) throws { set(.double(Double(value))) }
    mutating func encode(_ value: Int) throws { encoder.box.content = try CompactEncoder.integer(value).content }
    mutating func encode(_ value: Int8) throws { encoder.box.content = try CompactEncoder.integer(value).content }
    mutating func encode(_ value: Int16) throws { encoder.box.content = try CompactEncoder.integer(value).content }
    mutating func encode(_ value: Int32) throws { encoder.box.content = try CompactEncoder.integer(value).content }
    mutating func encode(_ value: Int64) throws { encoder.box.content = try CompactEncoder.integer(value).content }
    mutating func encode(_ value: UInt) throws { encoder.box.content = try CompactEncoder.integer(value).content }
    mutating func encode(_ value: UInt8) throws { encoder.box.content = try CompactEncoder.integer(value).content }
    mutating func encode(_ value: UInt16) throws { encoder.box.content = try CompactEncoder.integer(value).content }
    mutating func encode(_ value: UInt32) throws { encoder.box.content = try CompactEncoder.integer(value).content }
    mutating func encode(_ value: UInt64) throws { encoder.box.content = try CompactEncoder.integer(value).content }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encodeValue(value) }
}

/// Lays the boxes out: the string table, then the root value.
struct CompactWriter {
    private var body: [UInt8] = []
    private var table: [String] = []
    private var numbers: [String: UInt32] = [:]

    private mutating func number(_ text: String) -> UInt32 {
        if let number = numbers[text] { return number }
        let number = UInt32(table.count)
        numbers[text] = number
        table.append(text)
        return number
    }

    private mutating func put32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { body.append(contentsOf: $0) }
    }

    private mutating func put64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { body.append(contentsOf: $0) }
    }

    private mutating func patch32(_ value: UInt32, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { bytes in
            for index in 0..<4 { body[offset + index] = bytes[index] }
        }
    }

    private mutating func tag(_ tag: CompactTag) { body.append(tag.rawValue) }

    private mutating func putMark(_ mark: Mark) {
        put32(UInt32(clamping: max(0, mark.line)))
        put32(UInt32(clamping: max(0, mark.column)))
    }

    mutating func write(_ box: CompactBox) {
        switch box.content {
        case .empty, .null: tag(.null)
        case .bool(let value): tag(value ? .true : .false)
        case .int(let value):
            tag(.int)
            put64(UInt64(bitPattern: value))
        case .uint(let value):
            tag(.uint)
            put64(value)
        case .double(let value):
            tag(.double)
            put64(value.bitPattern)
        case .string(let text):
            tag(.string)
            put32(number(text))
        case .sourceRange(let range):
            tag(.sourceRange)
            put32(number(range.start.file))
            putMark(range.start)
            put32(number(range.end.file))
            putMark(range.end)
        case .keyed(let keys, let values):
            tag(.keyed)
            put32(UInt32(keys.count))
            let end = body.count
            put32(0)
            for key in keys { put32(number(key)) }
            for value in values { write(value) }
            patch32(UInt32(truncatingIfNeeded: body.count), at: end)
        case .unkeyed(let values):
            tag(.unkeyed)
            put32(UInt32(values.count))
            let end = body.count
            put32(0)
            for value in values { write(value) }
            patch32(UInt32(truncatingIfNeeded: body.count), at: end)
        }
    }

    /// The table, then the body; the body's offsets count from the start of the body.
    func finished() -> [UInt8] {
        var out: [UInt8] = []
        func put32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) } }
        put32(UInt32(table.count))
        for text in table {
            put32(UInt32(text.utf8.count))
            out.append(contentsOf: text.utf8)
        }
        put32(UInt32(body.count))
        out.append(contentsOf: body)
        return out
    }
}

// MARK: - Reading

/// Reads what `CompactWriter` wrote, in place: one decoder for the whole value, containers that
/// keep their own place in it.
final class CompactDecoder: Decoder, SingleValueDecodingContainer {
    let body: UnsafeRawBufferPointer
    let strings: [String]
    /// Where the next value read starts, in `body`.
    var position = 0

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ raw: UnsafeRawBufferPointer) throws {
        var offset = 0
        func read32() throws -> Int {
            guard raw.count - offset >= 4 else { throw Self.damaged }
            let value = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            offset += 4
            return Int(value)
        }
        let count = try read32()
        guard count <= raw.count / 4 else { throw Self.damaged }
        var strings: [String] = []
        strings.reserveCapacity(count)
        for _ in 0..<count {
            let length = try read32()
            guard raw.count - offset >= length else { throw Self.damaged }
            strings.append(String(decoding: UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + length)]), as: UTF8.self))
            offset += length
        }
        let length = try read32()
        guard raw.count - offset == length else { throw Self.damaged }
        self.strings = strings
        self.body = UnsafeRawBufferPointer(rebasing: raw[offset...])
    }

    static let damaged = CompactCoding.Failure(description: "the compact bytes are damaged")

    // MARK: Primitive reads at an offset

    @inline(__always) func byte(at offset: Int) throws -> UInt8 {
        guard offset >= 0, offset < body.count else { throw Self.damaged }
        return body[offset]
    }

    @inline(__always) func u32(at offset: Int) throws -> Int {
        guard offset >= 0, body.count - offset >= 4 else { throw Self.damaged }
        return Int(UInt32(littleEndian: body.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }

    @inline(__always) func u64(at offset: Int) throws -> UInt64 {
        guard offset >= 0, body.count - offset >= 8 else { throw Self.damaged }
        return UInt64(littleEndian: body.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always) func string(number: Int) throws -> String {
        guard number < strings.count else { throw Self.damaged }
        return strings[number]
    }

    /// Where the value starting at `offset` ends.
    func end(of offset: Int) throws -> Int {
        guard let tag = CompactTag(rawValue: try byte(at: offset)) else { throw Self.damaged }
        switch tag {
        case .null, .false, .true: return offset + 1
        case .int, .uint, .double: return offset + 9
        case .string: return offset + 5
        case .sourceRange: return offset + 25
        case .keyed, .unkeyed:
            let end = try u32(at: offset + 5)
            guard end > offset, end <= body.count else { throw Self.damaged }
            return end
        }
    }

    // MARK: Values at `position`

    private func expect(_ tag: CompactTag) throws {
        guard try byte(at: position) == tag.rawValue else {
            throw CompactCoding.Failure(description: "expected \(tag) at \(position)")
        }
    }

    func readBool() throws -> Bool {
        let tag = try byte(at: position)
        guard tag == CompactTag.true.rawValue || tag == CompactTag.false.rawValue else { throw Self.damaged }
        position += 1
        return tag == CompactTag.true.rawValue
    }

    func readString() throws -> String {
        try expect(.string)
        let text = try string(number: u32(at: position + 1))
        position += 5
        return text
    }

    func readDouble() throws -> Double {
        try expect(.double)
        let value = Double(bitPattern: try u64(at: position + 1))
        position += 9
        return value
    }

    func readInteger<T: FixedWidthInteger>(_: T.Type) throws -> T {
        let tag = try byte(at: position)
        let bits = try u64(at: position + 1)
        let value: T?
        switch tag {
        case CompactTag.int.rawValue: value = T(exactly: Int64(bitPattern: bits))
        case CompactTag.uint.rawValue: value = T(exactly: bits)
        default: throw Self.damaged
        }
        guard let value else { throw Self.damaged }
        position += 9
        return value
    }

    func readSourceRange() throws -> SourceRange {
        try expect(.sourceRange)
        let p = position + 1
        let start = Mark(file: try string(number: u32(at: p)), line: try u32(at: p + 4), column: try u32(at: p + 8))
        let end = Mark(file: try string(number: u32(at: p + 12)), line: try u32(at: p + 16), column: try u32(at: p + 20))
        position += 25
        return SourceRange(start: start, end: end)
    }

    /// How deep values nest at most (the graph's own nesting is a few dozen; damaged bytes that
    /// nest deeper are refused before the stack runs out).
    static let maximumDepth = 256
    private var depth = 0

    /// The value of type `T` at `position`.
    func decodeValue<T: Decodable>(_: T.Type) throws -> T {
        if T.self == String.self { return try readString() as! T }
        if T.self == SourceRange.self { return try readSourceRange() as! T }
        if T.self == Int.self { return try readInteger(Int.self) as! T }
        guard depth < Self.maximumDepth else { throw CompactCoding.Failure(description: "values nest too deep") }
        depth += 1
        defer { depth -= 1 }
        return try T(from: self)
    }

    // MARK: Decoder

    func container<Key: CodingKey>(keyedBy _: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try CompactKeyedDecoding<Key>(decoder: self, at: position))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try CompactUnkeyedDecoding(decoder: self, at: position)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool {
        guard position < body.count, body[position] == CompactTag.null.rawValue else { return false }
        position += 1
        return true
    }

    func decode(_: Bool.Type) throws -> Bool { try readBool() }
    func decode(_: String.Type) throws -> String { try readString() }
    func decode(_: Double.Type) throws -> Double { try readDouble() }
    func decode(_: Float.Type) throws -> Float { Float(try readDouble()) }
    func decode(_: Int.Type) throws -> Int { try readInteger(Int.self) }
    func decode(_: Int8.Type) throws -> Int8 { try readInteger(Int8.self) }
    func decode(_: Int16.Type) throws -> Int16 { try readInteger(Int16.self) }
    func decode(_: Int32.Type) throws -> Int32 { try readInteger(Int32.self) }
    func decode(_: Int64.Type) throws -> Int64 { try readInteger(Int64.self) }
    func decode(_: UInt.Type) throws -> UInt { try readInteger(UInt.self) }
    func decode(_: UInt8.Type) throws -> UInt8 { try readInteger(UInt8.self) }
    func decode(_: UInt16.Type) throws -> UInt16 { try readInteger(UInt16.self) }
    func decode(_: UInt32.Type) throws -> UInt32 { try readInteger(UInt32.self) }
    func decode(_: UInt64.Type) throws -> UInt64 { try readInteger(UInt64.self) }
    func decode<T: Decodable>(_: T.Type) throws -> T { try decodeValue(T.self) }
}

/// A keyed container: its keys' table numbers, and a cursor over its values (keys are read in the
/// order they were written, so the next key is nearly always the one asked for).
final class CompactKeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: CompactDecoder
    let count: Int
    let keysStart: Int
    let valuesStart: Int
    private var cursorIndex = 0
    private var cursorPosition: Int

    var codingPath: [any CodingKey] { [] }

    init(decoder: CompactDecoder, at offset: Int) throws {
        guard try decoder.byte(at: offset) == CompactTag.keyed.rawValue else {
            throw CompactCoding.Failure(description: "expected a keyed container at \(offset)")
        }
        self.decoder = decoder
        count = try decoder.u32(at: offset + 1)
        keysStart = offset + 9
        let (size, overflow) = count.multipliedReportingOverflow(by: 4)
        guard !overflow, decoder.body.count - keysStart >= size else { throw CompactDecoder.damaged }
        valuesStart = keysStart + size
        cursorPosition = valuesStart
    }

    private func keyText(_ index: Int) throws -> String {
        try decoder.string(number: decoder.u32(at: keysStart + 4 * index))
    }

    var allKeys: [Key] {
        (0..<count).compactMap { index in (try? keyText(index)).flatMap { Key(stringValue: $0) } }
    }

    /// The offset of the value of `key`, moving the cursor past it; nil when the container has no such key.
    private func find(_ key: Key) throws -> Int? {
        let text = key.stringValue
        if cursorIndex < count, try keyText(cursorIndex) == text {
            let found = cursorPosition
            cursorIndex += 1
            cursorPosition = try decoder.end(of: found)
            return found
        }
        var position = valuesStart
        for index in 0..<count {
            if try keyText(index) == text {
                cursorIndex = index + 1
                cursorPosition = try decoder.end(of: position)
                return position
            }
            position = try decoder.end(of: position)
        }
        return nil
    }

    private func at(_ key: Key) throws -> CompactDecoder {
        guard let offset = try find(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "no such key"))
        }
        decoder.position = offset
        return decoder
    }

    func contains(_ key: Key) -> Bool {
        let text = key.stringValue
        return (0..<count).contains { (try? keyText($0)) == text }
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let offset = try find(key) else { return true }
        return try decoder.byte(at: offset) == CompactTag.null.rawValue
    }

    func decode(_: Bool.Type, forKey key: Key) throws -> Bool { try at(key).readBool() }
    func decode(_: String.Type, forKey key: Key) throws -> String { try at(key).readString() }
    func decode(_: Double.Type, forKey key: Key) throws -> Double { try at(key).readDouble() }
    func decode(_: Float.Type, forKey key: Key) throws -> Float { Float(try at(key).readDouble()) }
    func decode(_: Int.Type, forKey key: Key) throws -> Int { try at(key).readInteger(Int.self) }
    func decode(_: Int8.Type, forKey key: Key) throws -> Int8 { try at(key).readInteger(Int8.self) }
    func decode(_: Int16.Type, forKey key: Key) throws -> Int16 { try at(key).readInteger(Int16.self) }
    func decode(_: Int32.Type, forKey key: Key) throws -> Int32 { try at(key).readInteger(Int32.self) }
    func decode(_: Int64.Type, forKey key: Key) throws -> Int64 { try at(key).readInteger(Int64.self) }
    func decode(_: UInt.Type, forKey key: Key) throws -> UInt { try at(key).readInteger(UInt.self) }
    func decode(_: UInt8.Type, forKey key: Key) throws -> UInt8 { try at(key).readInteger(UInt8.self) }
    func decode(_: UInt16.Type, forKey key: Key) throws -> UInt16 { try at(key).readInteger(UInt16.self) }
    func decode(_: UInt32.Type, forKey key: Key) throws -> UInt32 { try at(key).readInteger(UInt32.self) }
    func decode(_: UInt64.Type, forKey key: Key) throws -> UInt64 { try at(key).readInteger(UInt64.self) }
    func decode<T: Decodable>(_: T.Type, forKey key: Key) throws -> T { try at(key).decodeValue(T.self) }

    /// An absent key or a nil value: nil (one search, not the default's three).
    private func present(_ key: Key) throws -> CompactDecoder? {
        guard let offset = try find(key), try decoder.byte(at: offset) != CompactTag.null.rawValue else { return nil }
        decoder.position = offset
        return decoder
    }

    func decodeIfPresent(_: Bool.Type, forKey key: Key) throws -> Bool? { try present(key)?.readBool() }
    func decodeIfPresent(_: String.Type, forKey key: Key) throws -> String? { try present(key)?.readString() }
    func decodeIfPresent(_: Double.Type, forKey key: Key) throws -> Double? { try present(key)?.readDouble() }
    func decodeIfPresent(_: Int.Type, forKey key: Key) throws -> Int? { try present(key)?.readInteger(Int.self) }
    func decodeIfPresent<T: Decodable>(_: T.Type, forKey key: Key) throws -> T? {
        try present(key)?.decodeValue(T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let decoder = try at(key)
        return KeyedDecodingContainer(try CompactKeyedDecoding<NestedKey>(decoder: decoder, at: decoder.position))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let decoder = try at(key)
        return try CompactUnkeyedDecoding(decoder: decoder, at: decoder.position)
    }

    func superDecoder() throws -> any Decoder { throw CompactCoding.Failure(description: "no super decoders") }
    func superDecoder(forKey _: Key) throws -> any Decoder {
        throw CompactCoding.Failure(description: "no super decoders")
    }
}

/// An unkeyed container: its values one after the other, from its own place.
struct CompactUnkeyedDecoding: UnkeyedDecodingContainer {
    let decoder: CompactDecoder
    /// The count in the low 32 bits, the index of the next value in the high ones (three words in all:
    /// the container fits in an existential without a box).
    private var counts: UInt64
    private var next: Int

    var codingPath: [any CodingKey] { [] }
    var count: Int? { Int(counts & 0xFFFF_FFFF) }
    var currentIndex: Int { Int(counts >> 32) }
    var isAtEnd: Bool { currentIndex >= Int(counts & 0xFFFF_FFFF) }

    init(decoder: CompactDecoder, at offset: Int) throws {
        guard try decoder.byte(at: offset) == CompactTag.unkeyed.rawValue else {
            throw CompactCoding.Failure(description: "expected an unkeyed container at \(offset)")
        }
        self.decoder = decoder
        let count = try decoder.u32(at: offset + 1)
        guard count <= decoder.body.count else { throw CompactDecoder.damaged }
        counts = UInt64(count)
        next = offset + 9
    }

    /// Positions the decoder at the next value and moves past it.
    private mutating func advance() throws -> CompactDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: [], debugDescription: "no more values"))
        }
        decoder.position = next
        next = try decoder.end(of: next)
        counts += 1 << 32
        return decoder
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, try decoder.byte(at: next) == CompactTag.null.rawValue else { return false }
        _ = try advance()
        return true
    }

    mutating func decode(_: Bool.Type) throws -> Bool { try advance().readBool() }
    mutating func decode(_: String.Type) throws -> String { try advance().readString() }
    mutating func decode(_: Double.Type) throws -> Double { try advance().readDouble() }
    mutating func decode(_: Float.Type) throws -> Float { Float(try advance().readDouble()) }
    mutating func decode(_: Int.Type) throws -> Int { try advance().readInteger(Int.self) }
    mutating func decode(_: Int8.Type) throws -> Int8 { try advance().readInteger(Int8.self) }
    mutating func decode(_: Int16.Type) throws -> Int16 { try advance().readInteger(Int16.self) }
    mutating func decode(_: Int32.Type) throws -> Int32 { try advance().readInteger(Int32.self) }
    mutating func decode(_: Int64.Type) throws -> Int64 { try advance().readInteger(Int64.self) }
    mutating func decode(_: UInt.Type) throws -> UInt { try advance().readInteger(UInt.self) }
    mutating func decode(_: UInt8.Type) throws -> UInt8 { try advance().readInteger(UInt8.self) }
    mutating func decode(_: UInt16.Type) throws -> UInt16 { try advance().readInteger(UInt16.self) }
    mutating func decode(_: UInt32.Type) throws -> UInt32 { try advance().readInteger(UInt32.self) }
    mutating func decode(_: UInt64.Type) throws -> UInt64 { try advance().readInteger(UInt64.self) }
    mutating func decode<T: Decodable>(_: T.Type) throws -> T { try advance().decodeValue(T.self) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let decoder = try advance()
        return KeyedDecodingContainer(try CompactKeyedDecoding<NestedKey>(decoder: decoder, at: decoder.position))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let decoder = try advance()
        return try CompactUnkeyedDecoding(decoder: decoder, at: decoder.position)
    }

    mutating func superDecoder() throws -> any Decoder { throw CompactCoding.Failure(description: "no super decoders") }
}
