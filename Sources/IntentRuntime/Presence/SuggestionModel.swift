import Foundation
public import IntentModel
import ModelStore

/// Siri Suggestions for a prompt: from the donations' counts, the intents most likely to be done
/// next, each as a concrete invocation with the parameter values the user keeps using.
public struct SuggestionModel: Sendable {
    let graph: IntentGraph
    /// Days after which a day's donations weigh half.
    public static let halfLife = 14.0
    /// A parameter's value is suggested when it repeated and at least this share of the intent's donations had it.
    public static let stableShare = 0.3
    /// Smoothing added to every count.
    static let alpha = 0.5

    public init(graph: IntentGraph) {
        self.graph = graph
    }

    /// The ranked suggestions at `now`, after `last` (the intent run last, if any).
    public func suggest(
        counts: [String: [String: Int]], now: Date, last: String?, clock: Clock, limit: Int = 3
    ) -> [Suggestion] {
        let parts = clock.calendar.dateComponents([.hour, .weekday], from: now)
        let hour = parts.hour ?? 0, weekday = parts.weekday ?? 1
        let hours = [(hour + 23) % 24, hour, (hour + 1) % 24].map { "h:" + String(format: "%02d", $0) }
        let intents = counts.keys.compactMap { name -> (IntentGraph.Intent, [String: Int])? in
            guard let intent = graph.intents(named: name).first, intent.suggests, let own = counts[name] else {
                return nil
            }
            return (intent, own)
        }
        guard !intents.isEmpty else { return [] }
        let a = Self.alpha
        let kinds = Double(intents.count)
        func total(_ key: String) -> Double { Double(intents.reduce(0) { $0 + ($1.1[key] ?? 0) }) }
        let all = total("n")
        let hourAll = hours.reduce(0) { $0 + total($1) }
        let weekdayAll = total("w:\(weekday)")
        let afterAll = last.map { total("after:" + $0) } ?? 0
        let today = Self.dayNumber(SuggestionKeys.dayKey(now, clock: clock)) ?? 0

        var suggestions: [Suggestion] = []
        for (intent, own) in intents {
            let n = Double(own["n"] ?? 0)
            guard n > 0 else { continue }
            var score = SuggestionScore()
            score.frequency = log((n + a) / (all + a * kinds))
            var decayed = 0.0, recent = 0.0
            for (key, count) in own where key.hasPrefix("day:") {
                guard let day = Self.dayNumber(key) else { continue }
                let age = Double(max(0, today - day))
                decayed += Double(count) * pow(0.5, age / Self.halfLife)
                recent += Double(count)
            }
            // Within the window of days kept: the decayed share against the plain one.
            score.recency = log((decayed + a) / (recent + a))
            let hourCount = hours.reduce(0.0) { $0 + Double(own[$1] ?? 0) }
            score.timeOfDay = log(((hourCount + a) / (n + 8 * a)) / ((hourAll + a) / (all + 8 * a)))
            let dayCount = Double(own["w:\(weekday)"] ?? 0)
            score.dayOfWeek = log(((dayCount + a) / (n + 7 * a)) / ((weekdayAll + a) / (all + 7 * a)))
            if let last {
                let after = Double(own["after:" + last] ?? 0)
                score.sequence = log(((after + a) / (n + (kinds + 1) * a)) / ((afterAll + a) / (all + (kinds + 1) * a)))
            }
            suggestions.append(
                Suggestion(
                    intent: intent.name, title: intent.title, parameters: stableValues(intent, own, n: n), score: score,
                    confidence: 0, graph: graph))
        }
        suggestions.sort { $0.score.total != $1.score.total ? $0.score.total > $1.score.total : $0.title < $1.title }
        // Confidence: the softmax of the totals.
        let best = suggestions.first?.score.total ?? 0
        let sum = suggestions.reduce(0.0) { $0 + exp($1.score.total - best) }
        for index in suggestions.indices {
            suggestions[index].confidence = exp(suggestions[index].score.total - best) / sum
        }
        return Array(suggestions.prefix(limit))
    }

    /// `day:2026-11-23` → days since 1970-01-01 (civil calendar arithmetic, no Foundation dates:
    /// this runs for every day of every intent on each suggestion).
    static func dayNumber(_ key: String) -> Int? {
        let digits = key.utf8.dropFirst(4).split(separator: UInt8(ascii: "-")).map { part in
            part.reduce(0) { $0 * 10 + Int($1) - 48 }
        }
        guard digits.count == 3 else { return nil }
        let (year, month, day) = (digits[0] - (digits[1] <= 2 ? 1 : 0), digits[1], digits[2])
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The donated parameters whose most frequent value is used often enough to offer it.
    private func stableValues(_ intent: IntentGraph.Intent, _ own: [String: Int], n: Double) -> [(String, JSONValue)] {
        var values: [(String, JSONValue)] = []
        for name in intent.donate {
            let prefix = "v:\(name)="
            guard
                let (key, count) = own.filter({ $0.key.hasPrefix(prefix) }).max(by: {
                    ($0.value, $1.key) < ($1.value, $0.key)
                }), count >= 2, Double(count) / n >= Self.stableShare,
                let value = try? JSONText.decode(JSONValue.self, from: String(key.dropFirst(prefix.count)))
            else { continue }
            values.append((name, value))
        }
        return values
    }
}

/// One suggested invocation: an intent with the parameter values to run it with.
public struct Suggestion: Sendable {
    public let intent: QualifiedName
    public let title: String
    /// Values in the order of the intent's `donate:`; the rest is asked when it runs.
    public let parameters: [(String, JSONValue)]
    public let score: SuggestionScore
    /// Its share of the softmax over all candidates, 0…1.
    public var confidence: Double
    /// `Start Focus Block · “deep work”, 50 minutes`: the title and the values, enum cases by title.
    public let text: String

    init(
        intent: QualifiedName, title: String, parameters: [(String, JSONValue)], score: SuggestionScore,
        confidence: Double, graph: IntentGraph
    ) {
        self.intent = intent
        self.title = title
        self.parameters = parameters
        self.score = score
        self.confidence = confidence
        let declared = graph.intent(intent)
        let values = parameters.map { name, value -> String in
            let type = declared?.parameter(name)?.type
            switch value {
            case .string(let text):
                if let enumName = type?.enumName, let title = graph.enumeration(enumName)?.case(text)?.title {
                    return title.lowercased()
                }
                return "“\(text)”"
            case .object(let fields):
                if case .string(let title)? = fields["title"] { return "“\(title)”" }
                return JSONText.compact(value)
            case .integer(let number): return "\(number) \(name)"
            default: return JSONText.compact(value)
            }
        }
        text = ([title] + (values.isEmpty ? [] : [values.joined(separator: ", ")])).joined(separator: " · ")
    }
}

extension SuggestionModel {
    /// The intents suggestions may offer: those that donate and do not say `suggest: false`.
    public var candidates: [String] {
        graph.intents.filter { !$0.donate.isEmpty && $0.suggests }.map(\.name.description)
    }

    /// The suggestions the store's donations give at `now`, after the last executed intent.
    public func suggest(store: Store, now: Date, limit: Int = 3) throws -> [Suggestion] {
        let (counts, last) = try store.read { transaction in
            (try transaction.suggestionCounts(intents: candidates, now: now), try transaction.lastExecutedIntent())
        }
        return suggest(counts: counts, now: now, last: last, clock: store.clock, limit: limit)
    }
}
