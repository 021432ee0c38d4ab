public import IntentModel
public import IntentRuntime

/// Draws a widget snapshot in a family's size, as lines of text: a box of the family's columns and
/// rows (Unicode box drawing, or ASCII), text cut with "…" and never past the edge.
public struct WidgetRenderer: Sendable {
    public var ascii: Bool

    public init(ascii: Bool = false) {
        self.ascii = ascii
    }

    /// Inner columns and rows of each family: about the proportions of WidgetKit's points (a small
    /// widget square, medium twice as wide, large twice as tall) in terminal cells.
    public static func size(of family: IntentGraph.WidgetFamily) -> (columns: Int, rows: Int) {
        switch family {
        case .small: (20, 6)
        case .medium: (44, 6)
        case .large: (44, 14)
        case .extraLarge: (92, 14)
        case .accessoryCircular: (7, 3)
        case .accessoryRectangular: (28, 3)
        case .accessoryInline: (30, 1)
        }
    }

    public func render(_ snapshot: WidgetSnapshot, family: IntentGraph.WidgetFamily) -> [String] {
        let (columns, rows) = Self.size(of: family)
        switch family {
        case .accessoryInline:
            return [TerminalText.fit(inline(snapshot), columns)]
        case .accessoryCircular:
            return box(circular(snapshot, columns), columns: columns, rounded: true)
        case .accessoryRectangular:
            return box(rectangular(snapshot, columns, rows), columns: columns, rounded: true)
        case .small, .medium, .large, .extraLarge:
            // One column of margin inside the frame, as widgets keep their content off the edge.
            let inner = system(snapshot, family, columns - 2, rows).map { " \($0) " }
            return box(inner, columns: columns, rounded: false)
        }
    }

    // MARK: Families

    private func heading(_ snapshot: WidgetSnapshot) -> String {
        "\(glyph(snapshot)) \(snapshot.title ?? snapshot.widget.title)"
    }

    private func glyph(_ snapshot: WidgetSnapshot) -> String {
        SymbolGlyph.glyph(for: snapshot.widget.image, ascii: ascii)
    }

    private func figure(_ snapshot: WidgetSnapshot) -> String? {
        guard let value = snapshot.value else { return nil }
        return [value, snapshot.label].compactMap { $0 }.joined(separator: " ")
    }

    private func system(
        _ snapshot: WidgetSnapshot, _ family: IntentGraph.WidgetFamily, _ columns: Int, _ rows: Int
    ) -> [String] {
        var lines: [String] = []
        if family == .small {
            lines.append(TerminalText.pad(heading(snapshot), columns))
            if let value = snapshot.value {
                lines.append(TerminalText.pad(value, columns))
                if let label = snapshot.label { lines.append(TerminalText.pad(label, columns)) }
            }
        } else {
            lines.append(TerminalText.spread(heading(snapshot), figure(snapshot) ?? "", columns))
            if !snapshot.figures.isEmpty { lines.append(TerminalText.fit(figures(snapshot), columns)) }
        }
        if let gauge = snapshot.gauge, family != .small || snapshot.value == nil {
            lines.append(bar(gauge, columns))
        }
        // The widget's own buttons sit on its last row; its text fills the rows above them.
        let widgetButtons = snapshot.buttons.map { "[\($0.number) \($0.title)]" }.joined(separator: " ")
        let reserved = widgetButtons.isEmpty ? 0 : 1
        if let text = snapshot.text {
            lines += Self.wrap(text, columns, rows: max(0, rows - lines.count - reserved)).map {
                TerminalText.pad($0, columns)
            }
        }
        let bullet = ascii ? "-" : "•"
        let room = rows - lines.count - reserved
        if snapshot.items.isEmpty {
            if let empty = snapshot.empty, room > 0 { lines.append(TerminalText.pad(empty, columns)) }
        } else {
            let shown = snapshot.items.count > room ? max(0, room - 1) : snapshot.items.count
            for item in snapshot.items.prefix(shown) {
                let buttons =
                    family.isInteractive ? item.buttons.map { "[\($0.number) \($0.title)]" }.joined(separator: " ") : ""
                let detail = family == .small ? "" : item.detail ?? ""
                let right = [detail, buttons].filter { !$0.isEmpty }.joined(separator: "  ")
                lines.append(TerminalText.spread("\(bullet) \(item.line)", right, columns))
            }
            if shown < snapshot.items.count {
                lines.append(TerminalText.pad("+\(snapshot.items.count - shown) more", columns))
            }
        }
        while lines.count < rows - reserved { lines.append(String(repeating: " ", count: columns)) }
        if reserved > 0 { lines.append(TerminalText.fit(widgetButtons, columns)) }
        return Array(lines.prefix(rows))
    }

    /// `2 Today · 5 This Week`.
    private func figures(_ snapshot: WidgetSnapshot) -> String {
        snapshot.figures.map { [$0.value, $0.label].compactMap { $0 }.joined(separator: " ") }
            .joined(separator: ascii ? " | " : " · ")
    }

    /// `text` in lines of at most `columns`, broken between words, in at most `rows` lines (the last
    /// cut with "…" when more is left).
    static func wrap(_ text: String, _ columns: Int, rows: Int) -> [String] {
        guard rows > 0, columns > 0 else { return [] }
        var lines: [String] = []
        var current = ""
        for word in TerminalText.oneLine(text).split(separator: " ") {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if TerminalText.width(candidate) <= columns || current.isEmpty {
                current = candidate
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        if lines.count > rows {
            lines = Array(lines.prefix(rows))
            lines[rows - 1] = TerminalText.fit(lines[rows - 1] + " …", columns)
        }
        return lines.map { TerminalText.fit($0, columns) }
    }

    private func circular(_ snapshot: WidgetSnapshot, _ columns: Int) -> [String] {
        let top =
            snapshot.gauge.map { bar($0, columns - 2, brackets: false) }
            ?? TerminalText.fit(snapshot.title ?? snapshot.widget.title, columns)
        let middle = snapshot.value ?? String(snapshot.items.count)
        let bottom = snapshot.label ?? (snapshot.value == nil ? "items" : "")
        return [top, middle, bottom].map { TerminalText.center($0, columns) }
    }

    private func rectangular(_ snapshot: WidgetSnapshot, _ columns: Int, _ rows: Int) -> [String] {
        var lines = [TerminalText.spread(heading(snapshot), figure(snapshot) ?? "", columns)]
        if !snapshot.figures.isEmpty { lines.append(TerminalText.fit(figures(snapshot), columns)) }
        if let text = snapshot.text {
            lines += Self.wrap(text, columns, rows: rows - lines.count).map { TerminalText.pad($0, columns) }
        }
        if snapshot.items.isEmpty {
            if let gauge = snapshot.gauge { lines.append(bar(gauge, columns)) }
            if let empty = snapshot.empty { lines.append(TerminalText.pad(empty, columns)) }
        }
        for item in snapshot.items.prefix(rows - lines.count) {
            lines.append(TerminalText.pad(item.line, columns))
        }
        while lines.count < rows { lines.append(String(repeating: " ", count: columns)) }
        return Array(lines.prefix(rows))
    }

    private func inline(_ snapshot: WidgetSnapshot) -> String {
        var what = figure(snapshot) ?? snapshot.items.first?.line ?? snapshot.text ?? snapshot.empty ?? ""
        if !snapshot.figures.isEmpty {
            // One line has no room for a title and several figures: the figures are what it is for.
            what += (what.isEmpty ? "" : ascii ? " | " : " · ") + figures(snapshot)
            return "\(glyph(snapshot)) \(what)"
        }
        return "\(glyph(snapshot)) \(snapshot.title ?? snapshot.widget.title)" + (what.isEmpty ? "" : ": \(what)")
    }

    // MARK: Drawing

    /// A progress bar of `columns` with the percentage: `▓▓▓▓░░░░ 50%`.
    private func bar(_ fraction: Double, _ columns: Int, brackets: Bool = true) -> String {
        let percent = "\(Int((fraction * 100).rounded()))%"
        let cells = max(1, brackets ? columns - percent.count - 1 : columns)
        let filled = Int((fraction * Double(cells)).rounded())
        let (full, empty) = ascii ? ("#", "-") : ("▓", "░")
        let drawn = String(repeating: full, count: filled) + String(repeating: empty, count: cells - filled)
        return brackets ? drawn + " " + percent : drawn
    }

    private func box(_ lines: [String], columns: Int, rounded: Bool) -> [String] {
        Self.box(lines, columns: columns, rounded: rounded, ascii: ascii)
    }

    /// `lines` framed in a box `columns` wide inside: square or rounded corners, or ASCII.
    static func box(_ lines: [String], columns: Int, rounded: Bool, ascii: Bool) -> [String] {
        let (topLeft, topRight, bottomLeft, bottomRight, horizontal, vertical):
            (String, String, String, String, String, String) =
                ascii
                ? ("+", "+", "+", "+", "-", "|")
                : rounded ? ("╭", "╮", "╰", "╯", "─", "│") : ("┌", "┐", "└", "┘", "─", "│")
        let edge = String(repeating: horizontal, count: columns)
        return [topLeft + edge + topRight] + lines.map { vertical + TerminalText.pad($0, columns) + vertical }
            + [bottomLeft + edge + bottomRight]
    }
}
