extension StringProtocol {
    /// Without leading and trailing spaces and tabs (Foundation's trimming bridges through NSString).
    public var trimmed: String {
        guard let first = firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        let last = lastIndex(where: { $0 != " " && $0 != "\t" })!
        return String(self[first...last])
    }
}
