import Foundation
import IntentModel

/// The ways a slot can take tokens at a position: each a length, a value, and whether it parsed as
/// its type (free text does not).
enum SlotParser {
    struct Option {
        var length: Int
        var value: Value
        var typed: Bool
        /// Letters corrected to read the value (a misspelt enum case).
        var edits = 0
        /// The words are a value of the type, but not one that can be used ("February has 28
        /// days in 2026", a number out of range): the answer is this error, never free text.
        var problem: String? = nil
    }

    /// The words of `length` tokens at `start`, as typed: what an error about them quotes.
    static func spoken(_ tokens: [Token], _ start: Int, _ length: Int) -> String {
        tokens.originalText(from: start, through: min(tokens.count, start + length) - 1)
    }

    static let booleans: [String: Bool] = [
        "yes": true, "true": true, "on": true, "yeah": true, "yep": true, "ja": true, "an": true, "ein": true,
        "no": false, "false": false, "off": false, "nope": false, "nein": false, "aus": false,
    ]
    static let listSeparators: Set<String> = ["and", "und", "or", "oder", "&", "plus"]
    /// The most words an entity name is looked up with.
    static let maximumNameWords = 8

    static func options(for edge: PhraseIndex.SlotEdge, tokens: [Token], at start: Int, matcher: Matcher) -> [Option] {
        options(for: edge.type, tokens: tokens, at: start, matcher: matcher)
    }

    static func options(for type: ValueType, tokens: [Token], at start: Int, matcher: Matcher) -> [Option] {
        guard start < tokens.count else { return [] }
        switch type {
        case .string:
            return freeText(tokens, at: start)
        case .integer:
            guard let number = NumberParser.parse(tokens, at: start), number.value == number.value.rounded() else {
                return []
            }
            guard abs(number.value) < 1e15 else {
                let words = spoken(tokens, start, number.length)
                return [
                    Option(
                        length: number.length, value: .string(words), typed: true,
                        problem: "“\(words)” is out of range: a whole number here is at most 15 digits.")
                ]
            }
            return [Option(length: number.length, value: .integer(Int(number.value)), typed: true)]
        case .number:
            guard let number = NumberParser.parse(tokens, at: start) else { return [] }
            guard abs(number.value) < 1e15 else {
                let words = spoken(tokens, start, number.length)
                return [
                    Option(
                        length: number.length, value: .string(words), typed: true,
                        problem: "“\(words)” is out of range: a number here is at most 15 digits.")
                ]
            }
            return [
                Option(
                    length: number.length,
                    value: number.isInteger ? .integer(Int(number.value)) : .number(number.value), typed: true)
            ]
        case .boolean:
            guard let value = booleans[tokens[start].text] else { return [] }
            return [Option(length: 1, value: .boolean(value), typed: true)]
        case .duration:
            guard let duration = DurationParser.parse(tokens, at: start) else { return [] }
            guard let seconds = duration.seconds else {
                let words = spoken(tokens, start, duration.length)
                return [
                    Option(
                        length: duration.length, value: .string(words), typed: true,
                        problem: "“\(words)” is out of range: a time span can be at most 100 years.")
                ]
            }
            return [Option(length: duration.length, value: .duration(seconds: seconds), typed: true)]
        case .date:
            guard let date = DateParser(clock: matcher.clock).parse(tokens, at: start) else { return [] }
            if let problem = date.problem {
                return [
                    Option(
                        length: date.length, value: .string(spoken(tokens, start, date.length)), typed: true,
                        edits: date.edits, problem: problem)
                ]
            }
            return [
                Option(
                    length: date.length, value: .date(date.value(in: matcher.clock)), typed: true, edits: date.edits)
            ]
        case .url:
            let token = tokens[start]
            guard Normalizer.looksLikeURL(token.raw) else { return [] }
            let url = token.raw.contains("://") ? token.raw : "https://" + token.raw
            return [Option(length: 1, value: .url(url), typed: true)]
        case .enumeration(let name):
            return enumCase(name, tokens: tokens, at: start, matcher: matcher)
        case .entity(let name):
            var options: [Option] = []
            if let lookup = matcher.entities {
                for length in 1...min(maximumNameWords, tokens.count - start) {
                    let text = tokens[start..<(start + length)].map(\.text).joined(separator: " ")
                    if let hit = lookup.lookup(text, entity: name).first {
                        options.append(Option(length: length, value: .string(hit.name), typed: true))
                    }
                }
            }
            return options + freeText(tokens, at: start)
        case .array(let element):
            return list(of: element, tokens: tokens, at: start, matcher: matcher)
        }
    }

    /// Every span of 1 to `maximumFreeWords` tokens, as typed: the original characters from the
    /// first token's start to the last token's end (never the normalized words).
    static func freeText(_ tokens: [Token], at start: Int) -> [Option] {
        let end = min(tokens.count, start + Matcher.maximumFreeWords)
        var options: [Option] = []
        for index in start..<end {
            options.append(
                Option(
                    length: index - start + 1, value: .string(tokens.originalText(from: start, through: index)),
                    typed: false))
        }
        return options
    }

    static func enumCase(_ name: QualifiedName, tokens: [Token], at start: Int, matcher: Matcher) -> [Option] {
        guard let terms = matcher.index.enumTerms[name] else { return [] }
        var options: [Option] = []
        for term in terms where start + term.tokens.count <= tokens.count {
            var edits = 0
            // Compared in place: this runs at every position a template has an enum slot.
            var exact = true
            for (offset, word) in term.tokens.enumerated() where tokens[start + offset].text != word {
                exact = false
                break
            }
            if !exact {
                // A typo in a one-word case: one letter from five letters on, two from eight.
                guard term.tokens.count == 1 else { continue }
                let wanted = term.tokens[0], said = tokens[start].text
                guard wanted.utf8.count >= 5, wanted.utf8.first == said.utf8.first,
                    abs(wanted.utf8.count - said.utf8.count) <= 2
                else { continue }
                guard let distance = EditDistance.within(said, wanted, limit: wanted.count >= 8 ? 2 : 1) else {
                    continue
                }
                edits = distance
            }
            // The same case by another term: the closer one counts ("windows" is the synonym as
            // written, not a typo of the title "window").
            if let same = options.firstIndex(where: { $0.length == term.tokens.count && $0.value == .enumCase(term.id) }
            ) {
                options[same].edits = min(options[same].edits, edits)
                continue
            }
            options.append(Option(length: term.tokens.count, value: .enumCase(term.id), typed: true, edits: edits))
        }
        return options
    }

    /// "milk, eggs and bread": elements separated by commas, "and", "or".
    static func list(of element: ValueType, tokens: [Token], at start: Int, matcher: Matcher) -> [Option] {
        if element == .string || element.entityName != nil {
            // Free text split at separators; every length is an option.
            return freeText(tokens, at: start).map { option in
                let end = start + option.length
                var items: [String] = []
                // The current item's first and last token.
                var current: (first: Int, last: Int)?
                for position in start..<end {
                    let token = tokens[position]
                    if listSeparators.contains(token.text) {
                        if let item = current {
                            items.append(tokens.originalText(from: item.first, through: item.last))
                        }
                        current = nil
                        continue
                    }
                    current = (current?.first ?? position, position)
                    if token.trailing.contains(","), position < end - 1, let item = current {
                        items.append(tokens.originalText(from: item.first, through: item.last))
                        current = nil
                    }
                }
                if let item = current { items.append(tokens.originalText(from: item.first, through: item.last)) }
                return Option(length: option.length, value: .array(items.map(Value.string)), typed: false)
            }
        }
        var values: [Value] = []
        var position = start
        var results: [Option] = []
        while position < tokens.count,
            let first = options(for: element, tokens: tokens, at: position, matcher: matcher).first
        {
            values.append(first.value)
            position += first.length
            results.append(Option(length: position - start, value: .array(values), typed: true))
            if position < tokens.count, listSeparators.contains(tokens[position].text) {
                position += 1
            } else if position > 0, tokens[position - 1].trailing.contains(",") {
                continue
            } else {
                break
            }
        }
        return results
    }

}
