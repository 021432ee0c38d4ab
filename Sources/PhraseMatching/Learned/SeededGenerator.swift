/// SplitMix64: the one source of chance in training, ours, so that a model is the same bit for bit
/// on every run (no `SystemRandomNumberGenerator`, no stdlib sampling whose algorithm may change).
public struct SeededGenerator: Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number in `0..<count` (`count` > 0).
    public mutating func below(_ count: Int) -> Int { Int(next() % UInt64(count)) }

    /// One element of a non-empty array.
    public mutating func pick<T>(_ elements: [T]) -> T { elements[below(elements.count)] }

    /// True with probability `numerator / denominator`.
    public mutating func chance(_ numerator: Int, in denominator: Int) -> Bool { below(denominator) < numerator }

    /// A generator of one unit of training (a phrase template, a sentence), seeded by `seed` and what
    /// the unit is (`key`, a `StableHash` of its names): what is drawn for it does not depend on how
    /// many draws other units made before it. With one generator for everything, adding an unrelated
    /// intent moved every later draw, and the classifier was another model (BENCHMARKS.md, para9).
    init(seed: UInt64, key: UInt64) { state = Self.mixed(seed ^ Self.mixed(key)) }

    /// SplitMix64's finalizer: a well-spread 64-bit function of `value`.
    static func mixed(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// FNV-1a, 64 bits: the definitions' hash and the cache's checksum (stable across processes, unlike `Hasher`).
struct StableHash {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01B3
        }
    }

    mutating func add(_ text: String) {
        add(text.utf8)
        add(CollectionOfOne(0xFF))
    }

    /// The hash of `parts`, each ended as `add(_:)` ends it.
    static func of(_ parts: String...) -> UInt64 {
        var hash = StableHash()
        for part in parts { hash.add(part) }
        return hash.value
    }
}
