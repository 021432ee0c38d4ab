public import Foundation
public import IntentModel

/// The counters a donation adds to, per intent, so suggestions read a few hundred numbers instead
/// of every donation: `n` (all), `h:09` (hour, local), `w:2` (weekday, 1 = Sunday), `after:App.Intent`
/// (the intent run before it), `day:2026-11-23` (for recency), `v:name=json` (a parameter's value).
public enum SuggestionKeys {
    static func keys(parameters: [String: JSONValue], at: Date, previous: String?, clock: Clock) -> [String] {
        let parts = clock.calendar.dateComponents([.hour, .weekday], from: at)
        var keys = [
            "n", "h:" + digits(parts.hour ?? 0, 2), "w:\(parts.weekday ?? 1)", dayKey(at, clock: clock),
        ]
        if let previous { keys.append("after:" + previous) }
        for (name, value) in parameters.sorted(by: { $0.key < $1.key }) {
            keys.append("v:\(name)=" + JSONText.compact(value))
        }
        return keys
    }

    /// `day:2026-11-23`, in the clock's zone.
    public static func dayKey(_ date: Date, clock: Clock) -> String {
        let parts = clock.calendar.dateComponents([.year, .month, .day], from: date)
        return "day:" + digits(parts.year ?? 0, 4) + "-" + digits(parts.month ?? 0, 2) + "-" + digits(parts.day ?? 0, 2)
    }

    /// `number` with zeros before it up to `width` digits, as `%02d` writes it (`String(format:)`
    /// goes through `NSString` on Linux: two of them were a hundredth of an executing request).
    static func digits(_ number: Int, _ width: Int) -> String {
        let text = String(number)
        return text.count >= width || number < 0 ? text : String(repeating: "0", count: width - text.count) + text
    }
}
