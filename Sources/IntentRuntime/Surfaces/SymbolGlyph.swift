/// SF Symbol names, as definitions write them (`image: timer`), drawn as a terminal glyph.
public enum SymbolGlyph {
    static let glyphs: [String: (unicode: String, ascii: String)] = [
        "timer": ("⏱", "(t)"), "clock": ("◷", "(c)"), "plus.circle": ("⊕", "(+)"), "plus": ("+", "+"),
        "checkmark.circle": ("✓", "(v)"), "checkmark": ("✓", "v"), "list.bullet": ("☰", "=") ,
        "globe": ("◍", "(w)"), "note.text": ("✎", "(n)"), "star": ("★", "*"), "sparkles": ("✦", "*"),
        "dot.radiowaves.left.and.right": ("◉", "(o)"), "arrow.clockwise": ("↻", "(r)"),
        "moon": ("☾", "(m)"), "sun.max": ("☀", "(s)"), "heart": ("♥", "<3"), "bolt": ("⚡", "!"),
        "link": ("⛓", "(l)"), "square.and.arrow.up": ("⇪", "^"), "tray": ("▭", "[]"), "doc": ("▤", "[d]"),
        "exclamationmark.triangle": ("⚠", "/!\\"), "flag": ("⚑", "(f)"), "bell": ("♪", "(b)"),
    ]

    /// The glyph for `name` (its first known prefix: `timer.circle` draws as `timer`), or "•".
    public static func glyph(_ name: String?, ascii: Bool = false) -> String {
        guard var name else { return ascii ? "*" : "•" }
        while !name.isEmpty {
            if let glyph = glyphs[name] { return ascii ? glyph.ascii : glyph.unicode }
            for suffix in [".fill", ".circle", ".square"] where name.hasSuffix(suffix) {
                name = String(name.dropLast(suffix.count))
                if let glyph = glyphs[name] { return ascii ? glyph.ascii : glyph.unicode }
            }
            guard let dot = name.lastIndex(of: ".") else { break }
            name = String(name[..<dot])
        }
        return ascii ? "*" : "•"
    }
}
