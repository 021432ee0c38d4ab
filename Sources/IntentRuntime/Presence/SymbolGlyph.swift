/// SF Symbol names (an app shortcut's or an entity's `image:`) as something a terminal can show:
/// a one-column glyph, or a short label in brackets when no glyph says it.
public enum SymbolGlyph {
    static let glyphs: [String: String] = [
        "plus": "+", "plus.circle": "⊕", "plus.square": "⊞", "minus.circle": "⊖",
        "checkmark": "✓", "checkmark.circle": "✓", "checkmark.square": "☑", "xmark": "✗", "xmark.circle": "⊗",
        "list.bullet": "☰", "list.number": "☰", "line.3.horizontal": "☰",
        "timer": "◷", "clock": "◷", "alarm": "◷", "hourglass": "⧗", "stopwatch": "◷",
        "note.text": "✎", "pencil": "✎", "square.and.pencil": "✎", "doc.text": "▤", "doc": "▤",
        "globe": "◍", "link": "⛓", "safari": "◍",
        "dot.radiowaves.left.and.right": "◉", "antenna.radiowaves.left.and.right": "◉",
        "star": "★", "star.fill": "★", "heart": "♥", "heart.fill": "♥", "sparkles": "✦",
        "sun.max": "☀", "moon": "☾", "moon.stars": "☾", "cloud": "☁", "bolt": "ϟ",
        "magnifyingglass": "⌕", "trash": "⌫", "calendar": "▦", "bell": "♪", "flag": "⚑", "tag": "⌗",
        "arrow.clockwise": "↻", "arrow.right": "→", "arrow.up": "↑", "arrow.down": "↓",
        "arrow.up.circle": "⇧", "arrow.down.circle": "⇩", "icloud.and.arrow.up": "⇧", "play": "▶", "play.fill": "▶",
        "stop": "■", "stop.fill": "■",
        "pause": "‖", "bookmark": "⌑", "folder": "▭", "person": "☺", "gear": "⚙", "house": "⌂",
    ]

    /// `plus.circle` → `⊕`; `cart.fill` → `[cart]`; nil → `•`. With `ascii` (terminals that cannot draw
    /// them), every symbol is its label: `plus.circle` → `[plus]`, nil → `*`.
    public static func glyph(for symbol: String?, ascii: Bool = false) -> String {
        guard let symbol, !symbol.isEmpty else { return ascii ? "*" : "•" }
        if ascii { return "[\(symbol.split(separator: ".").first.map(String.init) ?? symbol)]" }
        if let glyph = glyphs[symbol] { return glyph }
        // Variants share their base's glyph: checkmark.circle.fill → checkmark.circle.
        var parts = symbol.split(separator: ".").map(String.init)
        while parts.count > 1 {
            parts.removeLast()
            if let glyph = glyphs[parts.joined(separator: ".")] { return glyph }
        }
        return "[\(symbol.split(separator: ".").first.map(String.init) ?? symbol)]"
    }
}
