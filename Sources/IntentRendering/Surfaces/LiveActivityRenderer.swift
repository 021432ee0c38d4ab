import Foundation
public import IntentModel
public import IntentRuntime

/// Draws live activities: one line each for `intents activities`, the Dynamic Island for the
/// prompt, and each presentation in a box as ActivityKit lays them out.
public struct LiveActivityRenderer: Sendable {
    public var ascii: Bool

    /// The presentations of an activity (ActivityKit's view kinds).
    public enum Presentation: String, Sendable, CaseIterable {
        case compact, minimal, expanded, lockScreen
    }

    public init(ascii: Bool = false) {
        self.ascii = ascii
    }

    /// `⏱ Focus   Deep work   ▓▓▓▓▓░░░░░  18:42  active`: every activity's columns aligned.
    public func lines(_ snapshots: [LiveActivitySnapshot], clock: Clock) -> [String] {
        let titles = snapshots.map { "\(SymbolGlyph.glyph(for: $0.activity.image, ascii: ascii)) \($0.activity.title)" }
        let titleWidth = min(24, titles.map(TerminalText.width).max() ?? 0)
        let leadingWidth = min(28, snapshots.map { TerminalText.width(detail($0)) }.max() ?? 0)
        let figureWidth = min(12, snapshots.map { TerminalText.width($0.compactTrailing) }.max() ?? 0)
        return zip(titles, snapshots).map { title, snapshot in
            var columns = [TerminalText.pad(title, titleWidth)]
            if leadingWidth > 0 { columns.append(TerminalText.pad(detail(snapshot), leadingWidth)) }
            columns.append(bar(snapshot.progress, 10))
            if figureWidth > 0 { columns.append(TerminalText.pad(snapshot.compactTrailing, figureWidth)) }
            columns.append(status(snapshot, clock: clock))
            return columns.joined(separator: "  ")
        }
    }

    /// The Dynamic Island at the prompt: the newest running activity compact, the next one minimal
    /// (`[Focus 18:42 ▓▓▓▓░░][40%]`); empty when nothing runs.
    public func island(_ running: [LiveActivitySnapshot]) -> String {
        guard let first = running.first else { return "" }
        var text = "[" + TerminalText.fit("\(first.compactLeading) \(first.compactTrailing)", 24)
        if first.progress != nil { text += " " + bar(first.progress, 6) }
        text += "]"
        if running.count > 1 { text += "[" + TerminalText.fit(running[1].minimal, 8) + "]" }
        return text
    }

    /// One presentation drawn in a box of its size on the phone (in terminal cells).
    public func render(_ snapshot: LiveActivitySnapshot, _ presentation: Presentation, clock: Clock) -> [String] {
        switch presentation {
        case .compact:
            // The camera sits between the two sides.
            let leading = TerminalText.pad(snapshot.compactLeading, 12)
            let trailing = TerminalText.fit(snapshot.compactTrailing, 8)
            let middle = ascii ? " (o) " : " ◉ "
            let line =
                leading + middle + String(repeating: " ", count: max(0, 8 - TerminalText.width(trailing))) + trailing
            return capsule([line])
        case .minimal:
            return capsule([TerminalText.center(snapshot.minimal, 5)])
        case .expanded:
            let columns = 40
            let regions = snapshot.expanded
            var lines = [
                TerminalText.spread(regions[.leading] ?? "", regions[.trailing] ?? "", columns),
                TerminalText.center(regions[.center] ?? "", columns),
            ]
            if snapshot.progress != nil {
                lines.append(bar(snapshot.progress, columns - 5) + percent(snapshot.progress))
            }
            if let bottom = regions[.bottom], !bottom.isEmpty { lines.append(TerminalText.center(bottom, columns)) }
            return box(lines, columns: columns, rounded: true)
        case .lockScreen:
            let columns = 44
            let glyph = SymbolGlyph.glyph(for: snapshot.activity.image, ascii: ascii)
            var lines = [
                TerminalText.spread("\(glyph) \(snapshot.lockScreenTitle)", snapshot.compactTrailing, columns - 2)
            ]
            if snapshot.progress != nil {
                lines.append(bar(snapshot.progress, columns - 7) + percent(snapshot.progress))
            }
            let detail = [snapshot.lockScreenDetail, status(snapshot, clock: clock)].filter { !$0.isEmpty }
            lines.append(TerminalText.spread(detail.first ?? "", detail.count > 1 ? detail[1] : "", columns - 2))
            return box(lines.map { " \(TerminalText.pad($0, columns - 2)) " }, columns: columns, rounded: false)
        }
    }

    // MARK: Parts

    /// What the line shows after the title: the lock screen's heading, else the compact leading
    /// text, when either says more than the title.
    private func detail(_ snapshot: LiveActivitySnapshot) -> String {
        [snapshot.lockScreenTitle, snapshot.compactLeading].first { $0 != snapshot.activity.title } ?? ""
    }

    /// `active`, `stale`, `ended 14:05`.
    private func status(_ snapshot: LiveActivitySnapshot, clock: Clock) -> String {
        switch snapshot.status {
        case .active: "active"
        case .stale: "stale"
        case .ended: "ended " + (snapshot.endedAt.map { LiveActivityTime.time($0, clock) } ?? "")
        }
    }

    private func bar(_ fraction: Double?, _ cells: Int) -> String {
        let (full, empty) = ascii ? ("#", "-") : ("▓", "░")
        guard let fraction else { return String(repeating: " ", count: cells) }
        let filled = Int((fraction * Double(cells)).rounded(.down))
        return String(repeating: full, count: filled) + String(repeating: empty, count: cells - filled)
    }

    private func percent(_ fraction: Double?) -> String {
        guard let fraction else { return "" }
        let text = "\(Int((fraction * 100).rounded(.down)))%"
        return String(repeating: " ", count: max(1, 5 - text.count)) + text
    }

    private func capsule(_ lines: [String]) -> [String] {
        box(lines, columns: lines.map(TerminalText.width).max() ?? 0, rounded: true)
    }

    private func box(_ lines: [String], columns: Int, rounded: Bool) -> [String] {
        WidgetRenderer.box(lines, columns: columns, rounded: rounded, ascii: ascii)
    }
}
