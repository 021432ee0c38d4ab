import IntentModel

/// What the tagger made of a sentence for one intent: a label per token, the values its spans
/// parse to (through the same parsers as a template's slots), and the spans that did not parse as
/// their parameter's type, which are no value (the dialog asks for them instead).
public struct TaggerReading: Sendable {
    /// Per token: "O", "B-slot", "I-slot".
    public var labels: [String]
    public var slots: [Candidate.Slot]
    /// Spans whose words are not a value of the parameter's type: (slot, the words).
    public var rejected: [(slot: String, words: String)]
    /// The labelling's score (the sum of its weights), for `explain`.
    public var score: Double
    /// Parameters the tagger gave more than one span: the longer was taken as the value, and such a
    /// reading never replaces an exact match's ("add won't fix the roof to my tasks": "won't",
    /// "fix the roof").
    public var split: Set<String> = []

    /// "where/O is/O belgium/B-object_name located/O".
    public func labelled(_ tokens: [Token]) -> String {
        zip(tokens, labels).map { "\($0.raw)/\($1)" }.joined(separator: " ")
    }
}

extension SlotTagger {
    /// The tagger's reading of `tokens` as `intent`, values parsed; nil when it does not know the intent.
    func reading(_ tokens: [Token], intent: IntentGraph.Intent, matcher: Matcher) -> TaggerReading? {
        guard !tokens.isEmpty, tokens.count <= Normalizer.maximumTokens, let index = intentIndex[intent.name] else {
            return nil
        }
        // The parameters it labels, as trained (not recomputed from the training sentences).
        let labelled = Set(intentLabels[index].compactMap(slot(of:)))
        let parameters = intent.parameters.filter { labelled.contains($0.name) }
        let marks = TaggerFeatures.marks(tokens, types: parameters.map(\.type), matcher: matcher)
        let features = TaggerFeatures.features(tokens, intent: intent.name, marks: marks)
        guard let (labels, score) = tag(features, intent: intent.name) else { return nil }
        var slots: [Candidate.Slot] = []
        var rejected: [(slot: String, words: String)] = []
        let (taken, split) = Self.oneSpanEach(spans(labels))
        for (name, span) in taken {
            guard let parameter = intent.parameter(name) else { continue }
            if let slot = Self.value(span, of: parameter, tokens: tokens, matcher: matcher) {
                slots.append(slot)
            } else {
                rejected.append((name, tokens.originalText(from: span.lowerBound, through: span.upperBound - 1)))
            }
        }
        return TaggerReading(
            labels: labels.map(labelName), slots: slots, rejected: rejected, score: Double(score), split: split)
    }

    /// One span per parameter of a labelling's spans (a list takes its items in one span), in their
    /// order, and the parameters given more than one. Two spans of one parameter are a value cut in
    /// two or a word before it read as one ("i need to remember to pay rent": "remember", "pay
    /// rent"): the longer is taken, the first of two as long.
    static func oneSpanEach(_ all: [(slot: String, span: Range<Int>)])
        -> (taken: [(slot: String, span: Range<Int>)], split: Set<String>)
    {
        let taken = all.filter { span in
            !all.contains {
                $0.slot == span.slot
                    && ($0.span.count > span.span.count
                        || ($0.span.count == span.span.count && $0.span.lowerBound < span.span.lowerBound))
            }
        }
        let split = Set(all.map(\.slot).filter { slot in all.filter { $0.slot == slot }.count > 1 })
        return (taken, split)
    }

    /// The value of `parameter` in the tokens of `span`: free text as typed, an entity's name (known or
    /// to be looked up), else what its type's parser reads from exactly these words. A word that
    /// introduces a value ("at", "on", "for", "the") may stand before it inside the span. nil: the
    /// words are no value of the type.
    static func value(_ span: Range<Int>, of parameter: IntentGraph.Parameter, tokens: [Token], matcher: Matcher)
        -> Candidate.Slot?
    {
        let text = tokens.originalText(from: span.lowerBound, through: span.upperBound - 1)
        switch parameter.type {
        case .string:
            return Candidate.Slot(name: parameter.name, value: .string(text), span: span, typed: false)
        case .entity(let entity):
            let folded = tokens[span].map(\.text).joined(separator: " ")
            if let hit = matcher.entities?.lookup(folded, entity: entity).first(where: { $0.distance == 0 }) {
                return Candidate.Slot(
                    name: parameter.name, value: .string(hit.name), span: span, typed: true, entity: true)
            }
            return Candidate.Slot(name: parameter.name, value: .string(text), span: span, typed: false, entity: true)
        default:
            var start = span.lowerBound
            while start < span.upperBound {
                let options = SlotParser.options(for: parameter.type, tokens: tokens, at: start, matcher: matcher)
                if let option = options.first(where: {
                    start + $0.length == span.upperBound && ($0.typed || isList(parameter.type))
                }) {
                    return Candidate.Slot(
                        name: parameter.name, value: option.value, span: start..<span.upperBound, typed: option.typed,
                        problem: option.problem, entity: parameter.type.entityName != nil)
                }
                guard
                    Matcher.introducingWords.contains(tokens[start].text)
                        || Matcher.determiners.contains(tokens[start].text)
                else { return nil }
                start += 1
            }
            return nil
        }
    }

    private static func isList(_ type: ValueType) -> Bool {
        if case .array = type { return true }
        return false
    }
}
