/// SQL's quoting of names and texts: the text between two marks, each mark inside doubled.
///
/// Foundation's `replacingOccurrences` goes through `NSString`: about 20,000 instructions a call,
/// and opening a store quotes each table and column name of its planned indexes (a cold `say`
/// quoted 98 of them for 1.9 M instructions). Names almost never hold the mark, so the text is
/// copied as it is unless one does.
enum SQLQuoting {
    /// `identifier` as a quoted name: `"…"`, each `"` doubled.
    static func name(_ identifier: String) -> String { quoted(identifier, mark: UInt8(ascii: "\"")) }

    /// `text` as a string literal: `'…'`, each `'` doubled.
    static func literal(_ text: String) -> String { quoted(text, mark: UInt8(ascii: "'")) }

    private static func quoted(_ text: String, mark: UInt8) -> String {
        let utf8 = text.utf8
        let marks = utf8.reduce(0) { $0 + ($1 == mark ? 1 : 0) }
        return String(unsafeUninitializedCapacity: utf8.count + marks + 2) { buffer in
            var end = 0
            func put(_ byte: UInt8) {
                buffer[end] = byte
                end += 1
            }
            put(mark)
            for byte in utf8 {
                put(byte)
                if byte == mark { put(mark) }
            }
            put(mark)
            return end
        }
    }
}
