import Foundation

/// JSON text as the project writes it everywhere (answers, journal, exports, listings): through
/// `JSONEncoder`, keys sorted, slashes unescaped.
///
/// Pretty text keeps the layout the CLI has always printed (`"key": value`, two spaces, `[]` and
/// `{}` for empty containers): `JSONEncoder.prettyPrinted` writes `"key" : value` and opens empty
/// containers over two lines, so the compact text is laid out again by `indent(_:)`.
public enum JSONText {
    /// One line of JSON text.
    public static func compact<T: Encodable>(_ value: T) throws -> String {
        escapingControls(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// JSON text with DEL and the C1 controls (U+007F–U+009F) written as `\u007f`…`\u009f`:
    /// `JSONEncoder` escapes only C0, and a raw U+009B is a terminal's CSI. Outside strings JSON
    /// text is ASCII, so every such scalar is inside a string and the escape keeps it valid.
    static func escapingControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { (0x7F...0x9F).contains($0.value) }) else { return text }
        var output = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if (0x7F...0x9F).contains(scalar.value) {
                output.append(contentsOf: "\\u00\(String(scalar.value, radix: 16))".unicodeScalars)
            } else {
                output.append(scalar)
            }
        }
        return String(output)
    }

    /// One line of JSON text for a `JSONValue`, written directly: the text `JSONEncoder` writes
    /// (ModelStoreTests holds the two to it), at a fraction of the cost. The store writes the
    /// journal with every executed intent; through `JSONEncoder` that was 5% of an execution.
    public static func compact(_ value: JSONValue) -> String {
        var output = ""
        write(value, to: &output)
        return output
    }

    /// JSON text over several lines, indented by two spaces.
    public static func pretty<T: Encodable>(_ value: T) throws -> String {
        indent(try compact(value))
    }

    /// Reads a value from JSON text.
    public static func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private static func write(_ value: JSONValue, to output: inout String) {
        switch value {
        case .null:
            output += "null"
        case .bool(let flag):
            output += flag ? "true" : "false"
        case .integer(let number):
            output += String(number)
        case .number(let number):
            guard number.isFinite else {
                output += "null"
                return
            }
            let text = number.description
            output += text.hasSuffix(".0") ? text.dropLast(2) : Substring(text)
        case .string(let text):
            write(text, to: &output)
        case .array(let items):
            output += "["
            for (position, item) in items.enumerated() {
                if position > 0 { output += "," }
                write(item, to: &output)
            }
            output += "]"
        case .object(let fields):
            output += "{"
            let keys = fields.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (position, key) in keys.enumerated() {
                if position > 0 { output += "," }
                write(key, to: &output)
                output += ":"
                write(fields[key] ?? .null, to: &output)
            }
            output += "}"
        }
    }

    private static func write(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }

    /// Lays out compact JSON text (no whitespace outside strings) over lines.
    static func indent(_ compact: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(compact.utf8.count * 2)
        var depth = 0
        var inString = false, escaped = false
        let bytes = Array(compact.utf8)
        func newline() {
            output.append(UInt8(ascii: "\n"))
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
        }
        for (position, byte) in bytes.enumerated() {
            if inString {
                output.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                output.append(byte)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                output.append(byte)
                let next = position + 1 < bytes.count ? bytes[position + 1] : 0
                if next != UInt8(ascii: "}") && next != UInt8(ascii: "]") {
                    depth += 1
                    newline()
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                let previous = position > 0 ? bytes[position - 1] : 0
                if previous != UInt8(ascii: "{") && previous != UInt8(ascii: "[") {
                    depth -= 1
                    newline()
                }
                output.append(byte)
            case UInt8(ascii: ","):
                output.append(byte)
                newline()
            case UInt8(ascii: ":"):
                output.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
            default:
                output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
