import Foundation
import IntentLanguage
import IntentModel
import IntentProject
import IntentRuntime
import ModelStore
import PhraseMatching

/// SNIPS 2017 and CLINC150, converted by `Benchmarks/nlu/convert.py` into DIR/Intents, DIR/val.jsonl
/// and DIR/test.jsonl: `intents-bench nlu --corpus snips|clinc DIR`. The learned stage's threshold is
/// chosen on the validation sentences only (the one that answers most of them right, out of scope
/// counting as right when nothing runs); then every test sentence goes through a conversation of its
/// own, dry run, as `intents say --json --dry-run` would answer it.
func nluBenchmark() throws {
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    guard let corpusIndex = arguments.firstIndex(of: "--corpus"), corpusIndex + 1 < arguments.count,
        let directory = arguments.enumerated().first(where: {
            $0.offset != corpusIndex && $0.offset != corpusIndex + 1 && !$0.element.hasPrefix("-")
                && !["--embeddings", "--embedding-weight", "--seed"].contains(arguments[max(0, $0.offset - 1)])
        })?.element
    else {
        FileHandle.standardError.write(Data("usage: intents-bench nlu --corpus snips|clinc DIR\n".utf8))
        exit(2)
    }
    let corpus = arguments[corpusIndex + 1]
    let verbose = ProcessInfo.processInfo.environment["BENCH_MISSES"] != nil
    let validation = try NLUSentence.read(directory + "/val.jsonl")
    let test = try NLUSentence.read(directory + "/test.jsonl")
    let clock = Clock()
    let project = try Project.load(intents: directory + "/Intents", clock: clock)
    guard let graph = project.graph, let index = project.index else {
        print("\(directory)/Intents does not compile")
        return
    }
    let scratch = NSTemporaryDirectory() + "intents-bench-nlu-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let session = try Session(
        graph: graph, store: try Store(path: scratch + "/store.sqlite", graph: graph, clock: clock), index: index)
    try useSentenceModelIfAsked(arguments)
    // Another draw of training's chance (the default seed otherwise): how much of a figure is the draw.
    if let at = arguments.firstIndex(of: "--seed") {
        guard at + 1 < arguments.count, let seed = UInt64(arguments[at + 1]) else {
            FileHandle.standardError.write(Data("intents-bench nlu: --seed takes a whole number\n".utf8))
            exit(2)
        }
        LearnedTrainer.seed = seed
        print("  training seeded with \(seed)")
    }
    let training = LearnedStage.trainingSentences(of: graph)
    let started = DispatchTime.now().uptimeNanoseconds
    let cpuStarted = cpuSeconds()
    let probe = LearnedStage(index: index, training: training)
    let model = probe.model
    let trainingSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    let trainingCPU = cpuSeconds() - cpuStarted
    let modelBytes = model.encoded(definitionsHash: 0).count
    print(
        "nlu \(corpus): \(graph.apps.flatMap(\.intents).count) intents, \(validation.count) validation and \(test.count) test sentences"
    )
    print(
        String(
            format: "  learned stage trained in %.2f s (%.2f s of CPU; this build, WordNet %@), model file %.1f MB",
            trainingSeconds, trainingCPU, model.usesWordNet ? "used" : "not used", Double(modelBytes) / 1e6))

    // 1. The threshold, on validation only: the exact matcher first (confidence 1), else the guess.
    let matcher = Matcher(index: index, clock: clock)
    if arguments.contains("--classifier") {
        classifierDiagnosis(validation: validation, test: test, stage: probe)
        return
    }
    if arguments.contains("--diagnose") {
        nluDiagnosis(validation: validation, test: test, stage: probe, matcher: matcher)
    }
    var scored: [(confidence: Double, right: Bool, inScope: Bool)] = []
    for sentence in validation {
        var intent: QualifiedName?
        var confidence = 0.0
        if case .match(let candidate) = matcher.recognize(sentence.text).outcome {
            intent = candidate.intent
            confidence = 1
        } else if let guess = probe.guess(sentence.text, matcher: matcher) {
            intent = guess.candidate.intent
            confidence = guess.confidence
        }
        scored.append((confidence, intent?.description == sentence.intent, !sentence.intent.isEmpty))
    }
    let outOfScope = scored.filter { !$0.inScope }.count
    var best = (threshold: 0.0, right: -1)
    for threshold in Set(scored.map(\.confidence) + [0]).sorted() {
        // Right: in scope, the right intent at or above; out of scope, below.
        let right = scored.filter { $0.inScope ? $0.right && $0.confidence >= threshold : $0.confidence < threshold }
            .count
        if right > best.right { best = (threshold, right) }
    }
    print(
        String(
            format: "  threshold (act = ask) chosen on validation: %.3f (%.1f%% of validation right%@)", best.threshold,
            Double(best.right) * 100 / Double(max(1, scored.count)),
            outOfScope > 0 ? ", \(outOfScope) out of scope" : ""))
    var thresholds: [String: LearnedThresholds] = [:]
    for app in graph.apps { thresholds[app.name] = LearnedThresholds(act: best.threshold, ask: best.threshold) }
    session.learned = LearnedStage(index: index, thresholds: thresholds, training: training)

    if arguments.contains("--slots") {
        slotDiagnosis(validation, session: session, stage: probe, matcher: matcher, verbose: verbose)
    }

    // 2. The test sentences, each in a conversation of its own, dry run.
    var tally = NLUTally()
    let testStarted = DispatchTime.now().uptimeNanoseconds
    for sentence in test {
        let conversation = Conversation(session: session, options: .init(dryRun: true))
        let answer = conversation.respond(to: sentence.text)
        let understood = [.ready, .done, .needsValue, .needsDisambiguation].contains(answer.status)
        let intent = understood ? answer.intent?.description ?? "" : ""
        tally.add(sentence, intent: intent, status: answer.status, parameters: understood ? answer.parameters : [])
        if verbose, intent != sentence.intent {
            print(
                "    \(answer.status.rawValue) \(intent.isEmpty ? "-" : intent) for \(sentence.intent.isEmpty ? "oos" : sentence.intent): \(sentence.text)"
            )
        }
    }
    let perSentence = Double(DispatchTime.now().uptimeNanoseconds - testStarted) / 1e3 / Double(max(1, test.count))
    tally.print(clinc: corpus == "clinc")
    print(String(format: "  %.0f µs per test sentence (debug builds are slower)", perSentence))
}

/// User and system CPU time of this process: what training costs, whatever else the machine runs.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

struct NLUSentence: Decodable {
    var text: String
    /// "App.Intent", "" out of scope.
    var intent: String
    var slots: [[String]]

    static func read(_ path: String) throws -> [NLUSentence] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw NLUError(message: "cannot read \(path): convert the corpus first (Benchmarks/nlu/convert.py)")
        }
        let decoder = JSONDecoder()
        return try data.split(separator: UInt8(ascii: "\n")).map {
            try decoder.decode(NLUSentence.self, from: Data($0))
        }
    }
}

struct NLUError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

struct NLUTally {
    var inScope = 0, inScopeRight = 0, outOfScope = 0, outOfScopeRight = 0
    var noMatch = 0, asks = 0
    var gold = 0, predicted = 0, correct = 0

    /// Slot values compared as words: case, punctuation and spacing aside.
    static func folded(_ text: String) -> String {
        Normalizer.tokens(text).map(\.text).joined(separator: " ")
    }

    mutating func add(
        _ sentence: NLUSentence, intent: String, status: Answer.Status, parameters: [(name: String, value: JSONValue)]
    ) {
        if sentence.intent.isEmpty {
            outOfScope += 1
            if intent.isEmpty { outOfScopeRight += 1 }
        } else {
            inScope += 1
            if intent == sentence.intent { inScopeRight += 1 }
        }
        if status == .noMatch { noMatch += 1 }
        if status == .needsConfirmation { asks += 1 }
        var expected = sentence.slots.filter { $0.count == 2 }.map { "\($0[0])=\(Self.folded($0[1]))" }
        gold += expected.count
        for (name, value) in parameters {
            guard case .string(let text) = value else { continue }
            predicted += 1
            if let at = expected.firstIndex(of: "\(name)=\(Self.folded(text))") {
                correct += 1
                expected.remove(at: at)
            }
        }
    }

    func print(clinc: Bool) {
        func pct(_ a: Int, _ b: Int) -> String { String(format: "%.1f%%", b == 0 ? 0 : Double(a) * 100 / Double(b)) }
        Swift.print(
            "  intent accuracy (in scope): \(pct(inScopeRight, inScope)) (\(inScopeRight)/\(inScope)); no_match \(noMatch), did-you-mean \(asks)"
        )
        if clinc || outOfScope > 0 {
            Swift.print("  out-of-scope recall: \(pct(outOfScopeRight, outOfScope)) (\(outOfScopeRight)/\(outOfScope))")
        }
        if gold > 0 {
            let precision = predicted == 0 ? 0 : Double(correct) / Double(predicted)
            let recall = Double(correct) / Double(gold)
            let f1 = precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall)
            Swift.print(
                String(
                    format:
                        "  slots (name and value exact): precision %.1f%%, recall %.1f%%, F1 %.1f%% (%d right of %d found, %d expected)",
                    precision * 100, recall * 100, f1 * 100, correct, predicted, gold))
        }
    }
}

/// `--diagnose`: where accuracy goes, in totals only (no sentence is printed): the classifier's first
/// intent alone, the classifier with none and a probability threshold chosen on validation, then the
/// guards' demotions. Validation and test side by side; thresholds from validation only.
func nluDiagnosis(validation: [NLUSentence], test: [NLUSentence], stage: LearnedStage, matcher: Matcher) {
    struct Seen {
        var inScope: Bool
        var topRight: Bool
        var probability: Double
        var none: Double
        var confidence: Double
        var decision: LearnedGuess.Decision
        var demoted: String?
    }
    // Thresholds at 0: a guess acts unless a guard demoted it (act = ask, as the benchmark sets them).
    var zero: [String: LearnedThresholds] = [:]
    for app in stage.index.graph.apps { zero[app.name] = LearnedThresholds(act: 0, ask: 0) }
    let unbounded = LearnedStage(index: stage.index, thresholds: zero, training: stage.training)
    func look(_ sentences: [NLUSentence]) -> [Seen] {
        sentences.map { sentence in
            let guess = unbounded.guess(sentence.text, matcher: matcher)
            let top = guess?.ranking.first
            return Seen(
                inScope: !sentence.intent.isEmpty, topRight: top?.intent.description == sentence.intent,
                probability: top?.probability ?? 0, none: guess?.noneProbability ?? 1,
                confidence: guess?.confidence ?? 0, decision: guess?.decision ?? .none,
                demoted: guess?.demotedBecause)
        }
    }
    let val = look(validation), tst = look(test)
    func pct(_ a: Int, _ b: Int) -> String { String(format: "%.1f%%", b == 0 ? 0 : Double(a) * 100 / Double(b)) }
    func line(_ name: String, _ seen: [Seen], accept: (Seen) -> Bool) -> String {
        let inScope = seen.filter(\.inScope), out = seen.filter { !$0.inScope }
        let right = inScope.filter { $0.topRight && accept($0) }.count
        let rejected = out.filter { !accept($0) }.count
        return "\(name): in scope \(pct(right, inScope.count)), out-of-scope recall \(pct(rejected, out.count))"
    }
    func best(_ seen: [Seen], _ value: (Seen) -> Double) -> Double {
        var best = (threshold: 0.0, right: -1)
        for threshold in Set(seen.map(value) + [0]).sorted() {
            let right = seen.filter { $0.inScope ? $0.topRight && value($0) >= threshold : value($0) < threshold }
                .count
            if right > best.right { best = (threshold, right) }
        }
        return best.threshold
    }
    print("  diagnosis (validation | test):")
    for (name, seen) in [("validation", val), ("test", tst)] {
        print("    " + line("\(name) classifier top-1, nothing rejected", seen) { _ in true })
        print("    " + line("\(name) top-1 above none", seen) { $0.probability > $0.none })
    }
    let byProbability = best(val) { $0.probability }
    print(String(format: "    probability threshold on validation %.3f", byProbability))
    print("    " + line("test, top-1 at or above it (no guards)", tst) { $0.probability >= byProbability })
    let byConfidence = best(val) { $0.decision == .act ? $0.confidence : 0 }
    print(String(format: "    confidence threshold (guess acts) on validation %.3f", byConfidence))
    print(
        "    "
            + line("test, after the guards' demotions", tst) { $0.decision == .act && $0.confidence >= byConfidence })
    var reasons: [String: (right: Int, out: Int)] = [:]
    for seen in tst {
        guard let reason = seen.demoted, !seen.inScope || seen.topRight else { continue }
        let key = String(reason.prefix(40))
        reasons[key, default: (0, 0)].right += seen.inScope ? 1 : 0
        reasons[key, default: (0, 0)].out += seen.inScope ? 0 : 1
    }
    for (reason, count) in reasons.sorted(by: { $0.key < $1.key }) {
        print("    test, demoted \"\(reason)…\": \(count.right) right in scope, \(count.out) out of scope")
    }
}

/// `--classifier`: the classifier alone (no guard, no alignment), in totals: top-1 over the in-scope
/// sentences, and with a probability threshold chosen on validation, in scope and out-of-scope recall.
func classifierDiagnosis(validation: [NLUSentence], test: [NLUSentence], stage: LearnedStage) {
    func look(_ sentences: [NLUSentence]) -> [(inScope: Bool, right: Bool, probability: Double, none: Double)] {
        sentences.map { sentence in
            let (ranking, none) = stage.classification(sentence.text)
            return (
                !sentence.intent.isEmpty, ranking.first?.intent.description == sentence.intent,
                ranking.first?.probability ?? 0, none
            )
        }
    }
    let val = look(validation), tst = look(test)
    func rate(_ a: Int, _ b: Int) -> Double { b == 0 ? 0 : Double(a) * 100 / Double(b) }
    var best = (threshold: 0.0, right: -1)
    for threshold in Set(val.map(\.probability) + [0]).sorted() {
        let right = val.filter { $0.inScope ? $0.right && $0.probability >= threshold : $0.probability < threshold }
            .count
        if right > best.right { best = (threshold, right) }
    }
    // Also at the threshold that rejects 60 % of validation's out-of-scope sentences: one point to
    // compare models at, where the one that answers most validation sentences right moves a lot.
    let outOfScope = val.filter { !$0.inScope }.map(\.probability).sorted()
    let at60 =
        outOfScope.isEmpty ? 0 : outOfScope[min(outOfScope.count - 1, (outOfScope.count * 6 + 9) / 10 - 1)] + 1e-9
    let inScopeTest = tst.filter(\.inScope), outTest = tst.filter { !$0.inScope }
    print(
        String(
            format:
                "  test at validation's 60%% out-of-scope recall (%.3f): in scope %.1f%%, out-of-scope recall %.1f%%",
            at60, rate(inScopeTest.filter { $0.right && $0.probability >= at60 }.count, inScopeTest.count),
            rate(outTest.filter { $0.probability < at60 }.count, outTest.count)))
    for (name, seen) in [("validation", val), ("test", tst)] {
        let inScope = seen.filter(\.inScope), out = seen.filter { !$0.inScope }
        print(
            String(
                format:
                    "  %@: top-1 %.1f%%; at threshold %.3f: in scope %.1f%%, out-of-scope recall %.1f%%; top-1 above none %.1f%% / %.1f%%",
                name, rate(inScope.filter(\.right).count, inScope.count), best.threshold,
                rate(inScope.filter { $0.right && $0.probability >= best.threshold }.count, inScope.count),
                rate(out.filter { $0.probability < best.threshold }.count, out.count),
                rate(inScope.filter { $0.right && $0.probability > $0.none }.count, inScope.count),
                rate(out.filter { $0.probability <= $0.none }.count, out.count)))
    }
}

/// `--slots`: where the whole `say` path loses slot values against the tagger alone (gold intent),
/// on the validation split, by route: the intent wrong, an exact match of a template, a learned
/// guess. `BENCH_MISSES=1` prints the sentences where the tagger alone has more values right.
func slotDiagnosis(_ sentences: [NLUSentence], session: Session, stage: LearnedStage, matcher: Matcher, verbose: Bool) {
    struct Tally {
        var sentences = 0, gold = 0, sayRight = 0, sayFound = 0, taggerRight = 0, taggerFound = 0
    }
    func right(_ slots: [(name: String, text: String)], _ sentence: NLUSentence) -> Int {
        var expected = sentence.slots.filter { $0.count == 2 }.map { "\($0[0])=\(NLUTally.folded($0[1]))" }
        var count = 0
        for (name, text) in slots {
            if let at = expected.firstIndex(of: "\(name)=\(NLUTally.folded(text))") {
                count += 1
                expected.remove(at: at)
            }
        }
        return count
    }
    var tallies: [String: Tally] = [:]
    for sentence in sentences where !sentence.intent.isEmpty {
        let conversation = Conversation(session: session, options: .init(dryRun: true))
        let answer = conversation.respond(to: sentence.text)
        let understood = [.ready, .done, .needsValue, .needsDisambiguation].contains(answer.status)
        let intent = understood ? answer.intent?.description ?? "" : ""
        let said: [(name: String, text: String)] =
            understood
            ? answer.parameters.compactMap { name, value in
                guard case .string(let text) = value else { return nil }
                return (name, text)
            } : []
        let parts = sentence.intent.split(separator: ".", maxSplits: 1).map(String.init)
        let gold = QualifiedName(app: parts[0], name: parts[1])
        let tagged = (stage.tagging(sentence.text, as: gold, matcher: matcher)?.slots ?? []).compactMap {
            slot -> (name: String, text: String)? in
            guard case .string(let text) = slot.value else { return nil }
            return (slot.name, text)
        }
        let route: String
        if intent != sentence.intent {
            route = "intent wrong or none"
        } else if case .match = matcher.recognize(sentence.text).outcome {
            route = "exact match"
        } else {
            route = "learned guess"
        }
        var tally = tallies[route, default: Tally()]
        tally.sentences += 1
        tally.gold += sentence.slots.filter { $0.count == 2 }.count
        let sayRight = right(said, sentence), taggerRight = right(tagged, sentence)
        tally.sayRight += sayRight
        tally.sayFound += said.count
        tally.taggerRight += taggerRight
        tally.taggerFound += tagged.count
        tallies[route] = tally
        if verbose, taggerRight > sayRight || (taggerRight == sayRight && tagged.count < said.count) {
            print(
                "    \(route): \(sentence.text)\n      say \(said.map { "\($0.name)=\($0.text)" }) tagger \(tagged.map { "\($0.name)=\($0.text)" })"
            )
        }
    }
    print("  slots on validation by route (values right / found, say path against the tagger alone, gold intent):")
    for (route, tally) in tallies.sorted(by: { $0.key < $1.key }) {
        print(
            "    \(route): \(tally.sentences) sentences, \(tally.gold) values; say \(tally.sayRight) / \(tally.sayFound), tagger \(tally.taggerRight) / \(tally.taggerFound)"
        )
    }
}

/// Opt-in (`--embeddings DIR [--transformer] [--embedding-weight W]`): a sentence model's embedding
/// as more features of the classifier (embed11), for every model this process trains.
func useSentenceModelIfAsked(_ arguments: [String]) throws {
    guard let at = arguments.firstIndex(of: "--embeddings"), at + 1 < arguments.count else { return }
    let weight = arguments.firstIndex(of: "--embedding-weight").flatMap {
        $0 + 1 < arguments.count ? Float(arguments[$0 + 1]) : nil
    }
    let encoder = try SentenceEncoder(directory: arguments[at + 1])
    LearnedTrainer.sentenceFeatures = SentenceFeatures(
        encoder: encoder, transformer: arguments.contains("--transformer"), weight: weight ?? 20)
    print(
        "  with \(arguments.contains("--transformer") ? "transformer" : "static") embeddings of \(arguments[at + 1]),"
            + " weight \(weight ?? 20)")
}
