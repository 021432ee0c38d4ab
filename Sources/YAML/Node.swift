/// A YAML node with its source range. Equality ignores positions.
public struct Node: Sendable, Equatable, CustomStringConvertible {
    /// What the node holds.
    public enum Kind: Sendable, Equatable {
        case scalar(Scalar)
        case sequence([Node])
        case mapping([Pair])
    }

    /// A key and its value, in the order they were written.
    public struct Pair: Sendable, Equatable {
        public var key: Node
        public var value: Node

        public init(key: Node, value: Node) {
            self.key = key
            self.value = value
        }
    }

    public var kind: Kind
    /// The explicit tag (`!!str`, `!custom`), if one was written.
    public var tag: String?
    public var range: SourceRange

    public init(kind: Kind, tag: String? = nil, range: SourceRange) {
        self.kind = kind
        self.tag = tag
        self.range = range
    }

    public static func == (lhs: Node, rhs: Node) -> Bool {
        lhs.kind == rhs.kind && lhs.tag == rhs.tag
    }

    /// Where the node starts.
    public var mark: Mark { range.start }

    public var scalar: Scalar? {
        if case .scalar(let scalar) = kind { return scalar }
        return nil
    }

    public var sequence: [Node]? {
        if case .sequence(let items) = kind { return items }
        return nil
    }

    public var mapping: [Pair]? {
        if case .mapping(let pairs) = kind { return pairs }
        return nil
    }

    /// The scalar's text when the node is a scalar that is not null.
    public var string: String? {
        // The scalar read once: through `scalar` and `isNull` it was copied twice a key.
        guard case .scalar(let scalar) = kind else { return nil }
        if scalar.style == .plain, Self.isNull(scalar.value, tag: tag) { return nil }
        return scalar.value
    }

    /// True for `~`, `null`, `Null`, `NULL` and an empty plain scalar.
    public var isNull: Bool {
        guard case .scalar(let scalar) = kind, scalar.style == .plain else { return false }
        return Self.isNull(scalar.value, tag: tag)
    }

    /// Whether a plain scalar's text (with its tag) is null.
    private static func isNull(_ value: String, tag: String?) -> Bool {
        guard tag == nil || tag == "tag:yaml.org,2002:null" else { return false }
        // By length first: every key read asks, and most scalars are none of these.
        switch value.utf8.count {
        case 0: return true
        case 1: return value == "~"
        case 4: return value == "null" || value == "Null" || value == "NULL"
        default: return false
        }
    }

    /// A plain `true`/`false` (any case) as a Bool.
    public var bool: Bool? {
        guard let scalar, scalar.style == .plain else { return nil }
        switch scalar.value.lowercased() {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }

    /// A plain integer scalar (decimal, `0x`, `0o`, with an optional sign) as an Int.
    public var int: Int? {
        guard let scalar, scalar.style == .plain else { return nil }
        return Self.parseInteger(scalar.value)
    }

    /// A plain number scalar as a Double (integers included).
    public var double: Double? {
        guard let scalar, scalar.style == .plain else { return nil }
        if let int = Self.parseInteger(scalar.value) { return Double(int) }
        let text = String(scalar.value.filter { $0 != "_" })
        guard text.contains(where: { $0.isNumber }), let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// The value for `key` in a mapping node.
    public subscript(key: String) -> Node? {
        mapping?.first { $0.key.string == key }?.value
    }

    public var description: String {
        switch kind {
        case .scalar(let scalar): return scalar.value
        case .sequence(let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .mapping(let pairs):
            return "{" + pairs.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }

    static func parseInteger(_ text: String) -> Int? {
        // Decimal digits alone, as nearly every number is written: read as they stand.
        if text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return Int(text) }
        var body = Substring(text.filter { $0 != "_" })
        var negative = false
        if let sign = body.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            body = body.dropFirst()
        }
        guard !body.isEmpty else { return nil }
        let magnitude: Int?
        if body.hasPrefix("0x") {
            magnitude = Int(body.dropFirst(2), radix: 16)
        } else if body.hasPrefix("0o") {
            magnitude = Int(body.dropFirst(2), radix: 8)
        } else if body.allSatisfy({ $0.isASCII && $0.isNumber }) {
            magnitude = Int(body)
        } else {
            magnitude = nil
        }
        return magnitude.map { negative ? -$0 : $0 }
    }
}

/// A scalar's text and how it was written.
public struct Scalar: Sendable, Equatable {
    public enum Style: Sendable, Equatable {
        case plain, singleQuoted, doubleQuoted, literal, folded
    }

    public var value: String
    public var style: Style

    public init(value: String, style: Style = .plain) {
        self.value = value
        self.style = style
    }
}
