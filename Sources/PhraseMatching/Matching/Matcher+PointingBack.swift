import IntentModel

extension Matcher {
    /// Pronouns a request after a comma points back with at what was said before it.
    static let pointingBackPronouns: Set<String> = ["it", "that", "this", "das", "es"]

    /// Words that open a clause saying what the speaker has to do ("i have to", "we need to", "ich
    /// muss"): the value is what follows them.
    static let obligationSubjects: Set<String> = ["i", "we", "ich", "wir"]
    static let obligationWords: Set<String> = [
        "have", "has", "got", "need", "must", "should", "ought", "gotta", "still", "really", "also", "to",
        "muss", "mussen", "sollte", "soll", "noch",
    ]

    /// "i have to buy a present, put it on my list": the request after the sentence's last comma is a
    /// phrase whose free-text slot took only a pronoun pointing back ("it", "that", "das"); the words
    /// before the comma are that slot's value, less an opening "i have to", "we need to" or "ich muss".
    /// A clause that still starts with "i" or "we" ("i'm optimistic about fusion, put it on my radar")
    /// says more than the value and is left to the learned stage. Only when nothing read the sentence.
    func pointingBack(_ tokens: [Token], language: String?) -> [Candidate] {
        guard let comma = tokens.indices.last(where: { $0 < tokens.count - 2 && tokens[$0].trailing.contains(",") }),
            tokens[(comma + 1)...].contains(where: { Self.pointingBackPronouns.contains($0.text) })
        else { return [] }
        var start = 0
        if Self.obligationSubjects.contains(tokens[0].text) {
            var at = 1
            while at <= comma, Self.obligationWords.contains(tokens[at].text) { at += 1 }
            guard at > 1, at <= comma else { return [] }
            start = at
        }
        guard comma + 1 - start <= Matcher.maximumFreeWords else { return [] }
        let tail = Array(tokens[(comma + 1)...])
        var search = Search(matcher: self, tokens: tail, language: language)
        search.run(.exact)
        let shift = comma + 1
        let value = tokens.originalText(from: start, through: comma)
        return search.found.compactMap { candidate in
            let pointing = candidate.slots.indices.filter { at in
                let slot = candidate.slots[at]
                return slot.span.count == 1 && !slot.typed && !slot.entity
                    && Self.pointingBackPronouns.contains(tail[slot.span.lowerBound].text)
            }
            guard pointing.count == 1, candidate.score.freeWords == 1 else { return nil }
            var read = candidate
            read.slots = candidate.slots.map { slot in
                var slot = slot
                slot.span = (slot.span.lowerBound + shift)..<(slot.span.upperBound + shift)
                return slot
            }
            read.slots[pointing[0]].value = .string(value)
            read.slots[pointing[0]].span = start..<shift
            read.score.freeWords = shift - start
            read.score.skipped += start
            return read
        }
    }
}
