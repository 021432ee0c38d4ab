import IntentModel

/// What the tagger sees of each token: the folded word and its neighbours ±2, the word pairs around
/// it, its shape as typed, prefixes and suffixes, digits, the intent, and whether a typed parser
/// reads a value of one of the intent's parameter types there (a date, a number, an enum synonym, a
/// known entity name), at its start or inside it. Features are stable 64-bit hashes of their text.
enum TaggerFeatures {
    /// A feature's key: FNV-1a over a tag and its parts (never `Hasher`, which differs per process).
    static func key(_ tag: String, _ parts: String...) -> UInt64 {
        var hash = StableHash()
        hash.add(tag)
        for part in parts { hash.add(part) }
        return hash.value
    }

    /// Per token, whether a typed parser reads a value of a type there: "B|date", "I|enum:App.Size".
    typealias TypeMarks = [[String]]

    /// The features of every token of a sentence for `intent`.
    static func features(_ tokens: [Token], intent: QualifiedName, marks: TypeMarks) -> [[UInt64]] {
        let words = tokens.map(\.text)
        func word(_ i: Int) -> String { i < 0 ? "<s>" : i >= words.count ? "</s>" : words[i] }
        let intentName = intent.description
        return tokens.indices.map { i in
            let w = words[i]
            var keys: [UInt64] = [
                key("bias"), key("intent", intentName),
                key("w0", w), key("w-1", word(i - 1)), key("w+1", word(i + 1)), key("w-2", word(i - 2)),
                key("w+2", word(i + 2)),
                key("w-1w0", word(i - 1), w), key("w0w+1", w, word(i + 1)), key("w-2w-1", word(i - 2), word(i - 1)),
                key("w+1w+2", word(i + 1), word(i + 2)),
                key("intent-w-1", intentName, word(i - 1)), key("intent-w0", intentName, w),
                key("shape", shape(tokens[i].raw)),
            ]
            let scalars = Array(w.unicodeScalars)
            if scalars.count > 3 {
                for n in 2...3 {
                    keys.append(key("p\(n)", String(String.UnicodeScalarView(scalars.prefix(n)))))
                }
                for n in 2...4 where n < scalars.count {
                    keys.append(key("s\(n)", String(String.UnicodeScalarView(scalars.suffix(n)))))
                }
            }
            if w.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) { keys.append(key("digit")) }
            for mark in marks[i] {
                keys.append(key("type", mark))
                keys.append(key("type-w-1", mark, word(i - 1)))
            }
            return keys
        }
    }

    /// "Xx", "x", "d", "X.X": letters as case classes, runs collapsed, at most four.
    static func shape(_ raw: String) -> String {
        var out: [Character] = []
        for character in raw {
            let c: Character =
                character.isUppercase ? "X" : character.isLowercase ? "x" : character.isNumber ? "d" : character
            if out.last != c { out.append(c) }
            if out.count == 4 { break }
        }
        return String(out)
    }

    /// The parameters the tagger may label for `intent`: those a phrase has a slot for or a
    /// training sentence marks, in the intent's order.
    static func taggedParameters(of intent: IntentGraph.Intent) -> [IntentGraph.Parameter] {
        var names = Set<String>()
        for phrase in intent.phrases { for slot in phrase.template.slots { names.insert(slot.name) } }
        for sentence in intent.trainingSentences {
            for piece in sentence.pieces { if let s = piece.slot { names.insert(s) } }
        }
        return intent.parameters.filter { names.contains($0.name) }
    }

    /// The typed values the parsers read in `tokens` for the intent's parameter types, longest first
    /// from left to right. Entity names are looked up (up to four words) when the matcher has names.
    static func marks(_ tokens: [Token], types: [ValueType], matcher: Matcher) -> TypeMarks {
        var memo: [String: Int]?
        return marks(tokens, types: types, matcher: matcher, memo: &memo)
    }

    /// The same, with the parsers' answers kept in `memo` (when not nil) by type and words: training
    /// asks about the same few words thousands of times.
    static func marks(_ tokens: [Token], types: [ValueType], matcher: Matcher, memo: inout [String: Int]?)
        -> TypeMarks
    {
        var marks = TypeMarks(repeating: [], count: tokens.count)
        var seen = Set<String>()
        for type in types {
            let element: ValueType
            if case .array(let inner) = type { element = inner } else { element = type }
            if element == .string || element == .url { continue }
            let name = typeName(element)
            guard seen.insert(name).inserted else { continue }
            var start = 0
            while start < tokens.count {
                // The parsers see a window of words from here: the same words, the same answer.
                let window = Array(tokens[start..<min(tokens.count, start + window)])
                let length: Int
                if memo != nil {
                    let key = name + "\u{1F}" + window.map(\.text).joined(separator: " ")
                    if let known = memo![key] {
                        length = known
                    } else {
                        length = longestValue(element, tokens: window, at: 0, matcher: matcher)
                        memo![key] = length
                    }
                } else {
                    length = longestValue(element, tokens: window, at: 0, matcher: matcher)
                }
                guard length > 0 else {
                    start += 1
                    continue
                }
                marks[start].append("B|" + name)
                for inside in (start + 1)..<(start + length) { marks[inside].append("I|" + name) }
                start += length
            }
        }
        return marks
    }

    /// The most words a typed value is read from ("the 3rd of march at 5 pm" is seven).
    static let window = 8

    static func typeName(_ type: ValueType) -> String {
        switch type {
        case .entity(let name): "entity:" + name.description
        case .enumeration(let name): "enum:" + name.description
        default: type.description
        }
    }

    /// The most tokens at `start` a parser reads as a value of `type` (0: none).
    static func longestValue(_ type: ValueType, tokens: [Token], at start: Int, matcher: Matcher) -> Int {
        if case .entity(let name) = type {
            guard let lookup = matcher.entities else { return 0 }
            var longest = 0
            for length in 1...min(4, tokens.count - start) {
                let text = tokens[start..<(start + length)].map(\.text).joined(separator: " ")
                if lookup.lookup(text, entity: name).contains(where: { $0.distance == 0 }) { longest = length }
            }
            return longest
        }
        return SlotParser.options(for: type, tokens: tokens, at: start, matcher: matcher)
            .filter { $0.typed && $0.problem == nil }.map(\.length).max() ?? 0
    }
}
