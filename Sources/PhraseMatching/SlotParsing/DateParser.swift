import Foundation
import IntentModel

/// Dates and times relative to a reference moment: "today", "tomorrow at 9", "next monday",
/// "on march 3rd", "in 2 hours", "at 9:30 pm", "morgen um 9", "am Montag", "2026-03-01".
struct DateParser {
    struct Parsed {
        var date: Date
        var length: Int
        var hasTime: Bool

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

    func parse(_ tokens: [Token], at start: Int) -> Parsed? {
        var index = start
        var day: Date?
        var time: (hour: Int, minute: Int)?
        // Up to a day part and a time part, in either order: "tomorrow at 9", "at 9 tomorrow".
        for _ in 0..<2 {
            if day == nil, let (date, length) = parseDay(tokens, at: index) {
                day = date
                index += length
                continue
            }
            if time == nil, let (parsed, length) = parseTime(tokens, at: index) {
                time = parsed
                index += length
                continue
            }
            if day == nil, time == nil, let (date, length) = parseRelative(tokens, at: index) {
                return Parsed(date: date, length: length, hasTime: true)
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
        return Parsed(date: date, length: index - start, hasTime: time != nil)
    }

    private func word(_ tokens: [Token], _ index: Int) -> String? {
        index < tokens.count ? tokens[index].text : nil
    }

    private func parseDay(_ tokens: [Token], at start: Int) -> (Date, Int)? {
        guard let first = word(tokens, start) else { return nil }
        let today = calendar.startOfDay(for: now)
        func add(_ days: Int) -> Date { calendar.date(byAdding: .day, value: days, to: today)! }
        switch first {
        case "today", "heute": return (today, 1)
        case "tonight": return (calendar.date(bySettingHour: 20, minute: 0, second: 0, of: today)!, 1)
        case "tomorrow", "morgen":
            if word(tokens, start + 1) == "morning" {
                return (calendar.date(bySettingHour: 9, minute: 0, second: 0, of: add(1))!, 2)
            }
            return (add(1), 1)
        case "yesterday", "gestern": return (add(-1), 1)
        case "ubermorgen": return (add(2), 1)
        default: break
        }
        if first == "the", word(tokens, start + 1) == "day", word(tokens, start + 2) == "after",
            word(tokens, start + 3) == "tomorrow"
        {
            return (add(2), 4)
        }
        if first == "day", word(tokens, start + 1) == "after", word(tokens, start + 2) == "tomorrow" {
            return (add(2), 3)
        }
        // ISO date
        if first.count == 10, first.dropFirst(4).first == "-", let date = isoDay(first) { return (date, 1) }
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
            return (add(delta), index - start + 1)
        }
        // [on] march 3[rd] | [on] the 3rd of march | 3. märz | 3 march
        index = start
        if ["on", "am"].contains(first) { index += 1 }
        if word(tokens, index) == "the" { index += 1 }
        if let name = word(tokens, index), let month = Self.months[name], let dayWord = word(tokens, index + 1),
            let dayNumber = NumberParser.ordinal(dayWord) ?? Int(dayWord), (1...31).contains(dayNumber)
        {
            return (nextDate(month: month, day: dayNumber), index - start + 2)
        }
        if let dayWord = word(tokens, index), let dayNumber = NumberParser.ordinal(dayWord) ?? Int(dayWord),
            (1...31).contains(dayNumber)
        {
            var monthIndex = index + 1
            if word(tokens, monthIndex) == "of" { monthIndex += 1 }
            if let name = word(tokens, monthIndex), let month = Self.months[name] {
                return (nextDate(month: month, day: dayNumber), monthIndex - start + 1)
            }
        }
        return nil
    }

    private func nextDate(month: Int, day: Int) -> Date {
        let year = calendar.component(.year, from: now)
        var components = DateComponents(year: year, month: month, day: day)
        var date = calendar.date(from: components) ?? now
        if date < calendar.startOfDay(for: now) {
            components.year = year + 1
            date = calendar.date(from: components) ?? date
        }
        return date
    }

    private func isoDay(_ text: String) -> Date? {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
    }

    private func parseTime(_ tokens: [Token], at start: Int) -> ((hour: Int, minute: Int), Int)? {
        guard let first = word(tokens, start) else { return nil }
        switch first {
        case "noon", "mittag", "midday": return ((12, 0), 1)
        case "midnight", "mitternacht": return ((0, 0), 1)
        default: break
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
        if text.contains(":") {
            let parts = text.split(separator: ":").compactMap { Int($0) }
            if parts.count == 2 {
                hour = parts[0]
                minute = parts[1]
            }
        } else if let value = Int(text) {
            hour = value
        } else if let number = NumberParser.parse(tokens, at: index), number.isInteger, number.value <= 24,
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
        guard hasPreposition || meridiem != nil || next > index + length || clock.contains(":") else { return nil }
        if meridiem == "pm", hourValue < 12 { hourValue += 12 }
        if meridiem == "am", hourValue == 12 { hourValue = 0 }
        return ((hourValue % 24, minute), next - start)
    }

    /// "in 2 hours", "in five minutes", "in 3 days", "in zwei stunden"
    private func parseRelative(_ tokens: [Token], at start: Int) -> (Date, Int)? {
        guard word(tokens, start) == "in", let duration = DurationParser.parse(tokens, at: start + 1) else {
            return nil
        }
        return (now.addingTimeInterval(TimeInterval(duration.seconds)), duration.length + 1)
    }
}
