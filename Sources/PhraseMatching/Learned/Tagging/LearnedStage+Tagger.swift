import Foundation
import IntentModel

/// The tagger as a session holds it: trained on first need, cached beside the learned model in a
/// file of its own (`tagger-<hash>.bin`), shared by the sessions of one process.
final class TaggerHolder: @unchecked Sendable {
    let lock = NSLock()
    var loaded: SlotTagger?

    static let memo = TaggerHolder.Memo()

    final class Memo: @unchecked Sendable {
        private let lock = NSLock()
        private var taggers: [UInt64: SlotTagger] = [:]

        func withLock<T>(_ body: (inout [UInt64: SlotTagger]) -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body(&taggers)
        }
    }
}

/// Why the tagger's reading of an exact match's free text was taken, or not: compared part by
/// part, every part must hold. `explain` prints it.
public struct TaggerRevision: Sendable {
    /// The tagger labels every template word of the match O: it only divides the free text anew.
    public var frameKept: Bool
    /// Every word it leaves out of the values is one the intent has outside values in its training.
    public var droppedWordsKnown: Bool
    /// Every span it labels parses as its parameter's type, each parameter's words in one span.
    public var valuesParse: Bool
    /// Its values differ from the match's.
    public var differs: Bool
    /// The tagger learnt the intent from people's own sentences (`LearnedStage.learntFromPeople`
    /// `training:` sentences at least): where a value begins and ends it knows better than a
    /// template, and may take a template's word into a value ("The Gamblers" for "find the
    /// {object_name}") or out of one.
    public var learntFromPeople = false
    public var reading: TaggerReading
    /// The revised candidate (the match's own when not taken).
    public var candidate: Candidate

    public var taken: Bool { (frameKept || learntFromPeople) && droppedWordsKnown && valuesParse && differs }

    /// "frame kept yes, dropped words known yes, values parse yes, differs yes" (and "learnt from
    /// people's sentences yes" when it did).
    public var description: String {
        func yes(_ value: Bool) -> String { value ? "yes" : "no" }
        return "frame kept \(yes(frameKept)), dropped words known \(yes(droppedWordsKnown)), "
            + "values parse \(yes(valuesParse)), differs \(yes(differs))"
            + (learntFromPeople ? ", learnt from people's sentences yes" : "")
    }
}

extension LearnedStage {
    /// The cache file of the tagger for these definitions.
    public var taggerCacheFile: String? {
        cacheDirectory.map { PathText.appending($0, "tagger-" + String(definitionsHash, radix: 16) + ".bin") }
    }

    /// Uses `tagger` from now on (a benchmark that trained it itself).
    public func use(_ tagger: SlotTagger) {
        taggerHolder.lock.lock()
        defer { taggerHolder.lock.unlock() }
        taggerHolder.loaded = tagger
    }

    /// The tagger: from memory, else the cache, else trained now (and cached).
    public var tagger: SlotTagger {
        let holder = taggerHolder
        holder.lock.lock()
        defer { holder.lock.unlock() }
        if let loaded = holder.loaded { return loaded }
        if let bytes = cachedBytes(section: "tagger", file: taggerCacheFile),
            let tagger = SlotTagger(decoding: bytes, definitionsHash: definitionsHash)
        {
            holder.loaded = tagger
            return tagger
        }
        let key = taggerKey
        let tagger =
            TaggerHolder.memo.withLock { $0[key] } ?? SlotTaggerTrainer.train(index: index)
        TaggerHolder.memo.withLock { $0[key] = tagger }
        holder.loaded = tagger
        storeBytes(
            tagger.encoded(definitionsHash: definitionsHash), section: "tagger", file: taggerCacheFile,
            others: "tagger-")
        return tagger
    }

    /// What the tagger is trained from, hashed: the definitions' words (as the learned model's key),
    /// with the training sentences' marks and the examples.
    private var taggerKey: UInt64 {
        var hash = StableHash()
        hash.add("tagger \(SlotTagger.formatVersion)")
        Self.hashDefinitions(of: index.graph, into: &hash) { intent, hash in
            for sentence in intent.trainingSentences {
                for piece in sentence.pieces {
                    hash.add(piece.text)
                    hash.add(piece.slot ?? "")
                }
            }
            for example in intent.examples {
                hash.add(example.say)
                if case .match(let name, let values) = example.expectation {
                    hash.add(name.description)
                    for (key, value) in values.sorted(by: { $0.key < $1.key }) {
                        hash.add(key)
                        hash.add(value.description)
                    }
                }
            }
        }
        return hash.value
    }

    /// The tagger's reading of `text` as `intent` (`explain`, benchmarks); nil for an intent it does not know.
    public func tagging(_ text: String, as intent: QualifiedName, matcher: Matcher) -> TaggerReading? {
        guard let intent = index.graph.intent(intent) else { return nil }
        return tagger.reading(Normalizer.tokens(text), intent: intent, matcher: matcher)
    }

    /// For an exact match that took free text: the tagger's reading of the same intent, and whether it
    /// replaces the match's values. It is taken when it keeps the template's words as they are, only
    /// divides the free text anew ("where is {place}" reads "Where is Belgium located" as Belgium,
    /// since "located" is a word the intent says around its values), and every value parses. nil when
    /// the match took no free text or the tagger does not know the intent.
    /// `training:` sentences an intent needs for the tagger's reading of an exact match to divide more
    /// than the free text (`TaggerRevision.learntFromPeople`): hundreds of people's sentences, not the
    /// score an author writes beside the phrases. SNIPS 2017's intents have some 1,800 each; the
    /// bundled apps at most 20.
    public static let learntFromPeople = 100

    /// Words that introduce what follows them: a text value the tagger ends with one was cut badly.
    static let introducing: Set<String> =
        Matcher.introducingWords.union(Matcher.determiners).union(DateParser.deadlineWords)

    public func revise(_ candidate: Candidate, text: String, matcher: Matcher) -> TaggerRevision? {
        let free = candidate.slots.filter { !$0.typed }
        guard !free.isEmpty, let intent = index.graph.intent(candidate.intent) else { return nil }
        let tokens = Normalizer.tokens(text)
        guard let reading = tagger.reading(tokens, intent: intent, matcher: matcher) else { return nil }
        var freeTokens = Set<Int>()
        for slot in free { freeTokens.formUnion(slot.span) }
        let frameKept = reading.slots.allSatisfy { $0.span.allSatisfy(freeTokens.contains) }
        let frame = tagger.intentIndex[intent.name]!
        let droppedWordsKnown = freeTokens.allSatisfy { position in
            reading.labels[position] != "O" || tagger.isFrameWord(tokens[position].text, intent: frame)
        }
        let learntFromPeople = intent.trainingSentences.count >= Self.learntFromPeople
        // A text value that ends in a word introducing the next ("plan for" before "tomorrow") is
        // cut at the wrong place: the words belong together, as the match read them. (Not for an
        // intent learnt from people's sentences: those know their values' ends; on SNIPS 2017 the
        // check cut slot F1 from 94.7 to 86.6 %.)
        // So is one the tagger ends just before such a word inside the match's free text, leaving the
        // word out ("plan" · "for" · "tomorrow"): which words a tagger keeps together there moves
        // with other intents' training sentences ("plan for next week" stayed whole). A deadline
        // word, or one a date begins with, is the date's own ("pay rent" · "due friday", "at 9").
        let cutBadly =
            !learntFromPeople
            && reading.slots.contains { slot in
                guard !slot.typed, slot.span.upperBound < tokens.count else { return false }
                let next = slot.span.upperBound
                return Self.introducing.contains(tokens[next - 1].text)
                    || (reading.labels[next] == "O" && freeTokens.contains(next)
                        && Matcher.introducingWords.contains(tokens[next].text)
                        && !DateParser.deadlineWords.contains(tokens[next].text)
                        && !DateParser.leadingWords.contains(tokens[next].text))
            }
        // Every record the match's free text named keeps its slot: a reading that drops one ("rename
        // walk the dog to walk the cat" read as only a title) loses which record was meant. Text may be
        // divided anew ("Old School Death Metal" is one playlist, no owner "Old"). (Not for an intent
        // learnt from people's sentences, whose tagger may divide the template's words too.)
        let keepsEvery =
            learntFromPeople || Set(free.filter(\.entity).map(\.name)).isSubset(of: reading.slots.map(\.name))
        // A parameter the tagger gave two spans ("won't" · "fix the roof") is no reading to replace
        // the match's by, as for a cut above; an intent learnt from people's sentences excepted
        // (SNIPS 2017's slot F1 95.1 % with it taken, 94.9 % without).
        let valuesParse =
            !cutBadly && keepsEvery && reading.rejected.isEmpty && (reading.split.isEmpty || learntFromPeople)
            && reading.slots.allSatisfy { $0.problem == nil }
            && reading.slots.contains {
                learntFromPeople
                    ? $0.span.contains(where: freeTokens.contains) : $0.span.allSatisfy(freeTokens.contains)
            }
        var revised = candidate
        // The match's typed values, but where the tagger (when it may divide the template's words
        // too) put a value of that name. A value read as written ("dringender", "tomorrow") is never
        // swallowed by another value's words: such a reading is not taken.
        let typed = candidate.slots.filter { slot in
            slot.typed && (!learntFromPeople || !reading.slots.contains { $0.name == slot.name })
        }
        let swallowsTyped = reading.slots.contains { value in typed.contains { $0.span.overlaps(value.span) } }
        revised.slots = typed + reading.slots
        revised.slots.sort { $0.span.lowerBound < $1.span.lowerBound }
        // The span's bounds said as numbers: a `Range` in an interpolation is printed through
        // reflection, about a million instructions at a cold `say`.
        func signature(_ slots: [Candidate.Slot]) -> [String] {
            slots.map { "\($0.name)=\($0.value.description)@\($0.span.lowerBound)-\($0.span.upperBound)" }.sorted()
        }
        let differs = signature(revised.slots) != signature(candidate.slots)
        var revision = TaggerRevision(
            frameKept: frameKept, droppedWordsKnown: droppedWordsKnown, valuesParse: valuesParse, differs: differs,
            learntFromPeople: learntFromPeople && !swallowsTyped, reading: reading,
            candidate: candidate)
        if revision.taken { revision.candidate = revised }
        return revision
    }
}
