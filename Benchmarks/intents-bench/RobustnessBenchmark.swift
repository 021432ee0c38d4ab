import Foundation
import IntentLanguage
import IntentModel
import IntentProject
import IntentRendering
import PhraseMatching

/// How people's sentences fare, both stages together: sentences sampled from every phrase template
/// with values, then perturbed (a filler, a typo, an unrelated word inserted, a word dropped, the
/// order reversed); out-of-domain sentences (Benchmarks/data/out-of-domain.txt); and a held-out set
/// of natural requests for the bundled apps (Benchmarks/data/bundled-natural.tsv). Over the bundled
/// apps and a generated load of 1,000 intents × 5 phrases (5,000 templates).
func robustnessBenchmark() throws {
    let samples = argument("--samples", default: 4)
    let loadIntents = argument("--load-intents", default: 1_000)
    let outOfDomain = try dataLines("Benchmarks/data/out-of-domain.txt")
    let natural = try dataLines("Benchmarks/data/bundled-natural.tsv").compactMap { line -> (String, String)? in
        let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }

    let bundled = try Project.load(intents: "Intents", clock: Clock())
    guard let graph = bundled.graph, let index = bundled.index, let matcher = bundled.matcher() else {
        print("Intents/ does not compile")
        return
    }
    print("robustness: bundled apps (\(graph.apps.flatMap(\.intents).count) intents)")
    var bench = RobustnessRun(graph: graph, index: index, matcher: matcher, samplesPerPhrase: samples)
    bench.report(outOfDomain: outOfDomain)
    bench.reportNatural(natural)

    let compiled = IntentCompiler.compile(files: generatedLoad(intents: loadIntents), root: "Load")
    guard let loadGraph = compiled.graph else {
        print(DiagnosticPrinter(sources: compiled.sources).render(Array(compiled.diagnostics.prefix(3))))
        return
    }
    let loadIndex = PhraseIndex(graph: loadGraph)
    let templates = loadGraph.apps.flatMap(\.intents).reduce(0) { $0 + $1.phrases.count }
    print("\nrobustness: generated load (\(loadGraph.apps.flatMap(\.intents).count) intents, \(templates) templates)")
    var load = RobustnessRun(
        graph: loadGraph, index: loadIndex, matcher: Matcher(index: loadIndex, clock: Clock()),
        samplesPerPhrase: 1)
    load.report(outOfDomain: outOfDomain)
}

private func dataLines(_ path: String) throws -> [String] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        .filter { !$0.isEmpty && !$0.hasPrefix("#") }
}

/// What the two stages together do with one sentence, as `say` would.
enum Verdict {
    case acts(Candidate)
    case asks(QualifiedName?)
    case noMatch
}

struct RobustnessRun {
    let graph: IntentGraph
    let index: PhraseIndex
    let matcher: Matcher
    let stage: LearnedStage
    let samplesPerPhrase: Int
    var learnedNanoseconds: [UInt64] = []

    init(graph: IntentGraph, index: PhraseIndex, matcher: Matcher, samplesPerPhrase: Int) {
        self.graph = graph
        self.index = index
        self.matcher = matcher
        self.samplesPerPhrase = samplesPerPhrase
        // As `say` builds it: each app's thresholds and the intents' `training:` sentences.
        stage = LearnedStage(
            index: index, thresholds: LearnedStage.thresholds(of: graph),
            training: LearnedStage.trainingSentences(of: graph))
        let started = DispatchTime.now().uptimeNanoseconds
        let cpuStarted = cpuSeconds()
        _ = stage.model
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        print(
            String(
                format: "  learned stage trained in %.0f ms (%.2f s of CPU)", seconds * 1000, cpuSeconds() - cpuStarted)
        )
    }

    mutating func verdict(_ text: String) -> Verdict {
        switch matcher.recognize(text).outcome {
        case .match(let candidate):
            if let guess = stage.review(candidate, text: text, matcher: matcher) {
                // The classifier, sure the free-text reading is another intent, wins (as `say` does).
                guard guess.decision == .act, let intent = graph.intent(guess.candidate.intent),
                    !intent.deletes, intent.confirmation == nil
                else { return .asks(guess.decision == .act ? guess.candidate.intent : candidate.intent) }
                return .acts(guess.candidate)
            }
            // A reading of the matcher's last-resort passes (a word passed over or left out) is a guess:
            // like a learned one, it confirms first when the intent deletes or confirms, as `say` does.
            if candidate.score.unknown > 0 || candidate.score.missing > 0, let intent = graph.intent(candidate.intent),
                intent.deletes || intent.confirmation != nil
            {
                return .asks(candidate.intent)
            }
            return .acts(candidate)
        case .ambiguous: return .asks(nil)
        case .noMatch:
            let started = DispatchTime.now().uptimeNanoseconds
            let guess = stage.guess(text, matcher: matcher)
            learnedNanoseconds.append(DispatchTime.now().uptimeNanoseconds - started)
            if ProcessInfo.processInfo.environment["BENCH_SLOW"] != nil, learnedNanoseconds.last! > 1_500_000 {
                print("      slow (\(learnedNanoseconds.last! / 1000) µs): \(text)")
            }
            guard let guess else { return .noMatch }
            switch guess.decision {
            case .none: return .noMatch
            case .ask: return .asks(guess.candidate.intent)
            case .act:
                // A learned guess at an intent that deletes or confirms always asks first.
                if let intent = graph.intent(guess.candidate.intent), intent.deletes || intent.confirmation != nil {
                    return .asks(guess.candidate.intent)
                }
                return .acts(guess.candidate)
            }
        }
    }

    struct Tally {
        var count = 0, right = 0, fully = 0, noMatch = 0, asks = 0, asksRight = 0, actsWrongly = 0

        func line(_ name: String) -> String {
            func pct(_ n: Int) -> String { String(format: "%5.1f%%", count == 0 ? 0 : Double(n) * 100 / Double(count)) }
            return
                "  \(name.padding(toLength: 14, withPad: " ", startingAt: 0)) n=\(String(count).padding(toLength: 5, withPad: " ", startingAt: 0)) "
                + "intent right \(pct(right))  fully right \(pct(fully))  no_match \(pct(noMatch))  "
                + "asks \(pct(asks)) (right intent \(pct(asksRight)))  acts wrongly \(pct(actsWrongly))"
        }
    }

    enum Condition: String, CaseIterable {
        case clean, filler, typo, inserted, dropped, reversed
    }

    /// A sampled sentence: its words, which are slot values (and of which slot), the expected values.
    struct Sample {
        var intent: QualifiedName
        var words: [String]
        var slotOf: [String?]
        var expected: [String: String]
    }

    mutating func report(outOfDomain: [String]) {
        var random = BenchRandom(seed: 7)
        let sentences = samples(random: &random)
        // BENCH_MISSES=1: every sentence that asked or got no_match, to see why.
        let misses = ProcessInfo.processInfo.environment["BENCH_MISSES"] != nil
        for condition in Condition.allCases {
            var tally = Tally()
            for sample in sentences {
                guard let words = perturb(sample, condition, random: &random) else { continue }
                tally.count += 1
                let text = words.joined(separator: " ")
                switch verdict(text) {
                case .acts(let candidate):
                    if condition == .reversed || candidate.intent != sample.intent {
                        tally.actsWrongly += 1
                        if ProcessInfo.processInfo.environment["BENCH_VERBOSE"] != nil {
                            print("      \(condition): \(text) → \(candidate.intent) (\(candidate.template))")
                        }
                    } else {
                        tally.right += 1
                        let values = candidate.values
                        if sample.expected.allSatisfy({ name, text in
                            guard let value = values[name] else { return false }
                            return text.isEmpty || value.description.lowercased() == text.lowercased()
                        }) {
                            tally.fully += 1
                        }
                    }
                case .asks(let intent):
                    tally.asks += 1
                    if intent == sample.intent { tally.asksRight += 1 }
                    if misses {
                        print("      \(condition) asks \(intent?.description ?? "which"): \(text) (\(sample.intent))")
                    }
                case .noMatch:
                    tally.noMatch += 1
                    if misses { print("      \(condition) no_match: \(text) (\(sample.intent))") }
                }
            }
            print(tally.line(condition.rawValue))
        }
        var tally = Tally()
        let verbose = ProcessInfo.processInfo.environment["BENCH_VERBOSE"] != nil
        for sentence in outOfDomain {
            tally.count += 1
            switch verdict(sentence) {
            case .acts(let candidate):
                tally.actsWrongly += 1
                if verbose {
                    // Which stage acted, and on what: the exact matcher's template, or the guess.
                    var how = "exact \"\(candidate.template)\""
                    if case .noMatch = matcher.recognize(sentence).outcome,
                        let guess = stage.guess(sentence, matcher: matcher)
                    {
                        how = String(
                            format: "learned %.2f, none %.2f, slots %@%@", guess.confidence, guess.noneProbability,
                            guess.candidate.slots.map { "\($0.name)=\($0.value)" }.joined(separator: " "),
                            guess.tagging == nil ? "" : ", tagged")
                    }
                    print("      acts: \(sentence) → \(candidate.intent) (\(how))")
                }
            case .asks(let intent):
                tally.asks += 1
                if verbose { print("      asks: \(sentence) → \(intent?.description ?? "which")") }
            case .noMatch:
                tally.noMatch += 1
                tally.right += 1
            }
        }
        print(tally.line("out-of-domain") + "   (intent right = no_match)")
        let sorted = learnedNanoseconds.sorted()
        if !sorted.isEmpty {
            func at(_ q: Double) -> Double {
                Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]) / 1000
            }
            print(
                String(
                    format: "  learned stage when it runs: %d sentences, p50 %.1f µs, p99 %.1f µs, max %.1f µs",
                    sorted.count, at(0.5), at(0.99), Double(sorted.last!) / 1000))
        }
    }

    mutating func reportNatural(_ natural: [(String, String)]) {
        var tally = Tally()
        var misses: [String] = []
        for (expected, sentence) in natural {
            tally.count += 1
            switch verdict(sentence) {
            case .acts(let candidate):
                if candidate.intent.description == expected {
                    tally.right += 1
                } else {
                    tally.actsWrongly += 1
                    misses.append("\(sentence) → \(candidate.intent) (wrong)")
                }
            case .asks(let intent):
                tally.asks += 1
                if intent?.description == expected { tally.asksRight += 1 }
                misses.append("\(sentence) → asks \(intent?.description ?? "which")")
            case .noMatch:
                tally.noMatch += 1
                misses.append("\(sentence) → no_match")
            }
        }
        print(tally.line("held-out"))
        for miss in misses { print("      \(miss)") }
    }

    func samples(random: inout BenchRandom) -> [Sample] {
        var result: [Sample] = []
        for app in graph.apps {
            for intent in app.intents {
                for phrase in intent.phrases {
                    guard let expansions = phrase.template.expansions(rules: app.rules, limit: 4096),
                        !expansions.isEmpty
                    else { continue }
                    for _ in 0..<samplesPerPhrase {
                        let pieces = expansions[random.below(expansions.count)]
                        var sample = Sample(intent: intent.name, words: [], slotOf: [], expected: [:])
                        for piece in pieces {
                            switch piece {
                            case .word(let word):
                                sample.words.append(word)
                                sample.slotOf.append(nil)
                            case .app:
                                for word in app.name.split(separator: " ") {
                                    sample.words.append(String(word))
                                    sample.slotOf.append(nil)
                                }
                            case .slot(let name):
                                let type = intent.parameter(name)?.type ?? .string
                                let (text, exact) = value(type, random: &random)
                                for word in text.split(separator: " ") {
                                    sample.words.append(String(word))
                                    sample.slotOf.append(name)
                                }
                                sample.expected[name] = exact ? text : ""
                            }
                        }
                        result.append(sample)
                    }
                }
            }
        }
        return result
    }

    /// A value for a slot of `type`, and whether the value must come back as these very words.
    func value(_ type: ValueType, random: inout BenchRandom) -> (String, Bool) {
        switch type {
        case .string, .entity:
            return (
                random.pick(["blue harbor", "tax return", "summer trip", "garden fence", "old photos", "chess"]), true
            )
        case .integer, .number: return (random.pick(["4", "15", "30"]), false)
        case .boolean: return ("yes", false)
        case .date: return (random.pick(["tomorrow", "next friday", "on june 3rd"]), false)
        case .duration: return (random.pick(["20 minutes", "an hour"]), false)
        case .url: return ("https://swift.org", false)
        case .enumeration(let name):
            let cases = graph.enumeration(name)?.cases ?? []
            return (cases.isEmpty ? "x" : random.pick(cases).title.lowercased(), false)
        case .array(let element): return value(element, random: &random)
        }
    }

    static let fillers = ["please", "um", "uh", "hey", "so", "just", "well", "okay"]
    static let unrelated = ["purple", "banana", "elephant", "guitar", "ocean", "pencil", "tomato", "rocket", "winter"]
    static let functionWords: Set<String> = [
        "a", "an", "the", "my", "me", "to", "for", "of", "in", "on", "about", "with", "new", "all", "is", "are",
    ]

    /// The sample's words after `condition`; nil when it does not apply (no word to misspell or drop).
    func perturb(_ sample: Sample, _ condition: Condition, random: inout BenchRandom) -> [String]? {
        var words = sample.words
        // Boundaries outside slot values, where a word may go in.
        let boundaries = (0...words.count).filter { at in
            at == 0 || at == words.count || sample.slotOf[at - 1] == nil || sample.slotOf[at] == nil
                || sample.slotOf[at - 1] != sample.slotOf[at]
        }
        let literal = words.indices.filter { sample.slotOf[$0] == nil }
        switch condition {
        case .clean: break
        case .filler: words.insert(random.pick(Self.fillers), at: random.pick(boundaries))
        case .inserted: words.insert(random.pick(Self.unrelated), at: random.pick(boundaries))
        case .typo:
            let long = literal.filter { words[$0].count >= 4 && words[$0].allSatisfy(\.isLetter) }
            guard !long.isEmpty else { return nil }
            let at = random.pick(long)
            words[at] = random.typo(words[at])
        case .dropped:
            guard literal.count >= 2 else { return nil }
            let function = literal.filter { Self.functionWords.contains(words[$0].lowercased()) }
            let at = function.isEmpty ? random.pick(Array(literal.dropFirst())) : random.pick(function)
            words.remove(at: at)
        case .reversed:
            guard words.count >= 2, words.reversed() != words else { return nil }
            words.reverse()
        }
        return words
    }
}

/// The benchmark's own sampling draws from the trainer's SplitMix64 with a fixed seed of its own:
/// the same sentences every run.
typealias BenchRandom = SeededGenerator

extension SeededGenerator {
    mutating func typo(_ word: String) -> String {
        var letters = Array(word)
        let at = 1 + below(letters.count - 2)
        switch below(3) {
        case 0: letters.swapAt(at, at + 1)
        case 1: letters.remove(at: at)
        default: letters[at] = Character(Unicode.Scalar(UInt8(97 + below(26))))
        }
        return String(letters)
    }
}

/// 1,000 intents over 10 apps, each a verb (two synonyms) on an object, five phrases each: a slot
/// of free text, a date, a number, the app named, and one with no slot.
func generatedLoad(intents count: Int) -> [(path: String, bytes: [UInt8])] {
    let verbs: [(String, String)] = [
        ("add", "create"), ("delete", "remove"), ("show", "open"), ("share", "send"), ("rename", "retitle"),
        ("archive", "file away"), ("pin", "star"), ("copy", "duplicate"), ("print", "export"),
        ("schedule", "plan"), ("cancel", "call off"), ("move", "relocate"), ("lock", "protect"),
        ("unlock", "unprotect"), ("mute", "silence"), ("sort", "order"), ("find", "search for"),
        ("restore", "recover"), ("tag", "label"), ("check", "review"),
    ]
    let objects = [
        "invoice", "playlist", "meeting", "recipe", "workout", "photo album", "contact", "document", "reminder",
        "ticket", "budget", "report", "course", "trip", "order", "expense", "flight", "podcast", "video", "note card",
        "folder", "project", "sprint", "issue", "backlog", "campaign", "newsletter", "survey", "lesson", "garden plan",
        "shift", "delivery", "parcel", "prescription", "appointment", "device", "printer", "camera", "backup",
        "password", "wallet", "coupon", "subscription", "channel", "event", "poster", "drawing", "song", "chapter",
        "slide deck",
    ]
    var files: [(path: String, bytes: [UInt8])] = []
    let perApp = 100
    for app in 0..<((count + perApp - 1) / perApp) {
        var yaml = "app: Suite\(app)\nintents:\n"
        for i in (app * perApp)..<min(count, (app + 1) * perApp) {
            let (verb, synonym) = verbs[i % verbs.count]
            let object = objects[(i / verbs.count) % objects.count]
            let suffix = i / (verbs.count * objects.count) == 0 ? "" : " \(i / (verbs.count * objects.count))"
            let name = (verb + " " + object + suffix).split(separator: " ").map { $0.capitalized }.joined()
            yaml += """
                  \(name):
                    parameters:
                      title: { type: string, optional: true }
                      when: { type: date, optional: true }
                      count: { type: integer, optional: true }
                    phrases:
                      - "(\(verb)|\(synonym)) [the|my|a] \(object)\(suffix) (called|named) {title}"
                      - "(\(verb)|\(synonym)) [the|my] \(object)\(suffix) (for|on) {when}"
                      - "(\(verb)|\(synonym)) {count} \(object)\(suffix)s"
                      - "\(verb) [the|my] \(object)\(suffix) in {app}"
                      - "[please] \(verb) [all] [of] my \(object)\(suffix)s [now]"
                    result: { dialog: "done" }

                """
        }
        files.append(("Load/suite\(app)/app.yaml", Array(yaml.utf8)))
    }
    return files
}
