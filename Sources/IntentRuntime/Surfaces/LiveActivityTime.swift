public import Foundation
public import IntentModel

/// Times as a live activity shows them, in its snapshot's texts and when it is drawn.
public enum LiveActivityTime {
    /// A countdown as a timer shows it: `4:59`, `1:02:03`.
    public static func countdown(_ seconds: Int) -> String {
        let hours = seconds / 3_600, minutes = seconds % 3_600 / 60, rest = seconds % 60
        return hours > 0
            ? "\(hours):" + String(format: "%02d:%02d", minutes, rest) : "\(minutes):" + String(format: "%02d", rest)
    }

    /// `14:30` in the clock's zone.
    public static func time(_ date: Date, _ clock: Clock) -> String {
        let parts = clock.calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }
}
