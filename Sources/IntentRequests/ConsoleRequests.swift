import Foundation
import IntentModel

/// `POST /v1/widgets/press`'s body, checked: `{widget, button, instance?, conversation?, dryRun?}`.
/// Nothing here touches an engine (the fuzzer `Fuzz/Sources/FuzzConsoleRequests` runs it alone).
public struct PressRequest: Sendable, Equatable {
    public var widget: String
    public var button: Int
    public var instance: Int64?
    public var conversation: String?
    public var dryRun: Bool

    public static let fields = ["widget", "button", "instance", "conversation", "dryRun"]
    /// The longest widget name read (`App.Name`); a longer one names no widget.
    public static let maxNameBytes = 200

    public init(bytes: [UInt8]) throws(APIError) {
        try self.init(RequestFields(bytes: bytes, allowed: Self.fields))
    }

    public init(_ fields: RequestFields) throws(APIError) {
        guard let name = try fields.string("widget", required: true) else {
            throw .badRequest("'widget' is required")
        }
        guard !name.isEmpty, name.utf8.count <= Self.maxNameBytes, !name.unicodeScalars.contains(where: Self.isControl)
        else {
            throw .badRequest(
                "'widget' must be a widget's name (App.Name): 1 to \(Self.maxNameBytes) bytes, no control characters")
        }
        guard let button = try fields.integer("button", in: 1...1_000) else {
            throw .badRequest("'button' is required: a number from 1")
        }
        widget = name
        self.button = button
        instance = try fields.integer("instance", in: 1...Int.max).map(Int64.init)
        conversation = try fields.conversation()
        dryRun = try fields.bool("dryRun") ?? false
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}

/// `POST /v1/tip`'s body: `{lang?}`.
public struct TipRequest: Sendable, Equatable {
    public var language: String?

    public static let fields = ["lang"]

    public init(bytes: [UInt8]) throws(APIError) {
        language = try RequestFields(bytes: bytes, allowed: Self.fields).language()
    }
}

/// A request's query string taken apart: `name=value` pairs split at `&`, `+` read as a space and
/// `%XX` escapes decoded. Every name must be known and given once; a value that is not UTF-8 once
/// decoded, or a broken escape, is refused rather than guessed at.
public struct QueryParameters: Sendable, Equatable {
    public let values: [String: String]

    public subscript(name: String) -> String? { values[name] }

    /// `raw` is the part after `?` as it came (nil or empty: no parameters).
    public init(_ raw: String?, allowed: Set<String>) throws(APIError) {
        var values: [String: String] = [:]
        for pair in Array((raw ?? "").utf8).split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.decode(parts[0], what: "a query parameter's name")
            guard allowed.contains(name) else {
                throw .badRequest(
                    "unknown query parameter '\(Self.shown(name))'"
                        + (allowed.isEmpty ? "" : " (parameters: \(allowed.sorted().joined(separator: ", ")))"))
            }
            guard values[name] == nil else { throw .badRequest("the query parameter '\(name)' is given twice") }
            values[name] = parts.count > 1 ? try Self.decode(parts[1], what: "the query parameter '\(name)'") : ""
        }
        self.values = values
    }

    /// The query string that reads back as `values` (names sorted).
    public static func encode(_ values: [String: String]) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        func escape(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text }
        return values.keys.sorted().map { escape($0) + "=" + escape(values[$0]!) }.joined(separator: "&")
    }

    private static func decode(_ bytes: ArraySlice<UInt8>, what: String) throws(APIError) -> String {
        guard let decoded = PercentDecoding.bytes(bytes, plusIsSpace: true) else {
            throw .badRequest("\(what) has a broken %-escape (two hex digits must follow '%')")
        }
        guard let text = String(validating: decoded, as: UTF8.self) else {
            throw .badRequest("\(what) is not UTF-8 once its %-escapes are decoded")
        }
        return text
    }

    /// A name as a message shows it: at most 64 characters, control characters as `?`.
    static func shown(_ text: String) -> String {
        let cut = String(text.unicodeScalars.prefix(64).map { PressRequest.isControl($0) ? "?" : Character($0) })
        return text.unicodeScalars.count > 64 ? cut + "…" : cut
    }
}

/// `GET /v1/events`: no query parameters (the stream is the user's; nothing to choose).
public struct EventsRequest: Sendable, Equatable {
    public init(query: String?) throws(APIError) {
        _ = try QueryParameters(query, allowed: [])
    }
}

/// The token of an `Authorization: Bearer <token>` header, or nil for none or a malformed one.
public enum BearerToken {
    /// The longest header read; a longer one carries no token of ours.
    public static let maxHeaderBytes = 512

    public static func parse(_ header: String?) -> String? {
        guard let header, header.utf8.count <= maxHeaderBytes else { return nil }
        // Read by scalars, not characters: a combining mark after the space must not join it.
        let scalars = header.unicodeScalars
        guard let space = scalars.firstIndex(where: { $0 == " " || $0 == "\t" }),
            String(scalars[..<space]).lowercased() == "bearer"
        else { return nil }
        let blank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" }
        var rest = Array(scalars[space...])
        while let last = rest.last, blank(last) { rest.removeLast() }
        var token = ""
        token.unicodeScalars.append(contentsOf: rest.drop(while: blank))
        guard !token.isEmpty,
            !token.unicodeScalars.contains(where: { $0.properties.isWhitespace || PressRequest.isControl($0) })
        else { return nil }
        return token
    }
}
