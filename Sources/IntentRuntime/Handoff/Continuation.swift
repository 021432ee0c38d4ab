public import Foundation
import IntentModel
public import ModelStore

/// Something another shell left to carry on.
public enum Continuation: Sendable {
    case question(StoredQuestion)
    case activity(StoredActivity)

    public var at: Date {
        switch self {
        case .question(let question): question.at
        case .activity(let activity): activity.at
        }
    }

    /// One line for `intents continue --list`.
    public var line: String {
        switch self {
        case .question(let question):
            "question  \(question.intent): “\(question.question)” (asked \(ISODate.format(question.at)))"
        case .activity(let activity):
            "activity  \(activity.type): “\(activity.title)” (\(ISODate.format(activity.at)), until \(ISODate.format(activity.expires)))"
                + (activity.link.map { " → " + $0 } ?? "")
        }
    }
}
