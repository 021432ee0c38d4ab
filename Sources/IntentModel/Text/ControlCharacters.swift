import Foundation

/// Control characters in people's text: refused on the way in (a stored string, an answer, an
/// input), escaped on the way out, so that stored text can never clear a screen or retitle a
/// terminal (`ESC [2J`, `ESC ]0;…BEL`). Tabs and newlines are text; every other C0 character,
/// DEL and the C1 range (U+0080–U+009F, where a lone U+009B is a CSI) are not.
public enum ControlCharacters {
    /// Whether `scalar` is a control character that text may not hold.
    public static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }

    /// The first control character of `text` that text may not hold; nil when there is none.
    public static func first(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first(where: isForbidden)
    }

    /// `U+001B`, for messages.
    public static func name(_ scalar: Unicode.Scalar) -> String {
        "U+" + String(format: "%04X", scalar.value)
    }

    /// Why `text` cannot be taken, naming the character; nil when it can. `what` names the value
    /// ("Task.title", "the answer").
    public static func problem(in text: String, what: String) -> String? {
        first(in: text).map { "\(what) holds a control character (\(name($0))); stored text may not" }
    }

    /// `text` with each forbidden control character written visibly as `\u{1B}`: for printing
    /// text that came from a store or a file.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isForbidden) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isForbidden(scalar) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
