/// Why a suggestion ranks where it does: a naive-Bayes log score in parts, each printable.
///
/// `frequency` is log P(intent) over the donations; `recency` how much more (or less) it was done
/// lately than on average (daily counts decayed with a half-life of 14 days); `timeOfDay`,
/// `dayOfWeek` and `sequence` are lifts, log P(feature | intent) / P(feature), of the hour (±1 h),
/// the weekday, and the intent run just before. Zero means "says nothing either way".
public struct SuggestionScore: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var frequency = 0.0
    public var recency = 0.0
    public var timeOfDay = 0.0
    public var dayOfWeek = 0.0
    public var sequence = 0.0

    public init() {}

    public var total: Double { frequency + recency + timeOfDay + dayOfWeek + sequence }

    public var parts: [(name: String, value: Double)] {
        [
            ("frequency", frequency), ("recency", recency), ("time of day", timeOfDay), ("day of week", dayOfWeek),
            ("sequence", sequence),
        ]
    }

    /// Better suggestions are smaller: they sort first.
    public static func < (lhs: SuggestionScore, rhs: SuggestionScore) -> Bool { lhs.total > rhs.total }

    public var description: String {
        parts.map { "\($0.name) \(Self.format($0.value))" }.joined(separator: ", ") + " = \(Self.format(total))"
    }

    static func format(_ value: Double) -> String {
        let text = String(format: "%+.2f", value)
        return text == "-0.00" ? "+0.00" : text
    }
}
