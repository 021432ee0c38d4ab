import Foundation

/// Who a request is for. Every call to the engine names one; the command line is `local`. (Keeping
/// each user's data apart is built on this later: today all users share the store.)
public struct User: Sendable, Hashable, Codable, CustomStringConvertible {
    public let id: String

    public init(_ id: String) {
        self.id = id
    }

    /// The person at this machine's terminal.
    public static let local = User("local")

    public var description: String { id }
}

/// A conversation's id: requests with the same id (and user) carry one conversation on, in this
/// process or in another over the same store.
public struct ConversationID: Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// A new, unique id.
    public static func make() -> ConversationID { ConversationID(UUID().uuidString.lowercased()) }

    public var description: String { rawValue }

    /// The longest id, in bytes.
    public static let maximumBytes = 200

    /// Why the id cannot be used (empty, too long, control characters); nil when it can.
    public var problem: String? {
        if rawValue.isEmpty { return "A conversation id cannot be empty." }
        if rawValue.utf8.count > Self.maximumBytes {
            return "A conversation id is at most \(Self.maximumBytes) bytes (this one is \(rawValue.utf8.count))."
        }
        if rawValue.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "A conversation id cannot hold control characters."
        }
        return nil
    }
}

/// Whose conversation a call belongs to, and how to take it: everything a request says besides
/// its words (or link, or shared items).
public struct EngineRequest: Sendable {
    public var conversation: ConversationID
    public var user: User
    /// Phrases of one language only (`en`, `de`; nil: all); answers in it.
    public var language: String?
    /// Where the request comes from (`area: Kitchen`): parameters that declare `context:` take it.
    public var context: [String: String]
    /// Resolve and stop before executing: the store is left as it was, byte for byte — also when
    /// a question is asked, and replies to that question stay dry runs.
    public var dryRun: Bool
    /// Confirm without asking (a guess, or a follow-up, still confirms what deletes).
    public var confirmAll: Bool
    /// Keep the conversation in the store for its next request (in any process). False: the
    /// conversation lives in this engine's memory only — one process's requests (`say` without
    /// `--conversation`), with nothing to read or write for it.
    public var kept: Bool
    /// The id was made for this request (`ConversationID.make()`, not named by a client): nothing
    /// is stored under it and no other request can name it yet, so there is nothing to read and no
    /// turn to wait for.
    public var isNewConversation: Bool

    public init(
        conversation: ConversationID, user: User = .local, language: String? = nil, context: [String: String] = [:],
        dryRun: Bool = false, confirmAll: Bool = false, kept: Bool = true, isNewConversation: Bool = false
    ) {
        self.conversation = conversation
        self.user = user
        self.language = language
        self.context = context
        self.dryRun = dryRun
        self.confirmAll = confirmAll
        self.kept = kept
        self.isNewConversation = isNewConversation
    }
}
