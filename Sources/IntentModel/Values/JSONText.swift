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
        String(decoding: try encoder.encode(value), as: UTF8.self)
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
