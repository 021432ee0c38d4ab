import Foundation
import IntentRuntime
import ModelStore

/// Group commit on PostgreSQL: requests that reach an engine while it is busy share one
/// transaction and one commit (one wait for the disk, one turn of the schema's lock).
///
/// The engine answers one request at a time (its lock). A request that may write opens a group's
/// transaction when none is open, or joins the open one; its writes and reads run in a savepoint
/// of its own, checked when the request ends (a failed intent, or a statement that failed, rolls
/// back that request alone, and its answer says so). When it ends and no other such request is
/// waiting for the engine (or the group holds `groupLimit` requests), it commits the group; else
/// it leaves the commit to the next request and waits. Nobody's answer is given before the
/// group's `COMMIT` has returned: a commit that fails turns every answer of the group into a store
/// failure. Anything else the engine is asked (a dry run, a listing, undo) commits the open group
/// first, so it sees only committed data and no group waits for it.
///
/// A conversation's lock (another instance may hold it) is taken before the group's transaction
/// takes the schema's lock; a request joining an open group only tries it, and when another
/// holds it, commits the group first and then waits, so that no connection ever waits for a
/// conversation while holding the schema's lock (two instances would wait for each other). The
/// conversations' locks are given back once the group has committed: another instance reads a
/// conversation only after its new state is committed.
final class CommitGroups: @unchecked Sendable {
    /// Requests that may write, waiting for the engine's lock: the request ending a group leaves
    /// the commit to one of them.
    private let lock = NSLock()
    private var waiting = 0
    /// The open group (read and changed under the engine's lock).
    var open: Group?
    /// Whether a request of a group is being answered (under the engine's lock): the engine's
    /// other entry points commit the open group first, but not inside it.
    var answering = false
    /// How many groups were committed, and how many requests they held (for tests and metrics).
    private(set) var committed: (groups: Int, requests: Int) = (0, 0)

    func arrive() { lock.withLock { waiting += 1 } }
    func depart() { lock.withLock { waiting -= 1 } }
    var anyoneWaiting: Bool { lock.withLock { waiting > 0 } }
    /// Requests waiting for the engine's lock to join a group (for tests).
    var waitingCount: Int { lock.withLock { waiting } }
    func count(_ group: Group) {
        lock.withLock { committed = (committed.groups + 1, committed.requests + group.members) }
    }

    /// One transaction's requests: each waits for its outcome.
    final class Group: @unchecked Sendable {
        private let condition = NSCondition()
        private var outcome: String??
        var members = 0
        /// The conversations whose locks are given back after the commit.
        var conversations: [String] = []

        /// Settles the group: nil when it committed, else why not.
        func finish(_ failure: String?) {
            condition.lock()
            outcome = .some(failure)
            condition.broadcast()
            condition.unlock()
        }

        /// Waits until the group is settled: nil when it committed, else why not.
        func wait() -> String? {
            condition.lock()
            defer { condition.unlock() }
            while outcome == nil { condition.wait() }
            return outcome!
        }
    }
}

extension IntentEngine {
    /// Requests in one group at most: each holds a few savepoints, and PostgreSQL keeps up to 64
    /// subtransactions of a transaction in shared memory before every snapshot slows down.
    static let groupLimit = 16

    /// Whether requests that may write share commits: a PostgreSQL store opened for writing.
    var groupsCommits: Bool { configuration.groupCommits && session.store.canGroupCommits }

    /// How many groups this engine committed and how many requests they held.
    package var committedGroups: (groups: Int, requests: Int) { groups.committed }

    /// How many requests wait for this engine's lock to join a group (for tests).
    package var requestsWaitingToJoin: Int { groups.waitingCount }

    /// Runs `body` holding the engine's lock, as a long request would: requests that arrive
    /// meanwhile wait for it, and then share a group (for tests).
    package func whileBusy(_ body: () throws -> Void) rethrows {
        lock.lock()
        defer { lock.unlock() }
        try body()
    }

    /// Commits the open group, gives back its conversations' locks and wakes its requests.
    /// Under the engine's lock.
    func commitOpenGroup() {
        guard let group = groups.open else { return }
        groups.open = nil
        var failure: String?
        do {
            try session.store.commitGroup()
        } catch {
            failure = "\(error)"
        }
        for key in group.conversations { session.store.unlockConversation(key) }
        groups.count(group)
        group.finish(failure)
    }

    /// Settles the open group as failed (its transaction already rolled back): gives back its
    /// conversations' locks and wakes its requests. Under the engine's lock.
    func failOpenGroup(_ failure: String) {
        guard let group = groups.open else { return }
        groups.open = nil
        for key in group.conversations { session.store.unlockConversation(key) }
        group.finish(failure)
    }

    /// `converse` for a request that may write, in a group (see `CommitGroups`).
    func converseInGroup(_ request: EngineRequest, _ body: (Conversation) -> Answer) -> Answer {
        groups.arrive()
        lock.lock()
        groups.depart()
        groups.answering = true
        let (answer, group, first) = answerInGroup(request, body)
        groups.answering = false
        // The open group (this request's, or one it could not join) is committed unless another
        // request waits to join it.
        if let open = groups.open {
            if !groups.anyoneWaiting || open.members >= Self.groupLimit {
                commitOpenGroup()
            } else if first {
                // The first request ran outside any savepoint of its own: before others join,
                // check that it left the transaction able to go on.
                do { try session.store.checkGroup() } catch { failOpenGroup("\(error)") }
            }
        }
        lock.unlock()
        guard let group else { return answer }
        if let failure = group.wait() {
            let message = "the store could not commit: \(failure)"
            return Answer(status: .error, dialog: message, failure: .store(message))
        }
        return answer
    }

    /// The request's answer in the open group (opened for it when none is): nil for the group when
    /// the request never joined one (its answer is then a store failure, and nothing was written);
    /// whether it was the group's first (its transaction had not begun: nothing of another request
    /// to keep apart from, so no savepoint of its own).
    private func answerInGroup(
        _ request: EngineRequest, _ body: (Conversation) -> Answer
    ) -> (Answer, CommitGroups.Group?, Bool) {
        let store = session.store
        // The conversation's turn across instances, unless it is not kept or nothing can be
        // stored under it yet (as `converse` decides).
        let key = key(request)
        let turn: String? = !request.kept || isUnwritten(request) ? nil : key.user.id + " " + key.conversation.rawValue
        do {
            if let turn {
                // Never wait for a conversation while the group holds the schema's lock: when
                // another connection has it, commit the group first, then wait.
                if try !store.lockConversation(turn, wait: !store.isGroupBegun) {
                    commitOpenGroup()
                    _ = try store.lockConversation(turn, wait: true)
                }
            }
            if groups.open == nil {
                do {
                    try store.openGroup()
                } catch {
                    if let turn { store.unlockConversation(turn) }
                    throw error
                }
                groups.open = CommitGroups.Group()
            }
        } catch {
            return (Answer(status: .error, dialog: "\(error)", failure: .store("\(error)")), nil, false)
        }
        let group = groups.open!
        if let turn { group.conversations.append(turn) }
        group.members += 1
        // Its phrase read outside any transaction, its writes begin the group's.
        if !store.isGroupBegun { return (converseHoldingLock(request, body), group, true) }
        do {
            // The request's own savepoint: whatever failed in it rolls back with it alone.
            return (try store.write { _ in converseHoldingLock(request, body) }, group, false)
        } catch {
            return (Answer(status: .error, dialog: "\(error)", failure: .store("\(error)")), group, false)
        }
    }
}
