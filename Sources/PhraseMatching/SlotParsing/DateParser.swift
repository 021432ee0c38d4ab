import Foundation
import IntentModel

/// Dates and times relative to a reference moment: "today", "tomorrow at 9", "next monday",
/// "on march 3rd", "in 2 hours", "at 9:30 pm", "morgen um 9", "am Montag", "2026-03-01".
struct DateParser {
    struct Parsed {
        var date: Date
        var length: Int
        var hasTime: Bool
        /// Why the words name no date ("February has 28 days in 2026", a span out of range): the
        /// words are the date's all the same, and the answer is this error.
        var problem: String? = nil
        /// Letters corrected in date words ("tommorow").
        var edits = 0

        /// A moment when a time was said, else the day, in the clock's zone.
        func value(in clock: Clock) -> DateValue {
            if hasTime { return .moment(date) }
            let day = clock.calendar.dateComponents([.year, .month, .day], from: date)
            return .local(year: day.year ?? 1970, month: day.month ?? 1, day: day.day ?? 1, time: nil)
        }
    }

    let clock: Clock
    private var now: Date { clock.now }
    private var calendar: Calendar { clock.calendar }

    static let weekdays: [String: Int] = [
        "sunday": 1, "monday": 2, "tuesday": 3, "wednesday": 4, "thursday": 5, "friday": 6, "saturday": 7,
        "sonntag": 1, "montag": 2, "dienstag": 3, "mittwoch": 4, "donnerstag": 5, "freitag": 6, "samstag": 7,
        "sonnabend": 7,
    ]
    static let months: [String: Int] = [
        "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4, "may": 5,
        "june": 6,
        "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9, "sep": 9, "sept": 9, "october": 10,
        "oct": 10,
        "november": 11, "nov": 11, "december": 12, "dec": 12,
        "januar": 1, "februar": 2, "marz": 3, "mai": 5, "juni": 6, "juli": 7, "oktober": 10, "dezember": 12,
    ]

    /// The date words typos are corrected to ("tommorow", "wendsday"): those of seven letters or
    /// more, so that short words and names ("morgan", "money") stay what they are.
    static let correctable: [String] =
        (["tomorrow", "yesterday", "tonight", "vorgestern", "ubermorgen"] + Array(weekdays.keys) + Array(months.keys))
        .filter { $0.count >= 7 }.sorted()

    /// `word` itself when it is a date word or not close to one; else the date word within one
    /// letter (two from eight letters on), with the distance.
    static func corrected(_ word: String) -> (word: String, edits: Int) {
        guard word.utf8.count >= 6, word.allSatisfy(\.isLetter), !correctable.contains(word), weekdays[word] == nil,
            months[word] == nil
        else { return (word, 0) }
        for known in correctable where known.utf8.first == word.utf8.first && abs(known.count - word.count) <= 2 {
            if let distance = EditDistance.within(word, known, limit: known.count >= 8 ? 2 : 1) {
                return (known, distance)
            }
        }
        return (word, 0)
    }

    func parse(_ tokens: [Token], at start: Int) -> Parsed? {
        // Date words with their typos corrected, in a window as long as any date expression.
        // Most sentences need none: then the tokens are read in place, without a copy.
        let window = min(tokens.count, start + 12)
        var fixes: [(offset: Int, word: String, edits: Int)] = []
        for position in start..<window {
            let fixed = Self.corrected(tokens[position].text)
            if fixed.edits > 0 { fixes.append((position - start, fixed.word, fixed.edits)) }
        }
        guard !fixes.isEmpty else { return parseCorrected(tokens, at: start) }
        var corrected = Array(tokens[start..<window])
        var edits = [Int](repeating: 0, count: corrected.count)
        for fix in fixes {
            corrected[fix.offset].text = fix.word
            edits[fix.offset] = fix.edits
        }
        guard var parsed = parseCorrected(corrected, at: 0) else { return nil }
        parsed.edits = edits.prefix(parsed.length).reduce(0, +)
        return parsed
    }

    /// The date the words at `start` say as written, no typo corrected: cheaper than `parse`, for
    /// words read outside any slot (`Matcher`'s values said anywhere).
    func parseExact(_ tokens: [Token], at start: Int) -> Parsed? {
        parseCorrected(tokens, at: start)
    }

    /// Words that say a date is a deadline ("due friday", "by tomorrow", "bis morgen", "fällig am
    /// Montag"): they belong to the date they introduce, never to the free text before it.
    static let deadlineWords: Set<String> = ["due", "by", "until", "till", "bis", "fallig"]
    /// Words a date reads as its own first word ("on friday", "at 9", "um 9", "in 3 days"), besides
    /// the deadline words.
    static let leadingWords: Set<String> = ["on", "am", "at", "um", "gegen", "zu", "in"]

    private func parseCorrected(_ tokens: [Token], at start: Int) -> Parsed? {
        if let parsed = parseDate(tokens, at: start) { return parsed }
        guard let first = word(tokens, start), Self.deadlineWords.contains(first),
            var parsed = parseDate(tokens, at: start + 1)
        else { return nil }
        parsed.length += 1
        return parsed
    }

    private func parseDate(_ tokens: [Token], at start: Int) -> Parsed? {
        var index = start
        var day: Date?
        var dayHasTime = false
        var time: (hour: Int, minute: Int)?
        // Up to a day part and a time part, in either order: "tomorrow at 9", "at 9 tomorrow".
        for _ in 0..<2 {
            if day == nil, let parsed = parseDay(tokens, at: index) {
                if let problem = parsed.problem {
                    return Parsed(date: now, length: index - start + parsed.length, hasTime: false, problem: problem)
                }
                day = parsed.date
                dayHasTime = parsed.hasTime
                index += parsed.length
                continue
            }
            if time == nil, let (parsed, length) = parseTime(tokens, at: index) {
                time = parsed
                index += length
                continue
            }
            if day == nil, time == nil, let relative = parseRelative(tokens, at: index) {
                return relative
            }
            break
        }
        guard index > start else { return nil }
        var date = day ?? calendar.startOfDay(for: now)
        if let time {
            date = calendar.date(bySettingHour: time.hour, minute: time.minute, second: 0, of: date) ?? date
            // "at 9" with no day means the next 9 o'clock.
            if day == nil, date < now { date = calendar.date(byAdding: .day, value: 1, to: date) ?? date }
        }
        return Parsed(date: date, length: index - start, hasTime: time != nil || dayHasTime)
    }

    private func word(_ tokens: [Token], _ index: Int) -> String? {
        index < tokens.count ? tokens[index].text : nil
    }

    /// A day: its start (or a moment, for "tonight"), the words it took, or why it is no day.
    private struct Day {
        var date: Date
        var length: Int
        var hasTime = false
        var problem: String?
    }

    private func parseDay(_ tokens: [Token], at start: Int) -> Day? {
        guard let first = word(tokens, start) else { return nil }
        // Worked out only when a word names a day: most positions a sentence is tried at name none.
        var today: Date { calendar.startOfDay(for: now) }
        func add(_ days: Int) -> Date { calendar.date(byAdding: .day, value: days, to: today)! }
        func day(_ date: Date, _ length: Int) -> Day { Day(date: date, length: length) }
        switch first {
        case "today", "heute": return day(today, 1)
        case "tonight":
            // 8 pm, or the next full hour once 8 pm has passed: never a moment already gone.
            let evening = calendar.date(bySettingHour: 20, minute: 0, second: 0, of: today)!
            var moment = evening
            if moment <= now {
                let hour = calendar.dateInterval(of: .hour, for: now)?.end ?? now
                moment = hour
            }
            return Day(date: moment, length: 1, hasTime: true)
        case "tomorrow", "morgen":
            if word(tokens, start + 1) == "morning" {
                let morning = calendar.date(bySettingHour: 9, minute: 0, second: 0, of: add(1))!
                return Day(date: morning, length: 2, hasTime: true)
            }
            return day(add(1), 1)
        case "yesterday", "gestern": return day(add(-1), 1)
        case "vorgestern": return day(add(-2), 1)
        case "ubermorgen": return day(add(2), 1)
        default: break
        }
        if first == "the", word(tokens, start + 1) == "day", word(tokens, start + 2) == "after",
            word(tokens, start + 3) == "tomorrow"
        {
            return day(add(2), 4)
        }
        if first == "day", word(tokens, start + 1) == "after", word(tokens, start + 2) == "tomorrow" {
            return day(add(2), 3)
        }
        if first == "the", word(tokens, start + 1) == "day", word(tokens, start + 2) == "before",
            word(tokens, start + 3) == "yesterday"
        {
            return day(add(-2), 4)
        }
        // [on|am] ISO date
        let isoIndex = ["on", "am"].contains(first) ? start + 1 : start
        if let iso = word(tokens, isoIndex), iso.count == 10, iso.dropFirst(4).first == "-" {
            let parts = iso.split(separator: "-").compactMap { Int($0) }
            if parts.count == 3 {
                let length = isoIndex - start + 1
                if let problem = Self.impossible(year: parts[0], month: parts[1], day: parts[2], calendar: calendar) {
                    return Day(date: now, length: length, problem: problem)
                }
                if let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])) {
                    return day(date, length)
                }
            }
        }
        // last|letzten|vergangenen weekday: the most recent one before today.
        if ["last", "letzten", "letzte", "vergangenen", "previous"].contains(first), let name = word(tokens, start + 1),
            let weekday = Self.weekdays[name]
        {
            let current = calendar.component(.weekday, from: today)
            let delta = (current - weekday + 7) % 7
            return day(add(-(delta == 0 ? 7 : delta)), 2)
        }
        // [on|next|this|am|nächsten|kommenden] weekday
        var index = start
        var forceNext = false
        if ["on", "am", "this", "diesen", "coming"].contains(first) { index += 1 }
        if ["next", "nachsten", "kommenden", "naechsten"].contains(word(tokens, index) ?? "") {
            forceNext = true
            index += 1
        }
        if let name = word(tokens, index), let weekday = Self.weekdays[name] {
            let current = calendar.component(.weekday, from: today)
            var delta = (weekday - current + 7) % 7
            if delta == 0 || (forceNext && delta < 7 && first != "this") { delta = delta == 0 ? 7 : delta }
            return day(add(delta), index - start + 1)
        }
        // [on] march 3[rd] | [on] the 3rd of march | 3. märz | 3 march
        index = start
        if ["on", "am"].contains(first) { index += 1 }
        if word(tokens, index) == "the" { index += 1 }
        if let name = word(tokens, index), let month = Self.months[name], let dayWord = word(tokens, index + 1),
            let dayNumber = NumberParser.ordinal(dayWord) ?? Int(dayWord), (1...31).contains(dayNumber)
        {
            return nextDate(month: month, day: dayNumber, length: index - start + 2)
        }
        if let dayWord = word(tokens, index), let dayNumber = NumberParser.ordinal(dayWord) ?? Int(dayWord),
            (1...31).contains(dayNumber)
        {
            var monthIndex = index + 1
            if word(tokens, monthIndex) == "of" { monthIndex += 1 }
            if let name = word(tokens, monthIndex), let month = Self.months[name] {
                return nextDate(month: month, day: dayNumber, length: monthIndex - start + 1)
            }
        }
        return nil
    }

    /// A day of the month without a year: its next occurrence, today included (this year's when
    /// it has not passed, else next year's). A day the month does not have is an error, never
    /// rolled over into the next month.
    private func nextDate(month: Int, day: Int, length: Int) -> Day {
        var year = calendar.component(.year, from: now)
        let thisMonth = calendar.component(.month, from: now), today = calendar.component(.day, from: now)
        if (month, day) < (thisMonth, today) { year += 1 }
        if let problem = Self.impossible(year: year, month: month, day: day, calendar: calendar) {
            return Day(date: now, length: length, problem: problem)
        }
        let date = calendar.date(from: DateComponents(year: year, month: month, day: day)) ?? now
        return Day(date: date, length: length)
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// Why `year-month-day` is no day of the calendar ("February has 28 days in 2026"), or nil.
    static func impossible(year: Int, month: Int, day: Int, calendar: Calendar) -> String? {
        guard (1...12).contains(month) else { return "There is no month \(month)." }
        guard (1...9999).contains(year) else { return "The year \(year) is out of range." }
        guard let first = calendar.date(from: DateComponents(year: year, month: month, day: 1)),
            let days = calendar.range(of: .day, in: .month, for: first)?.count
        else { return "\(year)-\(month)-\(day) is not a date." }
        guard (1...days).contains(day) else {
            return month == 2
                ? "February has \(days) days in \(year)." : "\(monthNames[month - 1]) has \(days) days."
        }
        return nil
    }

    private func parseTime(_ tokens: [Token], at start: Int) -> ((hour: Int, minute: Int), Int)? {
        guard let first = word(tokens, start) else { return nil }
        // "at noon", "um mitternacht": the preposition belongs to the time.
        let named = ["at", "um", "by", "gegen", "zu"].contains(first) ? start + 1 : start
        switch word(tokens, named) {
        case "noon", "mittag", "midday": return ((12, 0), named - start + 1)
        case "midnight", "mitternacht": return ((0, 0), named - start + 1)
        default: break
        }
        // "halb neun" is half past eight.
        if word(tokens, named) == "halb", let number = NumberParser.parse(tokens, at: named + 1), number.isInteger,
            (1...12).contains(number.value)
        {
            return ((Int(number.value) - 1, 30), named - start + 1 + number.length)
        }
        if first == "in", word(tokens, start + 1) == "the", let part = word(tokens, start + 2) {
            switch part {
            case "morning": return ((9, 0), 3)
            case "afternoon": return ((15, 0), 3)
            case "evening": return ((18, 0), 3)
            default: break
            }
        }
        var index = start
        let hasPreposition = ["at", "um", "by", "gegen"].contains(first)
        if hasPreposition { index += 1 }
        guard let clock = word(tokens, index) else { return nil }
        var hour: Int?
        var minute = 0
        var length = 1
        var text = clock
        var meridiem: String?
        for suffix in ["am", "pm", "a.m", "p.m"] where text.hasSuffix(suffix) && text.count > suffix.count {
            meridiem = suffix.hasPrefix("a") ? "am" : "pm"
            text = String(text.dropLast(suffix.count))
        }
        if text.utf8.contains(UInt8(ascii: ":")) {
            let parts = text.split(separator: ":").compactMap { Int($0) }
            if parts.count == 2 {
                hour = parts[0]
                minute = parts[1]
            }
        } else if let value = Int(text) {
            hour = value
        } else if let number = NumberParser.parse(tokens, at: index), number.isInteger, (0...24).contains(number.value),
            hasPreposition
        {
            hour = Int(number.value)
            length = number.length
        }
        guard var hourValue = hour, (0...24).contains(hourValue), (0...59).contains(minute) else { return nil }
        // A bare number is a time only after "at"/"um" or with am/pm/uhr/o'clock.
        var next = index + length
        if meridiem == nil, let following = word(tokens, next) {
            if ["am", "pm", "a.m", "p.m"].contains(following) {
                meridiem = following.hasPrefix("a") ? "am" : "pm"
                next += 1
            } else if ["uhr", "o'clock", "oclock"].contains(following) {
                next += 1
            }
        }
        guard hasPreposition || meridiem != nil || next > index + length || clock.utf8.contains(UInt8(ascii: ":"))
        else { return nil }
        if meridiem == "pm", hourValue < 12 { hourValue += 12 }
        if meridiem == "am", hourValue == 12 { hourValue = 0 }
        return ((hourValue % 24, minute), next - start)
    }

    /// "in 2 hours", "in five minutes", "in 3 days", "in zwei stunden"; back: "2 days ago",
    /// "vor zwei Tagen".
    private func parseRelative(_ tokens: [Token], at start: Int) -> Parsed? {
        func spoken(_ length: Int) -> String {
            tokens[start..<min(tokens.count, start + length)].map(\.raw).joined(separator: " ")
        }
        let ahead = word(tokens, start) == "in", back = word(tokens, start) == "vor"
        if ahead || back, let duration = DurationParser.parse(tokens, at: start + 1) {
            let length = duration.length + 1
            guard let seconds = duration.seconds else {
                return Parsed(date: now, length: length, hasTime: true, problem: Self.outOfRange(spoken(length)))
            }
            return relative(seconds: back ? -seconds : seconds, length: length)
        }
        if let duration = DurationParser.parse(tokens, at: start), word(tokens, start + duration.length) == "ago" {
            let length = duration.length + 1
            guard let seconds = duration.seconds else {
                return Parsed(date: now, length: length, hasTime: true, problem: Self.outOfRange(spoken(length)))
            }
            return relative(seconds: -seconds, length: length)
        }
        return nil
    }

    /// A moment `seconds` from now (back when negative), like "in three days" always was.
    private func relative(seconds: Int, length: Int) -> Parsed {
        Parsed(date: now.addingTimeInterval(TimeInterval(seconds)), length: length, hasTime: true)
    }

    static func outOfRange(_ words: String) -> String {
        "“\(words)” is out of range: a date can be at most 100 years away."
    }
}
