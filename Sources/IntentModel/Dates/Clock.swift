public import Foundation

/// The one source of "now" and of the calendar and time zone every date is resolved and shown in.
///
/// Relative dates (`tomorrow at 9`, `now`, a default of `today`) become moments here and nowhere
/// else. A clock is fixed by `$INTENTS_NOW` for reproducible runs; `frozen()` holds one reading for
/// the length of an answer.
public struct Clock: Sendable {
    private let reading: @Sendable () -> Date
    /// Gregorian, in the clock's time zone.
    public let calendar: Calendar

    public init(timeZone: TimeZone = .current, now: @escaping @Sendable () -> Date = { Date() }) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
        self.reading = now
    }

    /// A clock that always reads `moment`.
    public static func fixed(_ moment: Date, timeZone: TimeZone = .current) -> Clock {
        Clock(timeZone: timeZone) { moment }
    }

    /// The system clock in the process's time zone (`$TZ`), unless `INTENTS_NOW` fixes the moment
    /// (ISO-8601; without a zone it is local time).
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ClockError) -> Clock {
        let zone = TimeZone.current
        guard let text = environment["INTENTS_NOW"], !text.isEmpty else { return Clock(timeZone: zone) }
        guard let moment = ISODate.parse(text, timeZone: zone) else { throw ClockError(text: text) }
        return .fixed(moment, timeZone: zone)
    }

    public var now: Date { reading() }
    public var timeZone: TimeZone { calendar.timeZone }

    /// This clock stopped at its current reading: one "now" for everything one answer does.
    public func frozen() -> Clock {
        .fixed(now, timeZone: timeZone)
    }

    /// The moment `value` names, counted from `now`.
    public func resolve(_ value: DateValue) -> Date {
        resolve(value, at: now)
    }

    public func resolve(_ value: DateValue, at now: Date) -> Date {
        switch value {
        case .moment(let date): return date
        case .now: return now
        case .relative(let days, let time):
            return day(days, from: now, at: time)
        case .local(let year, let month, let day, let time):
            let components = DateComponents(
                year: year, month: month, day: day, hour: time?.hour ?? 0, minute: time?.minute ?? 0,
                second: time?.second ?? 0)
            return calendar.date(from: components) ?? now
        }
    }

    /// A definition value with its relative dates made moments (for storing defaults).
    public func resolve(_ value: Value) -> Value {
        resolve(value, at: now)
    }

    public func resolve(_ value: Value, at now: Date) -> Value {
        switch value {
        case .date(let date): .date(.moment(resolve(date, at: now)))
        case .array(let items): .array(items.map { resolve($0, at: now) })
        default: value
        }
    }

    /// The start of the day `days` after the day of `date`, or that day at `time`.
    public func day(_ days: Int, from date: Date, at time: TimeOfDay? = nil) -> Date {
        let start = calendar.startOfDay(for: date)
        let day = calendar.date(byAdding: .day, value: days, to: start) ?? start
        guard let time else { return day }
        return calendar.date(bySettingHour: time.hour, minute: time.minute, second: time.second, of: day) ?? day
    }

    public func startOfDay(_ date: Date) -> Date {
        calendar.startOfDay(for: date)
    }

    /// How a person reads `date` today: `09:00`, `tomorrow at 09:00`, `Mon 2 Mar`, `Mon 2 Mar 2027 at 09:00`;
    /// in German `09:00`, `morgen um 09:00`, `Mo 2. Mär`, `Mo 2. Mär 2027 um 09:00`.
    public func describe(_ date: Date, language: String? = nil) -> String {
        describe(date, at: now, language: language)
    }

    public func describe(_ date: Date, at now: Date, language: String? = nil) -> String {
        let words = language == "de" ? DayWords.german : DayWords.english
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .weekday], from: date)
        let hasTime = parts.hour != 0 || parts.minute != 0
        let time = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        let days = calendar.dateComponents([.day], from: startOfDay(now), to: startOfDay(date)).day ?? 0
        let day: String
        switch days {
        case 0: return hasTime ? time : words.today
        case 1: day = words.tomorrow
        case -1: day = words.yesterday
        default:
            day =
                "\(words.weekdays[((parts.weekday ?? 1) - 1) % 7]) \(parts.day ?? 1)\(words.dayMark) "
                + words.months[((parts.month ?? 1) - 1) % 12]
                + (parts.year != calendar.component(.year, from: now) ? " \(parts.year ?? 0)" : "")
        }
        return hasTime ? "\(day) \(words.at) \(time)" : day
    }
}

/// The words a date is read with, per language.
private struct DayWords {
    let today: String, tomorrow: String, yesterday: String, at: String, dayMark: String
    let weekdays: [String], months: [String]

    static let english = DayWords(
        today: "today", tomorrow: "tomorrow", yesterday: "yesterday", at: "at", dayMark: "",
        weekdays: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
        months: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"])
    static let german = DayWords(
        today: "heute", tomorrow: "morgen", yesterday: "gestern", at: "um", dayMark: ".",
        weekdays: ["So", "Mo", "Di", "Mi", "Do", "Fr", "Sa"],
        months: ["Jan", "Feb", "Mär", "Apr", "Mai", "Jun", "Jul", "Aug", "Sep", "Okt", "Nov", "Dez"])
}

/// `INTENTS_NOW` that is not a date.
public struct ClockError: Error, CustomStringConvertible {
    public let text: String
    public var description: String { "INTENTS_NOW is not an ISO-8601 date: \(text)" }
}
