extension StringProtocol {
    /// Without leading and trailing spaces and tabs (Foundation's trimming bridges through NSString).
    public var trimmed: String {
        // Nothing to trim when neither end is a space or a tab: decided on the bytes.
        let text = String(self)
        if let first = text.utf8.first, let last = text.utf8.last, first != 0x20, first != 0x09, last != 0x20,
            last != 0x09
        {
            return text
        }
        guard let first = firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        let last = lastIndex(where: { $0 != " " && $0 != "\t" })!
        return String(self[first...last])
    }
}
