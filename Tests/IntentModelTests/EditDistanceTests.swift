import IntentModel
import Testing

/// How far a typo is from a word, as the matcher asks on its hot paths (`within`, only the cells near
/// the diagonal worked out) and as diagnostics ask (`between`, the whole table): the two agree on
/// every pair, so a typo is read as the same word whichever way it is measured.
struct EditDistanceTests {
    @Test("Typos people make are the distance the whole table gives, within each limit")
    func typos() {
        let pairs: [(String, String, Int)] = [
            ("light", "right", 1), ("heater", "hater", 1), ("camera", "camra", 1), ("curtian", "curtain", 1),
            ("tomorrow", "tommorow", 2), ("sprinkler", "sprinklr", 1), ("abc", "bca", 2), ("kitten", "sitting", 3),
            ("amber birch 12", "amber brich 12", 1), ("sage amber 56", "sage umber 65", 2), ("a", "", 1), ("", "", 0),
        ]
        for (a, b, distance) in pairs {
            #expect(EditDistance.between(a, b) == distance, "\(a) / \(b)")
            for limit in 0...4 {
                let expected = distance <= limit ? distance : nil
                #expect(EditDistance.within(a, b, limit: limit) == expected, "\(a) / \(b) within \(limit)")
                #expect(EditDistance.within(b, a, limit: limit) == expected, "\(b) / \(a) within \(limit)")
            }
        }
    }

    @Test("Every pair of short words over a small alphabet: the band gives the whole table's answer")
    func everyPair() {
        // All words of up to five letters over "abc" (364 of them), each pair with limits 1 to 3:
        // swaps, repeats and words of different lengths, where a band cut wrongly would show.
        var words = [""]
        var frontier = [""]
        for _ in 1...5 {
            frontier = frontier.flatMap { word in ["a", "b", "c"].map { word + $0 } }
            words += frontier
        }
        var checked = 0
        for a in words where a.count >= 2 {
            for b in words where abs(a.count - b.count) <= 3 && b.count >= 2 {
                let distance = EditDistance.between(a, b)
                for limit in 1...3 {
                    let expected = distance <= limit ? distance : nil
                    let banded = EditDistance.within(a, b, limit: limit)
                    if banded != expected {
                        Issue.record(
                            "\(a) / \(b) within \(limit): \(String(describing: banded)), whole table \(distance)")
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 100_000)
    }
}
