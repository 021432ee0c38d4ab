import IntentModel

/// Durations: "five minutes", "25 min", "1h30", "an hour and a half", "half an hour", "eine halbe Stunde".
enum DurationParser {
    struct Parsed {
        /// Nil when the words name a span longer than `maximumSeconds` (an error, never wrapped).
        var seconds: Int?
        var length: Int
    }

    /// The longest span a phrase may name: 100 years. Anything longer is out of range, not rounded.
    static let maximumSeconds = 100 * 366 * 86_400

    static let unitSeconds: [String: Int] = [
        "second": 1, "seconds": 1, "sec": 1, "secs": 1, "s": 1, "sekunde": 1, "sekunden": 1,
        "minute": 60, "minutes": 60, "min": 60, "mins": 60, "m": 60, "minuten": 60,
        "hour": 3600, "hours": 3600, "hr": 3600, "hrs": 3600, "h": 3600, "stunde": 3600, "stunden": 3600, "std": 3600,
        "day": 86400, "days": 86400, "tag": 86400, "tage": 86400, "tagen": 86400,
        "week": 604_800, "weeks": 604_800, "woche": 604_800, "wochen": 604_800,
    ]

    static func parse(_ tokens: [Token], at start: Int) -> Parsed? {
        // In floating point, checked once at the end: parts of any size add without overflow.
        var total = 0.0
        var index = start
        var end = start
        while index < tokens.count {
            guard let part = parsePart(tokens, at: index) else { break }
            total += part.seconds
            index += part.length
            end = index
            // "an hour and a half", "1 hour and 30 minutes"
            if index + 2 < tokens.count, ["and", "und"].contains(tokens[index].text) {
                if ["a", "an"].contains(tokens[index + 1].text), tokens[index + 2].text == "half", part.unit > 0 {
                    total += Double(part.unit) / 2
                    index += 3
                    end = index
                    continue
                }
                if parsePart(tokens, at: index + 1) != nil {
                    index += 1
                    continue
                }
            }
            if index < tokens.count, let next = parsePart(tokens, at: index), next.length > 0 { continue }
            break
        }
        guard end > start else { return nil }
        let rounded = total.rounded()
        return Parsed(seconds: rounded <= Double(maximumSeconds) ? Int(rounded) : nil, length: end - start)
    }

    private struct Part {
        var seconds: Double
        var length: Int
        var unit: Int
    }

    private static func parsePart(_ tokens: [Token], at start: Int) -> Part? {
        guard start < tokens.count else { return nil }
        let word = tokens[start].text
        // One token: "25m", "1h30", "1h30m", "90s", "1:30"
        if let first = word.first, first.isNumber, word.contains(where: \.isLetter) {
            var text = word
            if text.last?.isNumber == true, text.contains("h") { text += "m" }
            if let seconds = DurationText.parse(text), seconds > 0 {
                return Part(seconds: Double(seconds), length: 1, unit: 0)
            }
        }
        // "half an hour", "a quarter of an hour", "eine halbe stunde", "anderthalb stunden"
        if word == "half", start + 2 < tokens.count, ["a", "an"].contains(tokens[start + 1].text),
            let unit = unitSeconds[tokens[start + 2].text]
        {
            return Part(seconds: Double(unit) / 2, length: 3, unit: unit)
        }
        if word == "quarter", start + 3 < tokens.count, tokens[start + 1].text == "of",
            ["a", "an"].contains(tokens[start + 2].text),
            let unit = unitSeconds[tokens[start + 3].text]
        {
            return Part(seconds: Double(unit) / 4, length: 4, unit: unit)
        }
        if ["a", "an"].contains(word), start + 1 < tokens.count, tokens[start + 1].text == "quarter",
            start + 4 < tokens.count,
            tokens[start + 2].text == "of", let unit = unitSeconds[tokens[start + 4].text]
        {
            return Part(seconds: Double(unit) / 4, length: 5, unit: unit)
        }
        if ["eine", "einer", "ein"].contains(word), start + 2 < tokens.count,
            ["halbe", "halben"].contains(tokens[start + 1].text),
            let unit = unitSeconds[tokens[start + 2].text]
        {
            return Part(seconds: Double(unit) / 2, length: 3, unit: unit)
        }
        if ["anderthalb", "eineinhalb"].contains(word), start + 1 < tokens.count,
            let unit = unitSeconds[tokens[start + 1].text]
        {
            return Part(seconds: Double(unit) * 3 / 2, length: 2, unit: unit)
        }
        // "an hour", "a minute", "eine stunde"
        if ["a", "an", "one", "eine", "einen", "ein"].contains(word), start + 1 < tokens.count,
            let unit = unitSeconds[tokens[start + 1].text], tokens[start + 1].text.count > 1
        {
            return Part(seconds: Double(unit), length: 2, unit: unit)
        }
        guard let number = NumberParser.parse(tokens, at: start), number.value > 0 else { return nil }
        var unitIndex = start + number.length
        // "two and a half hours", "zwei und eine halbe stunde"
        var half = 0.0
        if unitIndex + 2 < tokens.count, ["and", "und"].contains(tokens[unitIndex].text),
            ["a", "an", "eine", "ein"].contains(tokens[unitIndex + 1].text),
            ["half", "halbe", "halb"].contains(tokens[unitIndex + 2].text),
            unitIndex + 3 < tokens.count, unitSeconds[tokens[unitIndex + 3].text] != nil
        {
            half = 0.5
            unitIndex += 3
        }
        guard unitIndex < tokens.count, let unit = unitSeconds[tokens[unitIndex].text] else { return nil }
        return Part(seconds: (number.value + half) * Double(unit), length: unitIndex - start + 1, unit: unit)
    }
}
