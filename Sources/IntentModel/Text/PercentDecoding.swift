/// `%XX` escapes decoded to bytes, for every reader of text from a URL or a query string (the
/// server's queries, PostgreSQL store URLs). Whether the bytes are UTF-8, or may hold a NUL, is the
/// caller's question, as is the message.
public enum PercentDecoding {
    /// The bytes `text` stands for (`plusIsSpace`: a form's `+` is a space); nil when a `%` is not
    /// followed by two hex digits.
    public static func bytes(_ text: some Sequence<UInt8>, plusIsSpace: Bool = false) -> [UInt8]? {
        let input = Array(text)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if plusIsSpace, byte == UInt8(ascii: "+") {
                decoded.append(0x20)
            } else if byte == UInt8(ascii: "%") {
                guard index + 2 < input.count, let high = hex(input[index + 1]), let low = hex(input[index + 2]) else {
                    return nil
                }
                decoded.append(high << 4 | low)
                index += 2
            } else {
                decoded.append(byte)
            }
            index += 1
        }
        return decoded
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
