import Testing

@testable import PhraseMatching

/// `Score`'s `<` (written out field by field, for speed) ranks exactly as its `parts` read in
/// order, the list `explain` prints and `decidingPart` names.
struct ScoreOrderTests {
    /// Every part by the name `parts` gives it, and the field it reads.
    static var fields: [(name: String, field: WritableKeyPath<Score, Int>)] {
        [
            ("unresolved", \.unresolved), ("unknown", \.unknown), ("missing", \.missing), ("unsaid", \.unsaid),
            ("literal", \.literalWords), ("edits", \.edits), ("typed", \.typedSlots), ("free", \.freeWords),
            ("anywhere", \.anywhere), ("corrections", \.corrections), ("app", \.appNamed), ("skipped", \.skipped),
        ]
    }

    static func lexicographicallyLess(_ a: Score, _ b: Score) -> Bool {
        for (x, y) in zip(a.parts, b.parts) where x.value != y.value { return x.value < y.value }
        return false
    }

    @Test func everyFieldIsAPartInOrder() {
        #expect(Score().parts.map(\.name) == Self.fields.map(\.name))
        for (index, field) in Self.fields.enumerated() {
            var score = Score()
            score[keyPath: field.field] = 1
            #expect(score.parts[index].value != 0, "\(field.name) is not read by parts[\(index)]")
        }
    }

    /// Sets part `index` so that `high` ranks above `low` on it (more is better for some parts,
    /// fewer for others: `parts` says which by its sign).
    static func favour(_ high: inout Score, over low: inout Score, on index: Int) {
        var probe = Score()
        probe[keyPath: fields[index].field] = 1
        let moreIsBetter = probe.parts[index].value > 0
        high[keyPath: fields[index].field] = moreIsBetter ? 1 : 0
        low[keyPath: fields[index].field] = moreIsBetter ? 0 : 1
    }

    /// Two scores equal before one part and opposite after it: that part decides, for `<` as for
    /// `decidingPart`.
    @Test(arguments: 0..<12)
    func eachPartOutranksTheOnesAfterIt(_ index: Int) {
        var better = Score(), worse = Score()
        Self.favour(&better, over: &worse, on: index)
        for later in (index + 1)..<Self.fields.count { Self.favour(&worse, over: &better, on: later) }
        #expect(worse < better)
        #expect(!(better < worse))
        #expect(better.decidingPart(against: worse) == Self.fields[index].name)
    }

    /// Many small scores, every pair: `<` agrees with reading `parts` in order.
    @Test func theOperatorAgreesWithThePartsOnEveryPair() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 62)  // 0...3: ties are common
        }
        var scores: [Score] = []
        for _ in 0..<60 {
            var score = Score()
            for field in Self.fields { score[keyPath: field.field] = next() }
            scores.append(score)
        }
        var disagreements: [(Score, Score)] = []
        for a in scores {
            for b in scores where (a < b) != Self.lexicographicallyLess(a, b) { disagreements.append((a, b)) }
        }
        #expect(disagreements.isEmpty, "< and parts disagree on \(disagreements.prefix(3))")
    }
}
