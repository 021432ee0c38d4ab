public import YAML

/// A value from a definition file and the range it was written at.
public struct Located<Value: Sendable>: Sendable {
    public var value: Value
    public var range: SourceRange

    public init(_ value: Value, at range: SourceRange) {
        self.value = value
        self.range = range
    }
}

extension Located: Equatable where Value: Equatable {
    /// Positions are not part of a value's identity.
    public static func == (lhs: Located, rhs: Located) -> Bool { lhs.value == rhs.value }
}

extension Located: Hashable where Value: Hashable {
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
