import IntentModel

/// A source text with position markers (1️⃣ 2️⃣ …) in the style of swift-format's tests:
/// each marker stands just before the place a diagnostic must point at.
struct MarkedSource {
    static let markers = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"]

    var text = ""
    /// Marker → (line, column), 1-based, columns in Unicode scalars of the cleaned text.
    var positions: [String: (line: Int, column: Int)] = [:]

    init(_ marked: String) {
        var line = 1
        for (index, rawLine) in marked.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if index > 0 {
                text += "\n"
                line += 1
            }
            var rest = Substring(rawLine)
            var clean = ""
            while !rest.isEmpty {
                if let marker = Self.markers.first(where: { rest.hasPrefix($0) }) {
                    positions[marker] = (line, clean.unicodeScalars.count + 1)
                    rest = rest.dropFirst(marker.count)
                } else {
                    clean.append(rest.removeFirst())
                }
            }
            text += clean
        }
    }
}
