public import IntentModel
public import ModelStore

/// The front door the surfaces (links, sharing, suggestions, handoff) reach a conversation by: its
/// session and the two ways to start a request in it. They extend this protocol, never
/// `Conversation` itself, so none of them can touch the open question or the rest of its state.
public protocol IntentPerformer: AnyObject {
    /// The definitions, the phrase index and the store the conversation runs on.
    var session: Session { get }

    /// Runs `intent` with these arguments, as a shortcut's `intent:` step does: values are made to
    /// fit their parameters, entity names are looked up, and anything missing, invalid or to be
    /// confirmed is asked like after a phrase.
    func perform(_ intent: IntentGraph.Intent, arguments: [String: Datum]) -> Answer

    /// Asks a question another shell saved in the store (`intents continue`) here, and closes it
    /// there; an error when it was answered meanwhile or its intent or records are gone.
    func resume(_ question: StoredQuestion) -> Answer
}

extension Conversation: IntentPerformer {}
