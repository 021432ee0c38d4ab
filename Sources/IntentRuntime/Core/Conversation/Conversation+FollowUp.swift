import Foundation
import IntentModel
import ModelStore
import PhraseMatching

/// A follow-up carried the last request's parameters over and replaced one ("and libra?" after
/// "how compatible are leo and virgo"): which one was replaced, which were kept.
public struct FollowUp: Sendable, Hashable {
    /// The parameter the follow-up named a new value for.
    public var replaced: String
    /// The parameters taken from the last request as they were.
    public var kept: [String]

    public init(replaced: String, kept: [String]) {
        self.replaced = replaced
        self.kept = kept
    }

    /// One line for `explain` and the REPL: "follow-up of Check Compatibility: theirSign replaced; yourSign carried over".
    public func line(intent: String) -> String {
        let kept = self.kept.isEmpty ? "" : "; carried over: " + self.kept.joined(separator: ", ")
        return "follow-up of \(intent): \(replaced) replaced\(kept)"
    }
}

/// Conversation context: a sentence that names only a new value, after words like "and", "what
/// about" or "do the same for", reruns the last request with that value in place of the one of its
/// kind. Only a sentence no template reads is looked at (an explicit request is never a
/// follow-up), only within `ConversationState.followUpWindow` of the last request, and a rerun
/// that deletes or confirms still asks, `--yes` or not.
extension Conversation {
    struct FollowUpReading {
        var intent: IntentGraph.Intent
        var values: [String: Datum]
        var parameter: String
        var value: Value
        var language: String?
    }

    /// Words that open a follow-up, folded, longest first so that "and what about" wins over "and".
    static let followUpOpeners: [[String]] = [
        "and what about", "and how about", "what about", "how about", "do the same for", "the same for",
        "same for", "same with", "and for", "and in", "and with", "and on", "and at", "now for", "then for",
        "and", "und was ist mit", "was ist mit", "wie ist es mit", "wie wäre es mit", "und für", "und mit",
        "und in", "dasselbe für", "das gleiche für", "und",
    ].map { Normalizer.foldedWords($0).split(separator: " ").map(String.init) }.sorted { $0.count > $1.count }

    /// Words left out before the value: articles ("and the kitchen?"), "also", "just".
    static let followUpArticles: Set<String> = [
        "the", "a", "an", "my", "also", "just", "der", "die", "das", "den", "dem", "mein", "meine", "auch", "nur",
    ]

    /// Words around a follow-up that carry nothing: before the opener ("ok and libra?") and after the
    /// value ("what about libra then", "und waage auch").
    static let followUpLeading: Set<String> = [
        "ok", "okay", "so", "well", "hmm", "um", "uh", "oh", "also", "gut", "na",
    ]
    static let followUpTrailing: Set<String> = [
        "then", "instead", "too", "please", "now", "also", "as", "well", "dann", "bitte", "auch", "stattdessen",
        "jetzt",
    ]

    /// `text` read as a follow-up of the last request, or nil.
    func followUp(_ text: String, clock: Clock) -> FollowUpReading? {
        guard let last, clock.now.timeIntervalSince(last.at) <= ConversationState.followUpWindow,
            clock.now >= last.at, let intent = session.graph.intents(named: last.intent).first
        else { return nil }
        var words = Normalizer.foldedWords(text).split(separator: " ").map(String.init)
        while let first = words.first, Self.followUpLeading.contains(first), words.count > 2 { words.removeFirst() }
        while let last = words.last, Self.followUpTrailing.contains(last), words.count > 2 { words.removeLast() }
        // "the other one", "and the other one?", "what about the other one": the one value left.
        let opener = Self.followUpOpeners.first(where: { words.starts(with: $0) && words.count > $0.count })
        var named = Array(words.dropFirst(opener?.count ?? 0))
        while let first = named.first, Self.followUpArticles.contains(first), named.count > 1 { named.removeFirst() }
        if Self.otherOne.contains(named) {
            return otherOne(of: intent, last: last, clock: clock)
        }
        guard let opener else { return nil }
        var rest = Array(words.dropFirst(opener.count))
        var remainders = [rest.joined(separator: " ")]
        while let first = rest.first, Self.followUpArticles.contains(first), rest.count > 1 {
            rest.removeFirst()
            remainders.append(rest.joined(separator: " "))
        }
        let matcher = session.matcher(clock: clock)
        // The last parameter of the value's kind: "and libra" after "leo and virgo" is their sign.
        for parameter in intent.parameters.reversed() {
            for remainder in remainders {
                guard let value = value(remainder, for: parameter, matcher) else { continue }
                // The other values as they were (a record among them still there: the replaced one
                // may be gone, as after a delete).
                var values: [String: Datum] = [:]
                for (name, json) in last.values where name != parameter.name {
                    guard intent.parameter(name) != nil, let datum = try? decode(datum: json) else { return nil }
                    values[name] = datum
                }
                return FollowUpReading(
                    intent: intent, values: values, parameter: parameter.name, value: value,
                    language: last.language ?? options.language)
            }
        }
        return nil
    }

    /// Words that ask for the other of two values ("the other one", "die andere"), articles left out.
    static let otherOne: Set<[String]> = [
        ["other", "one"], ["other"], ["andere"], ["anderen"], ["anderes"], ["andere", "da"],
    ]

    /// The last request again with the other of two values: of the last parameter said whose type
    /// has exactly two (an enum of two cases, a boolean, an entity with two records). Nil when no
    /// parameter has, or when two do (which one is meant is not said).
    private func otherOne(of intent: IntentGraph.Intent, last: ConversationState.LastRequest, clock: Clock)
        -> FollowUpReading?
    {
        var values: [String: Datum] = [:]
        for (name, json) in last.values {
            guard intent.parameter(name) != nil, let datum = try? decode(datum: json) else { return nil }
            values[name] = datum
        }
        var found: [(parameter: String, value: Value)] = []
        for parameter in intent.parameters {
            guard let datum = values[parameter.name], !datum.isNull,
                let other = otherValue(than: datum, type: parameter.type)
            else { continue }
            found.append((parameter.name, other))
        }
        guard found.count == 1, let only = found.first else { return nil }
        values[only.parameter] = nil
        return FollowUpReading(
            intent: intent, values: values, parameter: only.parameter, value: only.value,
            language: last.language ?? options.language)
    }

    /// The one other value of `type` than `datum`, when the type has exactly two.
    private func otherValue(than datum: Datum, type: ValueType) -> Value? {
        switch (type, datum) {
        case (.boolean, .boolean(let flag)):
            return .boolean(!flag)
        case (.enumeration(let name), .enumCase(_, let id)):
            guard let cases = session.graph.enumeration(name)?.cases, cases.count == 2 else { return nil }
            return cases.first { $0.id != id }.map { .enumCase($0.id) }
        case (.entity(let name), .entity(let record)):
            guard let entity = session.graph.entity(name), let property = entity.matchBy.first,
                let records = try? session.store.read({ try $0.fetch(RecordQuery(entity: name, limit: 3)) }),
                records.count == 2, let other = records.first(where: { $0.id != record.id }),
                case .string(let text)? = other.values[property]
            else { return nil }
            return .string(text)
        default:
            return nil
        }
    }

    /// `text` as a value of `parameter`, when it is plainly one: free text never is (anything would
    /// be), an entity only by one of its names.
    private func value(_ text: String, for parameter: IntentGraph.Parameter, _ matcher: Matcher) -> Value? {
        switch parameter.type {
        case .string, .url, .boolean, .array:
            return nil
        case .entity(let entity):
            let named = session.names.lookup(text, entity: entity).contains { $0.distance == 0 }
            return named ? .string(text) : nil
        default:
            return matcher.parseValue(text, as: parameter.type)
        }
    }

    /// Reruns the last request with the follow-up's value in place.
    func carryOver(_ reading: FollowUpReading, clock: Clock) -> Answer {
        var values = reading.values
        values[reading.parameter] = nil
        let kept = reading.intent.parameters.map(\.name).filter {
            $0 != reading.parameter && !(values[$0]?.isNull ?? true)
        }
        // A rerun is a guess about what was meant: deletes and confirmations still ask, even with --yes.
        pending = Pending(
            intent: reading.intent, values: values, raw: [reading.parameter: reading.value],
            language: reading.language, learned: true,
            carried: FollowUp(replaced: reading.parameter, kept: kept))
        return advance(clock: clock)
    }

    /// What `explain` adds for `text` in this conversation: the follow-up it would be, if any.
    public func explainFollowUp(_ text: String) -> String? {
        let clock = session.clock.frozen()
        if case .match = session.matcher(clock: clock).recognize(text, language: options.language).outcome {
            return nil
        }
        guard let reading = followUp(text, clock: clock) else { return nil }
        var values = reading.values
        values[reading.parameter] = nil
        let kept = reading.intent.parameters.map(\.name).filter {
            $0 != reading.parameter && !(values[$0]?.isNull ?? true)
        }
        return FollowUp(replaced: reading.parameter, kept: kept).line(intent: reading.intent.title)
            + " (\(reading.parameter) = \(reading.value.description))"
    }

    /// Remembers a request that ran, for follow-ups.
    func remember(_ state: Pending, result: Datum? = nil, clock: Clock) {
        last = lastRequest(state, result: result, clock: clock)
    }

    /// What a follow-up of this request needs, and the record it made or returned for "it"; nil for
    /// an intent with neither parameters nor such a record.
    func lastRequest(_ state: Pending, result: Datum? = nil, clock: Clock) -> ConversationState.LastRequest? {
        let record: JSONValue? =
            switch result {
            case .entity?: result.map(encode)
            case .list(let items)? where items.count == 1: items.first.map(encode)
            default: nil
            }
        guard !state.intent.parameters.isEmpty || record != nil else { return nil }
        return ConversationState.LastRequest(
            intent: state.intent.name.description, values: state.values.mapValues(encode),
            language: state.language, at: clock.now, result: record)
    }

    /// The learned stage's question about `reading` again, as it was asked.
    func guess(_ reading: ConversationState.Reading, clock: Clock) -> LearnedGuess? {
        guard let stage = session.learned else { return nil }
        let matcher = session.matcher(clock: clock)
        if case .match(let candidate) = matcher.recognize(reading.text, language: reading.language).outcome {
            return stage.review(candidate, text: reading.text, language: reading.language, matcher: matcher)
        }
        guard let guess = stage.guess(reading.text, language: reading.language, matcher: matcher),
            guess.decision == .ask
        else { return nil }
        return guess
    }

    /// A dry run: asked for, or a question asked in one being answered.
    var isDryRun: Bool { options.dryRun || askedInDryRun }
}
