public import Foundation
public import IntentModel

/// A conversation between requests, as a value: the open question, the readings a choice or a
/// "Did you mean …?" waits on, the last request (for follow-ups). The engine keeps it in the store
/// under the conversation's id, so any process over the same store takes the next request.
public struct ConversationState: Sendable, Codable, Hashable {
    /// A phrase and its language, read again when the conversation is restored.
    public struct Reading: Sendable, Codable, Hashable {
        public var text: String
        public var language: String?
    }

    /// The last request that ran: its intent and values, and when.
    public struct LastRequest: Sendable, Codable, Hashable {
        /// `App.Intent`.
        public var intent: String
        /// Parameter name → the value it ran with, tagged by kind.
        public var values: [String: JSONValue]
        public var language: String?
        public var at: Date
        /// The record it made or returned, tagged like the values ("complete it" after "add …").
        public var result: JSONValue?
    }

    /// The open question's request (the same encoding a handoff question is saved in).
    public var pending: JSONValue?
    /// An ambiguous phrase waiting for "which one".
    public var choosing: Reading?
    /// A phrase the learned stage asked "Did you mean …?" about.
    public var guessing: Reading?
    public var last: LastRequest?
    /// The open question was asked in a dry run: replies to it stay dry runs.
    public var dryRun = false

    public init() {}

    /// How long after a request a follow-up naming only a new value reruns it.
    public static let followUpWindow: TimeInterval = 120

    /// Nothing to keep: no question waits and no request can be followed up.
    public var isEmpty: Bool { self == ConversationState() }

    /// A question waits for an answer.
    public var isWaiting: Bool { pending != nil || choosing != nil || guessing != nil }

    /// The bytes the store keeps: the JSON `Codable` gives (dates ISO-8601, keys sorted, so the
    /// same state is the same bytes), written directly — `JSONEncoder` over the nested values cost
    /// more than the rest of a request that keeps its conversation.
    public func encoded() throws -> Data {
        func reading(_ reading: Reading) -> JSONValue {
            var object: [String: JSONValue] = ["text": .string(reading.text)]
            if let language = reading.language { object["language"] = .string(language) }
            return .object(object)
        }
        var object: [String: JSONValue] = ["dryRun": .bool(dryRun)]
        if let pending { object["pending"] = pending }
        if let choosing { object["choosing"] = reading(choosing) }
        if let guessing { object["guessing"] = reading(guessing) }
        if let last {
            var request: [String: JSONValue] = [
                "intent": .string(last.intent), "values": .object(last.values), "at": .string(ISODate.format(last.at)),
            ]
            if let language = last.language { request["language"] = .string(language) }
            if let result = last.result { request["result"] = result }
            object["last"] = .object(request)
        }
        return Data(JSONText.compact(.object(object)).utf8)
    }

    public static func decoded(from data: Data) throws -> ConversationState {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(ConversationState.self, from: data)
    }
}

extension Conversation {
    /// Where this conversation stands, as a value to keep between requests.
    public var state: ConversationState {
        var state = ConversationState()
        state.pending = pending.map(encode)
        state.choosing = pendingIntentChoice == nil ? nil : choiceReading
        state.guessing = pendingGuess == nil ? nil : guessReading
        state.last = last
        state.dryRun = askedInDryRun
        return state
    }

    /// Takes up `state` (kept by an earlier request, perhaps in another process). A question whose
    /// intent or records are gone cannot be restored: that is the error, and nothing is taken up.
    public func restore(_ state: ConversationState) throws(RuntimeError) {
        let clock = session.clock.frozen()
        let restored = try state.pending.map { json throws(RuntimeError) in try decode(json) }
        pending = restored
        pendingIntentChoice = nil
        choiceReading = nil
        pendingGuess = nil
        guessReading = nil
        if let reading = state.choosing,
            case .ambiguous(let candidates) = session.matcher(clock: clock).recognize(
                reading.text, language: reading.language
            ).outcome
        {
            pendingIntentChoice = candidates
            choiceReading = reading
        }
        if let reading = state.guessing, let guess = guess(reading, clock: clock) {
            pendingGuess = guess
            guessReading = reading
        }
        last = state.last
        askedInDryRun = state.dryRun
    }
}
