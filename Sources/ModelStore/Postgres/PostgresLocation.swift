import Foundation
import IntentModel

/// Where a PostgreSQL store is: `postgres://user[:password]@host[:port]/database[?schema=name]`
/// (`postgresql://` too). The schema holds the store's tables (default `public`); each user of the
/// server has their own.
///
/// Read by hand, as libpq reads it, so that nothing is guessed: user, password and database may
/// hold `%XX` escapes (a password holding `@`, `:` or `/` must write them so); the host is a name,
/// an IPv4 address or an IPv6 address in brackets; the port 1 to 65535. The options are `schema`
/// and `sslmode=disable` (this version speaks no TLS, so any other `sslmode` is refused rather than
/// ignored). Anything else (an unknown option, one given twice, a NUL, a database path with `/`, a
/// `#fragment`) is refused with the reason; the password never appears in a message.
public struct PostgresLocation: Sendable, Hashable {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    public var schema: String

    static let form = "postgres://user[:password]@host[:port]/database[?schema=name]"

    /// Whether `store` names a PostgreSQL store rather than a SQLite file.
    public static func isPostgres(_ store: String) -> Bool {
        store.hasPrefix("postgres://") || store.hasPrefix("postgresql://")
    }

    public init(_ url: String) throws(StoreError) {
        func refuse(_ reason: String) -> StoreError {
            .unusable(path: Self.hidingPassword(url), reason: reason)
        }
        // A part of the URL (a slice of it), quoted in a reason: never one that reaches into what
        // the message hides; `shown` is what to quote (a decoded value), the slice by default.
        let hidden = Self.hiddenPart(url)
        func quoted(_ part: Substring, as shown: String? = nil) -> String {
            let overlaps = !hidden.isEmpty && part.startIndex < hidden.endIndex && hidden.startIndex < part.endIndex
            return overlaps ? "'…'" : "'\(Self.shown(shown ?? String(part)))'"
        }
        guard Self.isPostgres(url) else { throw refuse("not a PostgreSQL URL (\(Self.form))") }
        var rest = url.drop(while: { $0 != ":" }).dropFirst(3)
        if rest.contains("#") { throw refuse("a PostgreSQL URL has no '#' part (\(Self.form))") }
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash]
        let path = slash < rest.endIndex ? rest[rest.index(after: slash)...] : ""

        // user[:password]@ — up to the last '@', as browsers read it; the password after the first ':'.
        var hostPort = authority
        var user: String?
        var password: String?
        if let at = authority.lastIndex(of: "@") {
            let info = authority[..<at]
            hostPort = authority[authority.index(after: at)...]
            let colon = info.firstIndex(of: ":")
            user = try Self.decoded(info[..<(colon ?? info.endIndex)], "the user name", url)
            if let colon { password = try Self.decoded(info[info.index(after: colon)...], "the password", url) }
        }

        // host[:port], an IPv6 address in brackets.
        var host: Substring
        var portText: Substring?
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { throw refuse("an IPv6 address must end with ']'") }
            host = hostPort[hostPort.index(after: hostPort.startIndex)..<close]
            let after = hostPort[hostPort.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw refuse("after ']' only ':port' may follow") }
                portText = after.dropFirst()
            }
            guard !host.isEmpty, host.allSatisfy({ ($0.isASCII && $0.isHexDigit) || $0 == ":" || $0 == "." }) else {
                throw refuse("\(quoted(host)) is not an IPv6 address")
            }
        } else {
            if let colon = hostPort.lastIndex(of: ":") {
                host = hostPort[..<colon]
                portText = hostPort[hostPort.index(after: colon)...]
            } else {
                host = hostPort
            }
            guard !host.isEmpty else { throw refuse("not a PostgreSQL URL: it names no host (\(Self.form))") }
            guard host.utf8.count <= 253,
                host.unicodeScalars.allSatisfy({
                    $0.isASCII
                        && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "." || $0 == "-"
                            || $0 == "_")
                })
            else {
                throw refuse(
                    "\(quoted(host)) is not a host name or address (letters, digits, '.', '-'; IPv6 in brackets)")
            }
        }
        var port = 5432
        if let portText, !portText.isEmpty {
            guard portText.utf8.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
                let number = Int(portText),
                (1...65_535).contains(number)
            else { throw refuse("the port must be a number from 1 to 65535, not \(quoted(portText))") }
            port = number
        }

        // /database: one name, no '/'.
        let database = try Self.decoded(path, "the database name", url)
        if path.contains("/") { throw refuse("the database is one name: '/' must be written %2F") }

        var options: [String: (value: String, raw: Substring)] = [:]
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard ["schema", "sslmode"].contains(name) else {
                throw refuse("unknown option \(quoted(parts[0])) (options: schema, sslmode=disable)")
            }
            guard options[name] == nil else { throw refuse("the option '\(name)' is given twice") }
            guard parts.count == 2, !parts[1].isEmpty else { throw refuse("the option '\(name)' needs a value") }
            options[name] = (try Self.decoded(parts[1], "the option '\(name)'", url), parts[1])
        }
        if let mode = options["sslmode"], mode.value != "disable" {
            throw refuse(
                "sslmode=\(quoted(mode.raw, as: mode.value)): this version connects without TLS only (sslmode=disable); keep the server on loopback or a private network"
            )
        }
        let schema = options["schema"]?.value ?? "public"
        guard Self.isSchemaName(schema) else {
            throw refuse(
                "the schema \(quoted(options["schema"]!.raw, as: schema)) is not a name (1 to 63 lowercase letters, digits and _)"
            )
        }

        self.host = String(host)
        self.port = port
        let given = user.flatMap { $0.isEmpty ? nil : $0 }
        self.user = given ?? ProcessInfo.processInfo.environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "postgres"
        self.password = password
        self.database = database.isEmpty ? self.user : database
        self.schema = schema
        // PostgreSQL cuts longer names to 63 bytes without a word: refused, so no other database is reached.
        for (what, name) in [("user name", self.user), ("database name", self.database)] where name.utf8.count > 63 {
            throw refuse("the \(what) is over 63 bytes")
        }
    }

    /// The `%XX`-decoded text of a part; a broken escape, text that is not UTF-8, or a NUL is refused.
    private static func decoded(_ part: Substring, _ what: String, _ url: String) throws(StoreError) -> String {
        guard let bytes = PercentDecoding.bytes(part.utf8) else {
            throw .unusable(
                path: hidingPassword(url), reason: "\(what) has a broken %-escape (two hex digits must follow '%')")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .unusable(path: hidingPassword(url), reason: "\(what) is not UTF-8 once its %-escapes are decoded")
        }
        guard !bytes.contains(0) else {
            throw .unusable(path: hidingPassword(url), reason: "\(what) holds a NUL (%00)")
        }
        return text
    }

    /// Text from a URL as a message shows it: control characters as `?`, at most 64 characters.
    static func shown(_ text: some StringProtocol) -> String {
        let scalars = text.unicodeScalars
        let cut = String(
            String.UnicodeScalarView(
                scalars.prefix(64).map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : $0 }))
        return scalars.count > 64 ? cut + "…" : cut
    }

    /// What `hidingPassword` hides of `url` (empty: nothing).
    static func hiddenPart(_ url: String) -> Substring {
        guard let scheme = url.range(of: "://"), let colon = url[scheme.upperBound...].firstIndex(of: ":"),
            let at = url[colon...].lastIndex(of: "@")
        else { return "" }
        return url[url.index(after: colon)..<at]
    }

    /// The URL with `***` for its password, and control characters as `?`, for messages. What is
    /// hidden is everything from the first ':' after `//` to the last '@': more than the password
    /// when the URL is malformed (a '#', '?' or '/' in it), never less.
    static func hidingPassword(_ url: String) -> String {
        guard let scheme = url.range(of: "://"), let colon = url[scheme.upperBound...].firstIndex(of: ":"),
            let at = url[colon...].lastIndex(of: "@")
        else { return shown(url, unlimited: true) }
        return shown(String(url[...colon]) + "***" + String(url[at...]), unlimited: true)
    }

    private static func shown(_ text: String, unlimited: Bool) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : $0 }))
    }

    static func isSchemaName(_ text: String) -> Bool {
        (1...63).contains(text.utf8.count) && text.first.map { $0.isLetter || $0 == "_" } == true
            && text.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 95 }
    }

    /// The same database with another schema: `postgres://…/db?schema=<schema>` (the URL as it
    /// was when it cannot be read).
    public static func withSchema(_ url: String, _ schema: String) -> String {
        guard var location = try? PostgresLocation(url) else { return url }
        location.schema = schema
        return location.url
    }

    /// The whole URL, password included, each part escaped: it reads back as this location.
    public var url: String { text(password: password) }

    /// The URL without its password, for messages.
    public var description: String { text(password: nil) }

    private func text(password: String?) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        func escape(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text }
        let credentials = escape(user) + (password.map { ":" + escape($0) } ?? "")
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(credentials)@\(shownHost):\(port)/\(escape(database))"
            + (schema == "public" ? "" : "?schema=\(schema)")
    }
}
