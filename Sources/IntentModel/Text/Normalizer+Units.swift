extension Normalizer {
    /// Units a number may be glued to, and the words they are read as: "50%" is "50 percent",
    /// "20°" is "20 degrees", "5min" is "5 minutes", "2h" is "2 hours": what templates spell out.
    static let gluedUnits: [String: [String]] = [
        "%": ["percent"], "°": ["degrees"], "°c": ["degrees", "celsius"], "°f": ["degrees", "fahrenheit"],
        "min": ["minutes"], "mins": ["minutes"], "m": ["minutes"], "h": ["hours"], "hr": ["hours"], "hrs": ["hours"],
        "s": ["seconds"], "sec": ["seconds"], "secs": ["seconds"], "x": ["times"],
        "km": ["km"], "kg": ["kg"], "cm": ["cm"], "mm": ["mm"], "ml": ["ml"], "l": ["l"], "g": ["g"],
    ]

    /// `tokens` with every number glued to a unit split into the number and the unit's words. Both
    /// keep the characters they came from, so free text still quotes "50%" as typed.
    static func splittingUnits(_ tokens: [Token]) -> [Token] {
        guard tokens.contains(where: { $0.text.first?.isNumber == true && !$0.text.allSatisfy(isNumberCharacter) })
        else { return tokens }
        var result: [Token] = []
        result.reserveCapacity(tokens.count + 2)
        for token in tokens {
            guard let split = unitSplit(token) else {
                result.append(token)
                continue
            }
            result += split
        }
        return result
    }

    private static func isNumberCharacter(_ character: Character) -> Bool {
        character.isNumber || character == "." || character == ","
    }

    private static func unitSplit(_ token: Token) -> [Token]? {
        let text = token.text
        guard text.first?.isNumber == true, let unitStart = text.firstIndex(where: { !isNumberCharacter($0) }) else {
            return nil
        }
        let number = text[..<unitStart]
        guard number.last?.isNumber == true, let words = gluedUnits[String(text[unitStart...])] else { return nil }
        // The raw word splits where its number ends: as many characters as the folded number has.
        let count = number.count
        guard token.raw.count > count else { return nil }
        let rawNumber = String(token.raw.prefix(count))
        let rawUnit = String(token.raw.dropFirst(count))
        var numberSource: Substring?
        var unitSource: Substring?
        if let source = token.source, source.count == token.raw.count {
            numberSource = source.prefix(count)
            unitSource = source.dropFirst(count)
        }
        var split = [Token(text: String(number), raw: rawNumber, source: numberSource ?? token.source)]
        for (index, word) in words.enumerated() {
            split.append(
                Token(
                    text: word, raw: index == 0 ? rawUnit : word,
                    trailing: index == words.count - 1 ? token.trailing : "",
                    source: unitSource ?? token.source))
        }
        return split
    }
}
