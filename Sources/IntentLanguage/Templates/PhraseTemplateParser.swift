import Foundation
import IntentModel

/// Parses phrase templates. Errors carry the character offset they were found at.
enum PhraseTemplateParser {
    /// The scalars with a meaning in a template: `( ) [ ] { } < > |`. A switch, not a set: a set hashed
    /// every scalar of every word.
    static func isSpecial(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "(", ")", "[", "]", "{", "}", "<", ">", "|": return true
        default: return false
        }
    }

    static func parse(_ source: String) throws(ExpressionSyntaxError) -> PhraseTemplate {
        // ASCII is scanned in place from its bytes; other text from its scalars.
        let ascii = try ASCIIScalars.read(source) { (characters) throws(ExpressionSyntaxError) in
            try parse(characters, source: source)
        }
        if let ascii { return ascii }
        return try parse([Unicode.Scalar](source.unicodeScalars), source: source)
    }

    private static func parse<Characters: ScalarText>(_ characters: Characters, source: String)
        throws(ExpressionSyntaxError) -> PhraseTemplate
    {
        var parser = State(characters: characters)
        let branches = try parser.parseAlternatives(closing: nil, depth: 0)
        guard branches.count == 1 else {
            throw ExpressionSyntaxError(
                message: "put alternatives in parentheses: '(a|b)'", offset: parser.firstBar ?? 0)
        }
        let items = branches[0]
        guard !items.isEmpty else { throw ExpressionSyntaxError(message: "empty phrase", offset: 0) }
        return PhraseTemplate(items: items, source: source)
    }

    private struct State<Characters: ScalarText> {
        let characters: Characters
        var i = 0
        var firstBar: Int?

        mutating func parseAlternatives(closing: Unicode.Scalar?, depth: Int) throws(ExpressionSyntaxError)
            -> [[PhraseTemplate.Item]]
        {
            guard depth < 32 else { throw ExpressionSyntaxError(message: "phrase nested too deeply", offset: i) }
            var branches: [[PhraseTemplate.Item]] = [[]]
            while i < characters.count {
                let c = characters[i]
                if c.isSpace {
                    i += 1
                } else if c == "|" {
                    if firstBar == nil { firstBar = i }
                    branches.append([])
                    i += 1
                } else if c == ")" || c == "]" {
                    guard c == closing else {
                        throw ExpressionSyntaxError(message: "unexpected '\(c)'", offset: i)
                    }
                    return branches
                } else if c == "(" || c == "[" {
                    let open = i
                    i += 1
                    let inner = try parseAlternatives(closing: c == "(" ? ")" : "]", depth: depth + 1)
                    guard i < characters.count else {
                        throw ExpressionSyntaxError(message: "'\(c)' is never closed", offset: open)
                    }
                    i += 1
                    if inner.contains(where: \.isEmpty), c == "(" {
                        throw ExpressionSyntaxError(
                            message: "empty alternative; use [optional] for words that may be left out", offset: open)
                    }
                    if inner.allSatisfy(\.isEmpty) {
                        throw ExpressionSyntaxError(message: "empty '\(c)\(c == "(" ? ")" : "]")'", offset: open)
                    }
                    branches[branches.count - 1].append(c == "(" ? .alternatives(inner) : .optional(inner))
                } else if c == "{" || c == "<" {
                    let close: Unicode.Scalar = c == "{" ? "}" : ">"
                    let open = i
                    i += 1
                    let nameStart = i
                    var plain = true
                    while i < characters.count, characters[i] != close {
                        guard !PhraseTemplateParser.isSpecial(characters[i]) else {
                            throw ExpressionSyntaxError(message: "'\(c)' is never closed with '\(close)'", offset: open)
                        }
                        if plain, !characters[i].isPlainNameScalar { plain = false }
                        i += 1
                    }
                    guard i < characters.count else {
                        throw ExpressionSyntaxError(message: "'\(c)' is never closed with '\(close)'", offset: open)
                    }
                    var name = characters.string(nameStart..<i)
                    i += 1
                    // ASCII letters, digits and "_" alone are a valid name as they stand.
                    if !plain { name = name.trimmed }
                    guard !name.isEmpty, plain || name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                        throw ExpressionSyntaxError(
                            message: "'\(c)\(name)\(close)' is not a valid \(c == "{" ? "slot" : "rule") name",
                            offset: open)
                    }
                    if c == "<" {
                        branches[branches.count - 1].append(.rule(name, offset: open + 1))
                    } else {
                        branches[branches.count - 1].append(name == "app" ? .app : .slot(name, offset: open + 1))
                    }
                } else if c == "}" || c == ">" {
                    throw ExpressionSyntaxError(message: "unexpected '\(c)'", offset: i)
                } else {
                    let wordStart = i
                    while i < characters.count, !characters[i].isSpace, !PhraseTemplateParser.isSpecial(characters[i]) {
                        i += 1
                    }
                    branches[branches.count - 1].append(.word(characters.string(wordStart..<i)))
                }
            }
            return branches
        }
    }
}

extension Unicode.Scalar {
    /// An ASCII letter, digit or "_": what a slot or rule name is made of, decided without Unicode tables.
    fileprivate var isPlainNameScalar: Bool {
        (value >= 0x61 && value <= 0x7A) || (value >= 0x41 && value <= 0x5A) || (value >= 0x30 && value <= 0x39)
            || value == 0x5F
    }
}
