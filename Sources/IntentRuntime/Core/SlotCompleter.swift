import Foundation
import IntentModel
import ModelStore
import PhraseMatching

/// Tab completion of slot values at the prompt: after the words of a phrase up to a slot
/// ("complete "), the values that slot takes — enum cases and their synonyms, entity names
/// from the store — that start with what was typed after them.
public struct SlotCompleter {
    /// A way of saying a phrase up to one of its slots: the words between the slots before it
    /// (`["track ", " as "]` for "track <topic> as <position>"), and that slot's type.
    struct Opening: Hashable {
        let segments: [String]
        let type: ValueType
    }

    let session: Session
    private let openings: [Opening]

    public init(session: Session) {
        self.session = session
        var openings: [Opening] = []
        var seen: Set<Opening> = []
        for app in session.graph.apps {
            for intent in app.intents {
                for phrase in intent.phrases {
                    for sentence in phrase.template.expansions(rules: app.rules, limit: 64) ?? [] {
                        var segments = [""]
                        for piece in sentence {
                            switch piece {
                            case .word(let word): segments[segments.count - 1] += word + " "
                            case .app: segments[segments.count - 1] += app.name.lowercased() + " "
                            case .slot(let name):
                                if let parameter = intent.parameter(name), !segments[0].isEmpty {
                                    let opening = Opening(
                                        segments: segments, type: parameter.type.element ?? parameter.type)
                                    if seen.insert(opening).inserted { openings.append(opening) }
                                }
                                segments.append(" ")
                            }
                        }
                    }
                }
            }
        }
        self.openings = openings
    }

    /// Whole lines completing `typed`, at most `limit`, sorted.
    public func completions(for typed: String, limit: Int = 50) -> [String] {
        let lowered = typed.lowercased()
        var result: Set<String> = []
        for opening in openings {
            guard let start = Self.valueStart(lowered, opening.segments) else { continue }
            let partial = String(lowered[start...])
            let head = String(typed[..<start])
            for value in values(of: opening.type, beginningWith: partial) where value.lowercased().hasPrefix(partial) {
                result.insert(head + value)
                if result.count >= limit { break }
            }
        }
        return result.sorted()
    }

    /// Where the slot's value starts in `text`: after the first segment at the start, and each
    /// later one after some free text; nil when `text` does not follow the segments.
    static func valueStart(_ text: String, _ segments: [String]) -> String.Index? {
        guard text.hasPrefix(segments[0]) else { return nil }
        var position = text.index(text.startIndex, offsetBy: segments[0].count)
        for segment in segments.dropFirst() {
            guard position < text.endIndex else { return nil }
            let from = text.index(after: position)
            guard from <= text.endIndex, let found = text.range(of: segment, range: from..<text.endIndex) else {
                return nil
            }
            position = found.upperBound
        }
        return position
    }

    /// The words a slot of `type` takes: enum titles and synonyms; entity names in the store that
    /// may begin with `partial` (asked of its full-text index: a big store is not read whole).
    func values(of type: ValueType, beginningWith partial: String) -> [String] {
        switch type {
        case .enumeration(let name):
            guard let enumeration = session.graph.enumeration(name) else { return [] }
            return enumeration.cases.flatMap { [$0.title.lowercased()] + $0.synonyms }
        case .entity(let name):
            return (try? session.store.read { try $0.names(of: name, beginningWith: partial, limit: 256) }) ?? []
        case .boolean:
            return ["yes", "no"]
        default:
            return []
        }
    }
}
