extension JSONText {
    /// `value` over several lines as `pretty` writes it, each line after the first indented to
    /// `depth` (two spaces a level): for writing a big document one part at a time.
    public static func pretty(_ value: JSONValue, depth: Int) -> String {
        let text = indent(compact(value))
        guard depth > 0 else { return text }
        // Compact text has no raw line breaks inside strings: every one is the layout's.
        return text.replacingOccurrences(of: "\n", with: "\n" + String(repeating: "  ", count: depth))
    }
}
