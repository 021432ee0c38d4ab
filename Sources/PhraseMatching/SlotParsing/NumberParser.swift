import IntentModel

/// Numbers written as digits or words, in English and German: "25", "2.5", "twenty five",
/// "fünfundzwanzig", "20 point 5", "zwei komma fünf", "a dozen", "half a dozen".
enum NumberParser {
    struct Parsed {
        var value: Double
        var length: Int
        var isInteger: Bool
    }

    static let units: [String: Int] = [
        "zero": 0, "oh": 0, "one": 1, "a": 1, "an": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
        "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
        "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
        "null": 0, "eins": 1, "ein": 1, "eine": 1, "einen": 1, "einem": 1, "zwei": 2, "zwo": 2, "drei": 3, "vier": 4,
        "funf": 5,
        "sechs": 6, "sieben": 7, "acht": 8, "neun": 9, "zehn": 10, "elf": 11, "zwolf": 12, "dreizehn": 13,
        "vierzehn": 14, "funfzehn": 15, "sechzehn": 16, "siebzehn": 17, "achtzehn": 18, "neunzehn": 19,
    ]
    static let tens: [String: Int] = [
        "twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
        "ninety": 90,
        "zwanzig": 20, "dreissig": 30, "vierzig": 40, "funfzig": 50, "sechzig": 60, "siebzig": 70, "achtzig": 80,
        "neunzig": 90,
    ]
    static let scales: [String: Int] = [
        "hundred": 100, "hundert": 100, "thousand": 1000, "tausend": 1000, "million": 1_000_000, "millionen": 1_000_000,
        "millions": 1_000_000,
    ]
    static let dozens: [String: Int] = ["dozen": 12, "dutzend": 12, "couple": 2, "paar": 2]

    /// The longest number at `start`, if there is one.
    static func parse(_ tokens: [Token], at start: Int) -> Parsed? {
        guard start < tokens.count else { return nil }
        // Negative: "minus four", "negative 2.5", "-4" (whether the slot allows one is its type's business).
        if ["minus", "negative"].contains(tokens[start].text), let magnitude = parse(tokens, at: start + 1),
            magnitude.value >= 0
        {
            return Parsed(value: -magnitude.value, length: magnitude.length + 1, isInteger: magnitude.isInteger)
        }
        if tokens[start].text.hasPrefix("-"), tokens[start].text.dropFirst().first?.isNumber == true {
            var positive = tokens
            positive[start].text.removeFirst()
            guard let magnitude = parse(positive, at: start), magnitude.length == 1 else { return nil }
            return Parsed(value: -magnitude.value, length: 1, isInteger: magnitude.isInteger)
        }
        var best: Parsed?
        // Digits, with "." or "," as the decimal mark.
        let text = tokens[start].text
        if let first = text.first, first.isNumber {
            let normalized = text.replacingOccurrences(of: ",", with: ".")
            if let value = Double(normalized), value.isFinite {
                best = Parsed(value: value, length: 1, isInteger: !normalized.contains("."))
            } else if text.hasSuffix("st") || text.hasSuffix("nd") || text.hasSuffix("rd") || text.hasSuffix("th")
                || text.hasSuffix(".")
            {
                return nil
            }
        } else if let words = parseWords(tokens, at: start) {
            best = words
        }
        guard var number = best else { return nil }
        // "20 point 5", "zwei komma fünf"
        let next = start + number.length
        if number.isInteger, next + 1 < tokens.count, ["point", "komma", "dot"].contains(tokens[next].text) {
            var digits = ""
            var index = next + 1
            while index < tokens.count {
                let word = tokens[index].text
                if let digit = units[word], digit < 10, word != "a", word != "an" {
                    digits += String(digit)
                } else if word.count == 1, let digit = Int(word) {
                    digits += String(digit)
                } else if word.allSatisfy(\.isNumber), !word.isEmpty, digits.isEmpty {
                    digits = word
                    index += 1
                    break
                } else {
                    break
                }
                index += 1
            }
            if !digits.isEmpty, let fraction = Double("0." + digits) {
                number = Parsed(value: number.value + fraction, length: index - start, isInteger: false)
            }
        }
        return number
    }

    private enum Kind { case none, unit, teen, ten, hundred, scale }

    private static func parseWords(_ tokens: [Token], at start: Int) -> Parsed? {
        // "half a dozen"
        if tokens[start].text == "half", start + 2 < tokens.count, ["a", "an"].contains(tokens[start + 1].text),
            let dozen = dozens[tokens[start + 2].text]
        {
            return Parsed(value: Double(dozen) / 2, length: 3, isInteger: dozen % 2 == 0)
        }
        var total = 0, current = 0
        var last = Kind.none
        var index = start
        var end = start
        let articles: Set<String> = ["a", "an", "ein", "eine", "einen", "einem"]
        while index < tokens.count {
            let word = tokens[index].text
            if articles.contains(word) {
                // An article is a number only before a scale or a dozen: "a hundred", "a dozen".
                guard last == .none, index + 1 < tokens.count,
                    scales[tokens[index + 1].text] != nil || dozens[tokens[index + 1].text] != nil
                else { break }
                current = 1
                last = .unit
            } else if let dozen = dozens[word] {
                current = max(current, 1) * dozen
                last = .scale
                if index + 1 < tokens.count, tokens[index + 1].text == "of" { index += 1 }
            } else if let unit = units[word] {
                guard last == .none || last == .ten || last == .hundred || last == .scale else { break }
                if unit >= 10 && last == .ten { break }
                current += unit
                last = unit >= 10 ? .teen : .unit
            } else if last == .none || last == .hundred || last == .scale, let compound = hyphenated(word) {
                // "twenty-five", "forty-five"
                current += compound
                last = .teen
            } else if let ten = tens[word] {
                guard last == .none || last == .hundred || last == .scale else { break }
                current += ten
                last = .ten
            } else if let scale = scales[word] {
                guard last != .none || index == start else { break }
                if scale >= 1000 {
                    total += max(current, 1) * scale
                    current = 0
                    last = .scale
                } else {
                    current = max(current, 1) * scale
                    last = .hundred
                }
            } else if word == "and" || word == "und" {
                guard last == .hundred || last == .scale, index + 1 < tokens.count,
                    units[tokens[index + 1].text] != nil || tens[tokens[index + 1].text] != nil
                else { break }
                index += 1
                continue
            } else if last == .none, let compound = germanCompound(word) {
                current = compound
                last = .scale
                index += 1
                end = index
                break
            } else {
                break
            }
            index += 1
            end = index
        }
        guard end > start else { return nil }
        return Parsed(value: Double(total + current), length: end - start, isInteger: true)
    }

    /// "twenty-five" → 25: a ten and a unit joined by a hyphen.
    static func hyphenated(_ word: String) -> Int? {
        guard word.utf8.contains(UInt8(ascii: "-")) else { return nil }
        let parts = word.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let ten = tens[String(parts[0])], let unit = units[String(parts[1])],
            (1...9).contains(unit), !["a", "an", "oh"].contains(String(parts[1]))
        else { return nil }
        return ten + unit
    }

    /// "fünfundzwanzig" → 25, "einhundertzwanzig" → 120, "zweitausend" → 2000.
    static func germanCompound(_ word: String) -> Int? {
        guard word.count > 4 else { return nil }
        // Every such word has "und" ("hundert", "fünfundzwanzig") or "tausend" in it: most words
        // have neither, and are not searched for each (a Foundation search costs 4,000 instructions).
        guard Self.has(word, "und") || Self.has(word, "tausend") else { return nil }
        for (scaleWord, scale) in [("tausend", 1000), ("hundert", 100)] {
            if let range = word.range(of: scaleWord) {
                let head = String(word[..<range.lowerBound])
                let tail = String(word[range.upperBound...])
                let multiplier = head.isEmpty ? 1 : (units[head] ?? germanCompound(head))
                guard let multiplier else { return nil }
                let rest = tail.isEmpty ? 0 : (units[tail] ?? tens[tail] ?? germanCompound(tail))
                guard let rest else { return nil }
                return multiplier * scale + rest
            }
        }
        if let range = word.range(of: "und") {
            let head = String(word[..<range.lowerBound])
            let tail = String(word[range.upperBound...])
            if let unit = units[head], unit < 10, let ten = tens[tail] { return ten + unit }
        }
        return nil
    }

    /// Whether `part` (ASCII) occurs in `word`, byte for byte.
    static func has(_ word: String, _ part: StaticString) -> Bool {
        let needle = UnsafeBufferPointer(start: part.utf8Start, count: part.utf8CodeUnitCount)
        let bytes = Array(word.utf8)
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count)
        where bytes[start] == needle[0] && bytes[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }

    /// Ordinals for days of the month: "3rd", "third", "dritten", "3.".
    static func ordinal(_ word: String) -> Int? {
        let suffixes = ["st", "nd", "rd", "th", "."]
        for suffix in suffixes where word.hasSuffix(suffix) {
            if let value = Int(word.dropLast(suffix.count)) { return value }
        }
        return ordinalWords[word]
    }

    /// Ordinal words, built once: a dictionary literal in `ordinal` was built on every call, and
    /// dates are tried at every position of every sentence.
    static let ordinalWords: [String: Int] = [
        "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
        "ninth": 9,
        "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14, "fifteenth": 15,
        "sixteenth": 16,
        "seventeenth": 17, "eighteenth": 18, "nineteenth": 19, "twentieth": 20, "thirtieth": 30,
        "ersten": 1, "zweiten": 2, "dritten": 3, "vierten": 4, "funften": 5, "sechsten": 6, "siebten": 7,
        "achten": 8,
        "neunten": 9, "zehnten": 10, "erster": 1, "zweiter": 2, "dritter": 3,
    ]
}
