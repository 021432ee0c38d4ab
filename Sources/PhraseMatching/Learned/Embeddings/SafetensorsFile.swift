import Foundation

/// A problem with a sentence model's files: which file, and what is wrong with it. Never a trap: a
/// malformed file is the user's input.
public struct EmbeddingModelError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

/// A safetensors file (Hugging Face's format): 8 bytes of header length, little-endian; a JSON header
/// naming each tensor's type, shape and byte range; then the tensors' bytes. Read whole, bounded:
/// every range is checked against the file before a value is read, and only `F32` tensors are
/// decoded (a tensor of another type may be listed, as BERT's `position_ids` are, but not asked for).
public struct SafetensorsFile: Sendable {
    /// One tensor as the header lists it.
    struct Entry: Sendable {
        let dtype: String
        let shape: [Int]
        let start: Int
        let end: Int
    }

    public let path: String
    let bytes: [UInt8]
    /// Where the tensors' bytes start (after the header).
    let base: Int
    let entries: [String: Entry]

    /// Headers larger than this are refused (the real ones are a few kilobytes to a megabyte).
    static let maximumHeader = 64 << 20

    /// Reads the file at `path`.
    public init(path: String) throws(EmbeddingModelError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw EmbeddingModelError(path: path, message: "cannot be read")
        }
        try self.init(bytes: [UInt8](data), path: path)
    }

    /// Reads a safetensors file's bytes; `path` names it in errors.
    public init(bytes: [UInt8], path: String) throws(EmbeddingModelError) {
        func fail(_ message: String) -> EmbeddingModelError { EmbeddingModelError(path: path, message: message) }
        guard bytes.count >= 8 else { throw fail("too short for a safetensors header (\(bytes.count) bytes)") }
        var length: UInt64 = 0
        for i in (0..<8).reversed() { length = length << 8 | UInt64(bytes[i]) }
        guard length <= UInt64(Self.maximumHeader), length <= UInt64(bytes.count - 8) else {
            throw fail("header length \(length) runs past the end of the file (\(bytes.count) bytes)")
        }
        let base = 8 + Int(length)
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: Data(bytes[8..<base]))
        } catch {
            throw fail("the header is not JSON")
        }
        guard let header = json as? [String: Any] else { throw fail("the header is not a JSON object") }
        var entries: [String: Entry] = [:]
        let available = bytes.count - base
        for (name, value) in header where name != "__metadata__" {
            guard let info = value as? [String: Any], let dtype = info["dtype"] as? String,
                let shape = (info["shape"] as? [Any])?.compactMap({ ($0 as? NSNumber)?.intValue }),
                let offsets = (info["data_offsets"] as? [Any])?.compactMap({ ($0 as? NSNumber)?.intValue }),
                offsets.count == 2, shape.count == (info["shape"] as? [Any])?.count
            else { throw fail("tensor '\(name)' has no dtype, shape or data_offsets") }
            let (start, end) = (offsets[0], offsets[1])
            guard 0 <= start, start <= end, end <= available else {
                throw fail("tensor '\(name)' lies outside the file (bytes \(start)..<\(end) of \(available))")
            }
            guard shape.allSatisfy({ 0 <= $0 && $0 <= 1 << 31 }) else { throw fail("tensor '\(name)' has a bad shape") }
            entries[name] = Entry(dtype: dtype, shape: shape, start: start, end: end)
        }
        self.path = path
        self.bytes = bytes
        self.base = base
        self.entries = entries
    }

    /// The names of the tensors the file holds, sorted.
    public var names: [String] { entries.keys.sorted() }

    /// The shape of tensor `name`, nil when the file has none by that name.
    public func shape(_ name: String) -> [Int]? { entries[name]?.shape }

    /// Tensor `name`'s values, row-major, checked to be `F32` of the expected `shape`.
    public func floats(_ name: String, shape expected: [Int]) throws(EmbeddingModelError) -> [Float] {
        func fail(_ message: String) -> EmbeddingModelError { EmbeddingModelError(path: path, message: message) }
        guard let entry = entries[name] else { throw fail("has no tensor '\(name)'") }
        guard entry.dtype == "F32" else { throw fail("tensor '\(name)' is \(entry.dtype), not F32") }
        guard entry.shape == expected else {
            throw fail("tensor '\(name)' has shape \(entry.shape), expected \(expected)")
        }
        // The product checked for overflow: a shape is the file's to say ([2³¹, 2³¹, 2³¹] would trap).
        var count = 1
        for size in expected {
            let (product, overflow) = count.multipliedReportingOverflow(by: size)
            guard !overflow, product <= Int.max / 4 else { throw fail("tensor '\(name)' has a bad shape") }
            count = product
        }
        guard entry.end - entry.start == count * 4 else {
            throw fail("tensor '\(name)' has \(entry.end - entry.start) bytes for \(count) values")
        }
        let start = base + entry.start
        return [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            bytes.withUnsafeBytes { raw in
                for i in 0..<count {
                    let bits = raw.loadUnaligned(fromByteOffset: start + 4 * i, as: UInt32.self)
                    buffer[i] = Float(bitPattern: UInt32(littleEndian: bits))
                }
            }
            initialized = count
        }
    }
}
