import Foundation
public import IntentModel
public import IntentRuntime
import ModelStore

/// Requests in conversations: each call restores the conversation's state (from the store, or from
/// memory for a dry run), lets the runtime's `Conversation` answer, and keeps the new state.
extension IntentEngine {
    /// Answers `text` in the request's conversation: a reply to its open question, a follow-up of its
    /// last request ("and libra?"), or a new phrase.
    public func respond(to text: String, _ request: EngineRequest) -> Answer {
        converse(request) { $0.respond(to: text) }
    }

    /// `respond`, saying also whether the conversation was waiting for an answer (the request
    /// replied to its question): what the server's metrics count, without reading the
    /// conversation a second time.
    public func respondSayingIfReply(to text: String, _ request: EngineRequest) -> (answer: Answer, reply: Bool) {
        var reply = false
        let answer = converse(request) { conversation in
            reply = conversation.isWaiting
            return conversation.respond(to: text)
        }
        return (answer, reply)
    }

    /// Cancels the conversation's open question; nil when none was open.
    @discardableResult
    public func cancel(_ request: EngineRequest) -> Answer? {
        var cancelled: Answer?
        _ = converse(request) { conversation in
            cancelled = conversation.cancel()
            return cancelled ?? Answer(status: .cancelled, dialog: "")
        }
        return cancelled
    }

    /// Whether the conversation waits for an answer.
    public func isWaiting(_ request: EngineRequest) throws(EngineError) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return try state(of: request).state.isWaiting
    }

    /// What `explain` adds in this conversation: the follow-up `text` would be, if any
    /// ("follow-up of Check Compatibility: theirSign replaced; carried over: yourSign …").
    public func explainFollowUp(_ text: String, _ request: EngineRequest) -> String? {
        locked {
            guard let state = try? state(of: request).state else { return nil }
            let conversation = Conversation(session: session, options: options(request))
            guard (try? conversation.restore(state)) != nil else { return nil }
            return conversation.explainFollowUp(text)
        }
    }

    /// Opens a deep link (`radar://open/quantum%20computing`) in the request's conversation: the
    /// route's intent runs like a phrase would, asking for what is missing. A link that does not
    /// route is an error and changes nothing.
    public func open(_ url: String, _ request: EngineRequest) -> Result<Answer, LinkError> {
        var result: Result<Answer, LinkError> = .failure(LinkError(.unknownRoute, "not opened"))
        _ = converse(request) { conversation in
            result = conversation.open(url)
            return (try? result.get()) ?? Answer(status: .error, dialog: "")
        }
        return result
    }

    /// Where shared items may go: an offer per app that accepts them all, and why the others refuse.
    public func shareOffers(for items: [ShareItem], app: String? = nil) -> (
        offers: [ShareRouter.Offer], rejections: [ShareRouter.Rejection]
    ) {
        ShareRouter(graph: graph).route(items, to: app)
    }

    /// Shares `items` with the offer's intent, one run per item in one transaction.
    public func share(_ items: [ShareItem], with offer: ShareRouter.Offer, _ request: EngineRequest) -> [Answer] {
        var answers: [Answer] = []
        _ = converse(request) { conversation in
            answers = conversation.share(items, with: offer)
            return answers.last ?? Answer(status: .done, dialog: "")
        }
        return answers
    }

    /// What `continue` can carry on: questions left open and activities eligible for handoff, newest first.
    public func continuations(user: User = .local) throws(EngineError) -> [Continuation] {
        do {
            return try locked { try Conversation(session: session).continuations() }
        } catch {
            throw .store("\(error)")
        }
    }

    /// Carries `continuation` on in the request's conversation: a question is asked again here (and
    /// closed where it was asked), an activity's intent runs again.
    public func carryOn(_ continuation: Continuation, _ request: EngineRequest) -> Answer {
        converse(request) { $0.carryOn(continuation) }
    }

    /// Runs a suggestion's intent with its values in the request's conversation.
    public func accept(_ suggestion: Suggestion, _ request: EngineRequest) -> Answer {
        converse(request) { $0.accept(suggestion) }
    }

    /// Runs `intent` with `arguments` (a shortcut's `intent:` step, a widget's button) in the
    /// request's conversation, asking for what is missing.
    public func perform(
        _ intent: IntentGraph.Intent, arguments: [String: Datum], _ request: EngineRequest
    ) -> Answer {
        converse(request) { $0.perform(intent, arguments: arguments) }
    }

    /// Reverts the last executed intent that changed something; says what was undone.
    public func undo(user: User = .local, language: String? = nil) throws(EngineError) -> String {
        do {
            return try locked { try session.undo(language: language) }
        } catch {
            throw .store("\(error)")
        }
    }

    // MARK: Conversation state

    func key(_ request: EngineRequest) -> ConversationKey {
        ConversationKey(user: request.user, conversation: request.conversation)
    }

    /// The conversation of `request`, restored, answering through `body`; its state kept after.
    func converse(_ request: EngineRequest, _ body: (Conversation) -> Answer) -> Answer {
        if let problem = request.conversation.problem {
            return Answer(status: .error, dialog: problem, failure: .failed(problem))
        }
        if groupsCommits, !request.dryRun { return converseInGroup(request, body) }
        return locked {
            // Another instance over the same PostgreSQL database takes this conversation's
            // requests in turn with this one (a dry run writes nothing and needs no turn).
            guard request.dryRun || !request.kept || isUnwritten(request) else {
                return converseInOrder(request, body)
            }
            return converseHoldingLock(request, body)
        }
    }

    private func converseInOrder(_ request: EngineRequest, _ body: (Conversation) -> Answer) -> Answer {
        let key = key(request)
        do {
            return try session.store.holdingConversation(key.user.id + " " + key.conversation.rawValue) {
                converseHoldingLock(request, body)
            }
        } catch {
            return Answer(status: .error, dialog: "\(error)", failure: .store("\(error)"))
        }
    }

    /// `converse` with the engine's lock (and the conversation's, when it is kept) held.
    func converseHoldingLock(_ request: EngineRequest, _ body: (Conversation) -> Answer) -> Answer {
        let key = key(request)
        let conversation = Conversation(session: session, options: options(request))
        let existing: (state: ConversationState, stored: Bool)
        do {
            existing = try state(of: request)
        } catch {
            return Answer(status: .error, dialog: "\(error)", failure: .store("\(error)"))
        }
        // A question whose intent or records are gone cannot be answered: the conversation
        // starts over (the request is then read as a new phrase). A store that cannot be read is
        // the answer: starting over would read the reply as a new phrase.
        do throws(RuntimeError) {
            try conversation.restore(existing.state)
        } catch .store(let problem) {
            return Answer(status: .error, dialog: problem, failure: .store(problem))
        } catch {}
        let inMemory = request.dryRun || !request.kept
        if !inMemory {
            // A request that executes keeps the conversation in its own transaction: one write.
            let lifetime = configuration.conversationLifetime
            let clock = self.clock
            conversation.stateKeeper = { [unowned self] transaction, state in
                let now = clock.now
                let bytes = try state.encoded()
                try transaction.saveConversation(
                    key.conversation.rawValue, user: key.user.id, state: bytes, at: now,
                    expires: now.addingTimeInterval(lifetime))
                remember(state, bytes: bytes, for: key)
            }
        }
        var answer = body(conversation)
        if !inMemory, let kept = conversation.keptState, kept == conversation.state {
            memoryConversations[key] = nil
            return answer
        }
        keep(
            conversation.state, for: key, inMemory: inMemory, stored: existing.stored,
            previous: existing.state, &answer)
        return answer
    }

    /// A conversation made for this request that this engine has not written yet: nothing to read.
    func isUnwritten(_ request: EngineRequest) -> Bool {
        request.isNewConversation && decodedConversations[key(request)] == nil
    }

    func options(_ request: EngineRequest) -> Conversation.Options {
        var options = Conversation.Options(
            confirmAll: request.confirmAll, dryRun: request.dryRun, language: request.language,
            handoff: configuration.handoff)
        options.context = request.context
        return options
    }

    /// The conversation's state: from memory for a dry run or a conversation not kept, else the
    /// store's (empty when there is none or it expired); `stored` says whether the store holds a row.
    func state(of request: EngineRequest) throws(EngineError) -> (state: ConversationState, stored: Bool) {
        let key = key(request)
        if let memory = inMemory(key) { return (memory, false) }
        guard request.kept, !isUnwritten(request) else { return (ConversationState(), false) }
        let now = clock.now
        let row: StoredConversation?
        do {
            row = try session.store.read { try $0.conversation(key.conversation.rawValue, user: key.user.id, at: now) }
        } catch {
            throw .store("the conversation cannot be read from the store: \(error)")
        }
        guard let row else { return (ConversationState(), false) }
        // The state this engine last read or wrote for it, when the bytes are the same: not decoded again.
        if let cached = decodedConversations[key], cached.bytes == row.state { return (cached.state, true) }
        do {
            let state = try ConversationState.decoded(from: row.state)
            remember(state, bytes: row.state, for: key)
            return (state, true)
        } catch {
            // Written by another version: start over rather than refuse every request.
            return (ConversationState(), true)
        }
    }

    /// Keeps `state` for the conversation's next request. A dry run (or a question asked in one)
    /// and a conversation not kept stay in memory: they write nothing. A store error is the answer's.
    private func keep(
        _ state: ConversationState, for key: ConversationKey, inMemory: Bool, stored: Bool,
        previous: ConversationState, _ answer: inout Answer
    ) {
        if inMemory || state.dryRun {
            holdInMemory(state, for: key)
            return
        }
        let wasDry = memoryConversations.removeValue(forKey: key) != nil
        // Nothing changed (a no-match, a cancel with nothing open): nothing to write.
        if !wasDry, stored, state == previous { return }
        if !wasDry, !stored, state.isEmpty { return }
        let now = clock.now
        do {
            if state.isEmpty {
                if stored {
                    try session.store.write {
                        _ = try $0.deleteConversation(key.conversation.rawValue, user: key.user.id)
                    }
                }
                return
            }
            let bytes = try state.encoded()
            try session.store.write { transaction in
                try transaction.saveConversation(
                    key.conversation.rawValue, user: key.user.id, state: bytes, at: now,
                    expires: now.addingTimeInterval(configuration.conversationLifetime))
            }
            remember(state, bytes: bytes, for: key)
        } catch {
            answer.failure = .store(
                answer.failure?.message ?? "the conversation could not be kept in the store: \(error)")
        }
    }

    /// The state held in memory for a conversation, unless it was last used longer ago than a
    /// conversation lives.
    private func inMemory(_ key: ConversationKey) -> ConversationState? {
        guard let held = memoryConversations[key] else { return nil }
        guard clock.now.timeIntervalSince(held.touched) <= configuration.conversationLifetime else {
            memoryConversations[key] = nil
            return nil
        }
        return held.state
    }

    /// Holds a state in memory: when the limit is reached, conversations past their lifetime go
    /// first, then the least recently used.
    func holdInMemory(_ state: ConversationState, for key: ConversationKey) {
        let now = clock.now
        if memoryConversations[key] == nil, memoryConversations.count >= Self.memoryConversationLimit {
            let lifetime = configuration.conversationLifetime
            memoryConversations = memoryConversations.filter { now.timeIntervalSince($0.value.touched) <= lifetime }
            while memoryConversations.count >= Self.memoryConversationLimit,
                let oldest = memoryConversations.min(by: { $0.value.use < $1.value.use })?.key
            {
                memoryConversations[oldest] = nil
            }
        }
        memoryUses += 1
        memoryConversations[key] = (state, now, memoryUses)
    }

    /// Remembers the decoded state of a row (a few hundred conversations at most).
    private func remember(_ state: ConversationState, bytes: Data, for key: ConversationKey) {
        if decodedConversations.count >= 512 { decodedConversations.removeAll(keepingCapacity: true) }
        decodedConversations[key] = (bytes, state)
    }
}
