public import IntentModel

/// Routes a URL to an intent of the graph, with every value typed by its parameter. Pure: no store,
/// no clock, no I/O; any string in, a `LinkRoute.Match` or a `LinkError` out, in time linear in
/// the URL's length (which is at most `maximumBytes`).
public struct LinkRouter: Sendable {
    public let graph: IntentGraph
    /// Routes by scheme, in declaration order (apps in name order).
    private let routesByScheme: [String: [(app: String, route: IntentGraph.LinkRoute)]]
    /// The intents routes name, found once.
    private let intents: [QualifiedName: IntentGraph.Intent]
    /// Every enum's cases by folded spoken form (id, title, synonyms), built once: folding is the costly part.
    private let enumTerms: [QualifiedName: [String: String]]

    /// The longest URL accepted, in UTF-8 bytes.
    public static let maximumBytes = 2_048

    public init(graph: IntentGraph) {
        self.graph = graph
        var byScheme: [String: [(app: String, route: IntentGraph.LinkRoute)]] = [:]
        for (app, route) in graph.links { byScheme[route.scheme, default: []].append((app.name, route)) }
        routesByScheme = byScheme
        var intents: [QualifiedName: IntentGraph.Intent] = [:]
        for (_, route) in graph.links { intents[route.intent] = graph.intent(route.intent) }
        self.intents = intents
        var enumTerms: [QualifiedName: [String: String]] = [:]
        for enumeration in graph.enums {
            var terms: [String: String] = [:]
            for item in enumeration.cases {
                for term in [item.id.replacingOccurrences(of: "_", with: " "), item.title] + item.synonyms {
                    let folded = TextFolding.foldPhrase(term)
                    if terms[folded] == nil { terms[folded] = item.id }
                }
            }
            enumTerms[enumeration.name] = terms
        }
        self.enumTerms = enumTerms
    }

    /// A URL matched to a route: the intent and its values, typed (entities still as the id or name written).
    public struct Match: Sendable {
        public let app: String
        public let intent: QualifiedName
        /// The route's template, as written.
        public let route: String
        /// Parameter → value, in the route's slot order; parameters the URL leaves out are absent.
        public let values: [(parameter: String, value: Value)]

        public func value(_ parameter: String) -> Value? {
            values.first { $0.parameter == parameter }?.value
        }
    }

    /// `url` routed, or why not.
    public func route(_ url: String) -> Result<Match, LinkError> {
        do throws(LinkError) {
            return .success(try match(url))
        } catch {
            return .failure(error)
        }
    }

    public func match(_ url: String) throws(LinkError) -> Match {
        let bytes = url.utf8.count
        guard bytes <= Self.maximumBytes else {
            throw LinkError(.tooLong, "the link is \(bytes) bytes long; a link is at most \(Self.maximumBytes) bytes")
        }
        if let bad = url.unicodeScalars.first(where: \.isControl) {
            throw LinkError(
                .controlCharacter, "the link holds a control character (U+\(bad.hex)); links are printable text")
        }
        let parts = try LinkParts(url)
        guard let candidates = routesByScheme[parts.scheme] else {
            let known = routesByScheme.keys.sorted()
            var message = "no app handles '\(parts.scheme):' links"
            if let close = EditDistance.closest(to: parts.scheme, in: known) {
                message += "; did you mean '\(close):'?"
            }
            message += " Schemes: " + known.map { $0 + ":" }.joined(separator: ", ")
            throw LinkError(.unknownScheme, message)
        }
        let onHost = candidates.filter { $0.route.host == parts.host }
        guard !onHost.isEmpty else {
            let apps = Self.appsOf(candidates)
            let hosts = Array(Set(candidates.map(\.route.host))).sorted()
            var message: String
            if parts.scheme == "https" || parts.scheme == "http" {
                message = "no app handles links to \(parts.host)"
            } else {
                message = "\(apps.joined(separator: ", ")) has no route '\(parts.scheme)://\(parts.host)'"
            }
            if let close = EditDistance.closest(to: parts.host, in: hosts) { message += "; did you mean '\(close)'?" }
            throw LinkError(.unknownRoute, message + routeList(candidates))
        }
        guard let (app, route) = onHost.first(where: { Self.pathMatches($0.route, parts.path) }) else {
            throw LinkError(.unknownRoute, "no route matches \(parts.display)" + routeList(onHost))
        }
        guard let intent = intents[route.intent] else {
            throw LinkError(.unknownRoute, "the route '\(route.url)' names no loaded intent")
        }
        var raw: [(slot: String, text: String)] = []
        for (segment, text) in zip(route.path, parts.path) {
            if case .slot(let name) = segment { raw.append((name, text)) }
        }
        for (key, text) in parts.query {
            guard let item = route.query.first(where: { $0.key == key }) else {
                let keys = route.query.map(\.key)
                var message = "the link has the query key '\(key)', which '\(route.url)' does not take"
                if let close = EditDistance.closest(to: key, in: keys) { message += "; did you mean '\(close)'?" }
                message += keys.isEmpty ? " (it takes none)" : " (it takes: \(keys.joined(separator: ", ")))"
                throw LinkError(.unknownQueryKey, message)
            }
            if !text.isEmpty { raw.append((item.slot, text)) }
        }
        var values: [(parameter: String, value: Value)] = []
        for (slot, text) in raw {
            guard let parameter = intent.parameter(slot) else { continue }
            values.append((slot, try typed(text, parameter)))
        }
        return Match(app: app, intent: route.intent, route: route.url, values: values)
    }

    private static func pathMatches(_ route: IntentGraph.LinkRoute, _ path: [String]) -> Bool {
        guard route.path.count == path.count else { return false }
        for (segment, text) in zip(route.path, path) {
            if case .literal(let word) = segment, word.lowercased() != text.lowercased() { return false }
        }
        return true
    }

    private static func appsOf(_ routes: [(app: String, route: IntentGraph.LinkRoute)]) -> [String] {
        var apps: [String] = []
        for entry in routes where !apps.contains(entry.app) { apps.append(entry.app) }
        return apps
    }

    /// The routes of the apps in `routes`, one per line, for an error that lists what would work.
    private func routeList(_ routes: [(app: String, route: IntentGraph.LinkRoute)]) -> String {
        let apps = Self.appsOf(routes)
        var lines: [String] = []
        for app in apps {
            lines.append("\n\(app)'s routes:")
            for route in graph.app(named: app)?.links ?? [] {
                lines.append("  \(route.url) → \(route.intent.name)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A slot's text as a value of its parameter's type (also a widget's `--set name=value`).
    package func typed(_ text: String, _ parameter: IntentGraph.Parameter) throws(LinkError) -> Value {
        func bad(_ expected: String) -> LinkError {
            LinkError(.badValue, "“\(text)” is not \(expected), as '\(parameter.name)' needs")
        }
        switch parameter.type {
        case .string:
            return .string(text)
        case .integer:
            guard let number = Int(text) else { throw bad("a whole number") }
            return .integer(number)
        case .number:
            guard let number = Double(text), number.isFinite else { throw bad("a number") }
            return .number(number)
        case .boolean:
            switch text.lowercased() {
            case "true", "yes", "1", "on": return .boolean(true)
            case "false", "no", "0", "off": return .boolean(false)
            default: throw bad("true or false")
            }
        case .date:
            guard let date = DateValue.parse(text) else { throw bad("a date (2026-03-01, 2026-03-01T09:00, tomorrow)") }
            return .date(date)
        case .duration:
            guard let seconds = DurationText.parse(text) else { throw bad("a duration (25m, 1h30m, 90s)") }
            return .duration(seconds: seconds)
        case .url:
            let lower = text.lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), text.count > 8 else {
                throw bad("a web address (https://…)")
            }
            return .url(text)
        case .enumeration(let name):
            guard let enumeration = graph.enumeration(name) else { throw bad("a \(name.name)") }
            if let match = enumeration.cases.first(where: { $0.id == text }) { return .enumCase(match.id) }
            let folded = TextFolding.foldPhrase(text.replacingOccurrences(of: "_", with: " "))
            if let id = enumTerms[name]?[folded] { return .enumCase(id) }
            throw LinkError(
                .badValue,
                "“\(text)” is not a \(name.name), as '\(parameter.name)' needs; one of: "
                    + enumeration.cases.map(\.id).joined(separator: ", "))
        case .entity:
            return .string(text)
        case .array:
            throw bad("a single value")
        }
    }
}

/// Why a link was refused. `code` is stable for scripts (`--json`); `message` says it to people.
public struct LinkError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable, CaseIterable {
        case tooLong = "too_long"
        case controlCharacter = "control_character"
        case malformed
        case badEscape = "bad_escape"
        case dotSegment = "dot_segment"
        case unknownScheme = "unknown_scheme"
        case unknownRoute = "unknown_route"
        case duplicateQueryKey = "duplicate_query_key"
        case unknownQueryKey = "unknown_query_key"
        case badValue = "bad_value"
        case noSuchEntity = "no_such_entity"
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

/// A URL taken apart: scheme and host in lower case, path segments and query items percent-decoded.
struct LinkParts {
    var scheme: String
    var host: String
    var path: [String] = []
    var query: [(key: String, value: String)] = []
    /// `scheme://host/path`, for messages.
    var display: String { scheme + "://" + host + path.map { "/" + $0 }.joined() }

    init(_ url: String) throws(LinkError) {
        var rest = Substring(url.trimmed)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        guard let colon = rest.firstIndex(of: ":"), colon > rest.startIndex else {
            throw LinkError(.malformed, "“\(Self.clip(url))” is not a link: it has no scheme (radar://…)")
        }
        let scheme = rest[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
            scheme.unicodeScalars.allSatisfy({
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
            })
        else {
            throw LinkError(.malformed, "“\(Self.clip(String(scheme)))” is not a URL scheme")
        }
        self.scheme = scheme.lowercased()
        rest = rest[rest.index(after: colon)...]
        guard rest.hasPrefix("//") else {
            throw LinkError(.malformed, "a link has '//' after its scheme: \(self.scheme)://…")
        }
        rest = rest.dropFirst(2)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var host = String(rest[..<authorityEnd]).lowercased()
        if host.contains("@") { throw LinkError(.malformed, "a link cannot carry a user name or password") }
        if self.scheme == "https" || self.scheme == "http", let port = host.lastIndex(of: ":"),
            host[host.index(after: port)...].allSatisfy(\.isNumber)
        {
            host = String(host[..<port])
        }
        guard !host.isEmpty else { throw LinkError(.malformed, "the link has no host after '\(self.scheme)://'") }
        self.host = try Self.decode(host, plusIsSpace: false)
        rest = rest[authorityEnd...]
        let queryStart = rest.firstIndex(of: "?") ?? rest.endIndex
        var segments = rest[..<queryStart].split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        while segments.last?.isEmpty == true { segments.removeLast() }  // trailing slashes
        for segment in segments {
            guard !segment.isEmpty else { throw LinkError(.malformed, "the link has an empty path segment ('//')") }
            let decoded = try Self.decode(String(segment), plusIsSpace: false)
            if segment == "." || segment == ".."
                || decoded.split(separator: "/", omittingEmptySubsequences: false)
                    .contains(where: { $0 == ".." || $0 == "." })
            {
                throw LinkError(.dotSegment, "the link has a '\(segment)' segment; links name things, not folders")
            }
            path.append(decoded)
        }
        if queryStart < rest.endIndex {
            var seen: Set<String> = []
            for item in rest[rest.index(after: queryStart)...].split(separator: "&") where !item.isEmpty {
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = try Self.decode(String(pair[0]), plusIsSpace: true)
                let value = pair.count == 2 ? try Self.decode(String(pair[1]), plusIsSpace: true) : ""
                guard seen.insert(key).inserted else {
                    throw LinkError(.duplicateQueryKey, "the query key '\(key)' appears more than once")
                }
                query.append((key, value))
            }
        }
    }

    /// `%XX` escapes (and `+` in queries) decoded; the result must be UTF-8 text without control characters.
    static func decode(_ text: String, plusIsSpace: Bool) throws(LinkError) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "+"), plusIsSpace {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    throw LinkError(.badEscape, "the link has a '%' that is not followed by two hex digits")
                }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw LinkError(.badEscape, "a %-escape in the link does not decode to UTF-8 text")
        }
        if let bad = decoded.unicodeScalars.first(where: \.isControl) {
            throw LinkError(
                .controlCharacter,
                "the link holds an escaped control character (U+\(bad.hex)); links are printable text")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func clip(_ text: String) -> String {
        text.count > 60 ? String(text.prefix(60)) + "…" : text
    }
}

extension Unicode.Scalar {
    /// C0 and C1 controls and DEL.
    fileprivate var isControl: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
    fileprivate var hex: String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
