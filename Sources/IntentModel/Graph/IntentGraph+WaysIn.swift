public import YAML

/// The ways into an app besides a phrase: deep links (`links:`), share routes (`share:`) and
/// activities that can be continued elsewhere (`activity:` on an intent).
extension IntentGraph {
    /// A route from URLs to an intent: `radar://open/{radar}`, `radar://create?topic={topic}`.
    public struct LinkRoute: Sendable {
        /// One part of the path: a word that must be there, or a slot that takes a parameter's value.
        public enum Segment: Sendable, Hashable {
            case literal(String)
            case slot(String)
        }

        /// `key={slot}` in the query: the key in the URL, the parameter it fills.
        public struct QueryItem: Sendable, Hashable {
            public let key: String
            public let slot: String

            package init(key: String, slot: String) {
                self.key = key
                self.slot = slot
            }
        }

        /// The template as written.
        public let url: String
        /// Lower case: `radar`, `https`.
        public let scheme: String
        /// Lower case: `open` in `radar://open/…`, `radar.app` in `https://radar.app/…`.
        public let host: String
        public let path: [Segment]
        public let query: [QueryItem]
        public let intent: QualifiedName
        public let location: SourceRange

        package init(
            url: String, scheme: String, host: String, path: [Segment], query: [QueryItem], intent: QualifiedName,
            location: SourceRange
        ) {
            self.url = url
            self.scheme = scheme
            self.host = host
            self.path = path
            self.query = query
            self.intent = intent
            self.location = location
        }

        /// An `https:` or `http:` route: a universal link.
        public var isUniversal: Bool { scheme == "https" || scheme == "http" }

        /// The slots of the path, in order.
        public var pathSlots: [String] {
            path.compactMap {
                if case .slot(let name) = $0 { return name }
                return nil
            }
        }

        /// Every slot, path first, then query.
        public var slots: [String] { pathSlots + query.map(\.slot) }

        /// Whether some URL would match both routes: same scheme and host, as many path segments,
        /// and at each position equal words or a slot on either side. (Query items are optional, so
        /// they never tell two routes apart.)
        public func overlaps(_ other: LinkRoute) -> Bool {
            guard scheme == other.scheme, host == other.host, path.count == other.path.count else { return false }
            for (mine, theirs) in zip(path, other.path) {
                if case .literal(let a) = mine, case .literal(let b) = theirs, a != b { return false }
            }
            return true
        }

        /// The route's URL with its slots filled (percent-encoded); query items without a value are left out.
        public func link(_ values: [String: String]) -> String {
            var text = scheme + "://" + host
            for segment in path {
                switch segment {
                case .literal(let word): text += "/" + Self.percentEncoded(word)
                case .slot(let name): text += "/" + Self.percentEncoded(values[name] ?? "")
                }
            }
            let items = query.compactMap { item in
                values[item.slot].map { Self.percentEncoded(item.key) + "=" + Self.percentEncoded($0) }
            }
            if !items.isEmpty { text += "?" + items.joined(separator: "&") }
            return text
        }

        /// Everything but the unreserved characters of RFC 3986 (`A–Z a–z 0–9 - . _ ~`) as `%XX`.
        public static func percentEncoded(_ text: String) -> String {
            var result = ""
            result.reserveCapacity(text.utf8.count)
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                    UInt8(ascii: "~"):
                    result.unicodeScalars.append(Unicode.Scalar(byte))
                default:
                    let hex = Array("0123456789ABCDEF")
                    result += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0x0F)])
                }
            }
            return result
        }
    }

    /// What an app accepts when content is shared to it, like a share extension's activation rule.
    public struct ShareRoute: Sendable {
        /// Kinds of shared content.
        public enum Content: String, Sendable, CaseIterable, Hashable {
            case url, text, image, movie, file

            /// "web page", "text", "image", …, for messages.
            public var noun: String {
                switch self {
                case .url: "web page"
                case .text: "text"
                case .image: "image"
                case .movie: "movie"
                case .file: "file"
                }
            }

            /// "3 web pages", "1 text".
            public func counted(_ count: Int) -> String {
                "\(count) \(noun)" + (count == 1 || self == .text ? "" : "s")
            }
        }

        public let accepts: [Content]
        /// At most this many items in one share.
        public let maximumCount: Int?
        /// Each file at most this many bytes.
        public let maximumSize: Int?
        public let intent: QualifiedName
        /// Parameter values from the shared item (`with:`); parameters named like a share variable are filled by name.
        public let arguments: [Assignment]
        public let location: SourceRange

        package init(
            accepts: [Content], maximumCount: Int?, maximumSize: Int?, intent: QualifiedName, arguments: [Assignment],
            location: SourceRange
        ) {
            self.accepts = accepts
            self.maximumCount = maximumCount
            self.maximumSize = maximumSize
            self.intent = intent
            self.arguments = arguments
            self.location = location
        }

        /// Whether an item of this kind is taken: images and movies are files too.
        public func takes(_ content: Content) -> Bool {
            accepts.contains(content) || ((content == .image || content == .movie) && accepts.contains(.file))
        }

        /// The names a share route's `with:` can read, with their types: every item has all of them,
        /// nil where they do not apply (`url` of a text).
        public static let variables: [(name: String, type: ValueType)] = [
            ("url", .url), ("text", .string), ("title", .string), ("path", .string), ("name", .string),
            ("type", .string), ("size", .integer), ("kind", .string),
        ]
    }

    /// Using an intent as an activity another shell can continue (NSUserActivity).
    public struct Activity: Sendable {
        public enum Eligibility: String, Sendable, CaseIterable, Hashable {
            case handoff, search, prediction
        }

        /// `view-radar`.
        public let type: String
        /// A template over the intent's parameters and bindings.
        public let title: Template?
        public let eligible: [Eligibility]
        /// Seconds after which the activity is no longer offered (default 8 hours).
        public let expiry: Int
        public let keywords: [String]

        public static let defaultExpiry = 8 * 3600

        package init(type: String, title: Template?, eligible: [Eligibility], expiry: Int, keywords: [String]) {
            self.type = type
            self.title = title
            self.eligible = eligible
            self.expiry = expiry
            self.keywords = keywords
        }
    }

    /// Every app's link routes, apps in name order, routes in declaration order.
    public var links: [(app: App, route: LinkRoute)] {
        apps.flatMap { app in app.links.map { (app, $0) } }
    }

    /// The entity's canonical link: the first route (its own app's first) to an intent that opens
    /// something (`result.open`) whose one path slot takes this entity. Filled with the record's id.
    public func canonicalLink(for entity: QualifiedName) -> (route: LinkRoute, slot: String)? {
        let ordered = links.filter { $0.app.name == entity.app } + links.filter { $0.app.name != entity.app }
        for (_, route) in ordered {
            guard let intent = intent(route.intent), intent.opens != nil, route.pathSlots.count == 1,
                let slot = route.pathSlots.first, intent.parameter(slot)?.type == .entity(entity)
            else { continue }
            return (route, slot)
        }
        return nil
    }

    /// The canonical link of the record `id` of `entity`, if the entity has one.
    public func canonicalLink(for entity: QualifiedName, id: String) -> String? {
        canonicalLink(for: entity).map { $0.route.link([$0.slot: id]) }
    }
}
