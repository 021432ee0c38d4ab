import Foundation
import IntentModel

/// `POST /v1/say`'s body, checked: every refusal is an `APIError` with its message; nothing here
/// touches an engine, so the fuzzer (`Fuzz/Sources/FuzzRequestBody`) runs it alone.
public struct SayRequest: Sendable, Equatable {
    public var text: String
    public var conversation: String?
    public var language: String?
    public var context: [String: String]
    public var dryRun: Bool

    public static let fields = ["text", "conversation", "lang", "context", "dryRun"]

    public init(bytes: [UInt8], limits: Limits = .default) throws(APIError) {
        let fields = try RequestFields(bytes: bytes, allowed: Self.fields)
        guard let text = try fields.string("text", required: true), !text.allSatisfy(\.isWhitespace) else {
            throw .badRequest("the field 'text' must not be empty")
        }
        guard text.utf8.count <= limits.maxPhraseBytes else {
            throw APIError(
                400, "phrase_too_long",
                "the phrase is \(text.utf8.count) bytes; at most \(limits.maxPhraseBytes) are read")
        }
        self.text = text
        conversation = try fields.conversation()
        language = try fields.language()
        context = try fields.strings("context") ?? [:]
        dryRun = try fields.bool("dryRun") ?? false
    }
}

extension RequestFields {
    /// `conversation`: 1 to 128 letters, digits, `-`, `_` or `.` (nil: start a new one).
    public func conversation() throws(APIError) -> String? {
        guard let given = try string("conversation") else { return nil }
        guard (1...128).contains(given.utf8.count),
            given.utf8.allSatisfy({ byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            })
        else {
            throw .badRequest(
                "'conversation' must be 1 to 128 letters, digits, '-', '_' or '.' (or left out to start one)")
        }
        return given
    }

    /// `lang`: a language code such as `en` (2 to 8 ASCII letters), lowercased.
    public func language() throws(APIError) -> String? {
        guard let language = try string("lang") else { return nil }
        guard (2...8).contains(language.utf8.count),
            language.utf8.allSatisfy({ ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") })
        else {
            throw .badRequest("'lang' must be a language code such as 'en' or 'de', not '\(language)'")
        }
        return language.lowercased()
    }
}
