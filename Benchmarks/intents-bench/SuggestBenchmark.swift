import Foundation
import IntentModel
import IntentProject
import IntentRuntime
import ModelStore

/// `intents-bench suggest`: the hit rate of the suggestion for the next action on a simulated
/// 8-week usage history (habits with noise), against a most-frequent baseline; then the time of
/// one `suggest` over 100,000 donations.
func suggestBenchmark() throws {
    let seed = UInt64(argument("--seed", default: 42))
    let donationsForSpeed = argument("--donations", default: 100_000)
    let runs = argument("--runs", default: 200)
    let project = try Project.load(intents: "Intents", clock: Clock(timeZone: TimeZone(identifier: "UTC")!))
    guard let graph = project.graph else {
        print("Intents/ does not compile")
        return
    }
    let directory = NSTemporaryDirectory() + "intents-bench-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let clock = Clock(timeZone: TimeZone(identifier: "UTC")!)
    let model = SuggestionModel(graph: graph)

    // 1. Hit rate over 8 weeks; the first 2 weeks only teach.
    var generator = UsageHistory(seed: seed)
    let start = ISODate.parse("2026-09-28T00:00:00Z", timeZone: .gmt)!  // a Monday
    let events = generator.events(days: 56, from: start)
    let store = try Store(path: directory + "/habits.sqlite", graph: graph, clock: clock)
    let donating = Set(graph.intents.filter { !$0.donate.isEmpty && $0.suggests }.map(\.name.description))
    var top1 = 0, top3 = 0, baseTop1 = 0, baseTop3 = 0, asked = 0
    var frequency: [String: Int] = [:]
    let learning = start.addingTimeInterval(14 * 86_400)
    for event in events {
        if donating.contains(event.intent), event.at >= learning {
            let counts = try store.read { try $0.suggestionCounts(intents: model.candidates, now: event.at) }
            let last = try store.read { try $0.lastExecutedIntent() }
            let ranked = model.suggest(counts: counts, now: event.at, last: last, clock: clock, limit: 3)
                .map(\.intent.description)
            let baseline = frequency.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(3).map(\.key)
            asked += 1
            if ranked.first == event.intent { top1 += 1 }
            if ranked.contains(event.intent) { top3 += 1 }
            if baseline.first == event.intent { baseTop1 += 1 }
            if baseline.contains(event.intent) { baseTop3 += 1 }
        }
        try store.write { transaction in
            let name = QualifiedName(
                app: String(event.intent.split(separator: ".")[0]),
                name: String(event.intent.split(separator: ".")[1]))
            try transaction.journal(
                intent: name, parameters: event.parameters, dialog: "", donation: nil, now: event.at)
            if donating.contains(event.intent) {
                try transaction.donate(
                    intent: name, parameters: event.parameters, via: .phrase, records: [], at: event.at)
            }
        }
        if donating.contains(event.intent) { frequency[event.intent, default: 0] += 1 }
    }
    func percent(_ hits: Int) -> String { String(format: "%.1f%%", 100 * Double(hits) / Double(max(asked, 1))) }
    print(
        "suggest: next-action hit rate over weeks 3–8 of a simulated 8-week history (seed \(seed), \(events.count) actions, \(asked) predicted)"
    )
    print("  model:         top-1 \(percent(top1)), top-3 \(percent(top3))")
    print("  most frequent: top-1 \(percent(baseTop1)), top-3 \(percent(baseTop3))")
    print(String(format: "  top-1 ratio model / baseline: %.2f×", Double(top1) / Double(max(baseTop1, 1))))

    // 2. Speed: one suggest over many donations (counts kept as they are donated).
    let big = try Store(path: directory + "/big.sqlite", graph: graph, clock: clock)
    var bigGenerator = UsageHistory(seed: seed &+ 1)
    var donated = 0
    var day = 0
    var last = start
    var writeTimes: [Double] = []
    while donated < donationsForSpeed {
        let batch = bigGenerator.events(days: 7, from: start.addingTimeInterval(Double(day) * 86_400))
        day += 7
        var watch = Stopwatch()
        try big.write { transaction in
            for event in batch where donating.contains(event.intent) && donated < donationsForSpeed {
                let name = QualifiedName(
                    app: String(event.intent.split(separator: ".")[0]),
                    name: String(event.intent.split(separator: ".")[1]))
                try transaction.journal(
                    intent: name, parameters: event.parameters, dialog: "", donation: nil, now: event.at)
                try transaction.donate(
                    intent: name, parameters: event.parameters, via: .phrase, records: [], at: event.at)
                donated += 1
                last = event.at
            }
        }
        writeTimes.append(watch.lap() / Double(max(batch.count, 1)))
    }
    var samples: [Double] = []
    for run in 0..<runs {
        var watch = Stopwatch()
        let moment = last.addingTimeInterval(Double(run % 48) * 1_800)
        _ = try model.suggest(store: big, now: moment, limit: 3)
        samples.append(watch.lap())
    }
    let sorted = samples.sorted()
    print("suggest over \(donated) donations (\(runs) runs, in-process, store read + model):")
    print(
        String(
            format: "  p50 %.2f ms, p99 %.2f ms, min %.2f ms; journal + donate %.1f µs per action", sorted[runs / 2],
            sorted[min(runs - 1, runs * 99 / 100)], sorted[0], median(writeTimes) * 1000))
}

/// A deterministic week-by-week life with FocusBlox, Radar and sideBar: habits with noise.
struct UsageHistory {
    struct Event {
        var intent: String
        var parameters: [String: JSONValue]
        var at: Date
    }

    var state: UInt64
    var counter = 0

    init(seed: UInt64) { state = seed }

    /// SplitMix64: the same history for the same seed, on every machine.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func chance(_ p: Double) -> Bool { Double(next() % 10_000) / 10_000 < p }
    mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
    mutating func minutes(_ range: ClosedRange<Int>) -> Double {
        Double(range.lowerBound + Int(next() % UInt64(range.count))) * 60
    }

    static let topics = ["AI", "remote work", "electric cars", "nuclear power"]
    static let sites = ["https://swift.org", "https://news.ycombinator.com", "https://lwn.net"]

    mutating func events(days: Int, from start: Date) -> [Event] {
        var events: [Event] = []
        func add(_ intent: String, _ parameters: [String: JSONValue], _ day: Date, _ seconds: Double) {
            events.append(Event(intent: intent, parameters: parameters, at: day.addingTimeInterval(seconds)))
        }
        let calendar = Calendar(identifier: .gregorian)
        for offset in 0..<days {
            let day = start.addingTimeInterval(Double(offset) * 86_400)
            var utc = calendar
            utc.timeZone = TimeZone(identifier: "UTC")!
            let weekday = utc.component(.weekday, from: day)  // 1 Sunday … 7 Saturday
            let workday = (2...6).contains(weekday)
            if workday {
                // Mornings: capture tasks, then what's next, then a deep-work block.
                for _ in 0..<(1 + Int(next() % 3)) {
                    counter += 1
                    let urgency = chance(0.8) ? "not_urgent" : "urgent"
                    add(
                        "FocusBlox.CreateTask", ["title": .string("task \(counter)"), "urgency": .string(urgency)],
                        day, 8 * 3600 + minutes(20...70))
                }
                if chance(0.9) {
                    add("FocusBlox.GetNextUp", [:], day, 9 * 3600 + minutes(40...55))
                    if chance(0.85) {
                        add(
                            "FocusBlox.StartFocusBlock", ["title": .string("deep work"), "minutes": .integer(50)],
                            day, 9 * 3600 + minutes(56...59))
                        add("FocusBlox.EndFocusBlock", [:], day, 10 * 3600 + minutes(50...59))
                    }
                }
                // Afternoons: complete what was done, an email block.
                if chance(0.7) {
                    add("FocusBlox.GetNextUp", [:], day, 14 * 3600 + minutes(0...10))
                    add(
                        "FocusBlox.StartFocusBlock", ["title": .string("email"), "minutes": .integer(25)],
                        day, 14 * 3600 + minutes(11...15))
                    add("FocusBlox.EndFocusBlock", [:], day, 14 * 3600 + minutes(40...45))
                }
                for _ in 0..<(Int(next() % 3)) {
                    add(
                        "FocusBlox.CompleteTask",
                        [
                            "task": .object([
                                "type": .string("FocusBlox.Task"), "id": .string("t\(counter)"),
                                "title": .string("task \(counter)"),
                            ])
                        ],
                        day, 16 * 3600 + minutes(0...50))
                }
                // Fridays: the weekly review.
                if weekday == 6 {
                    let topic = Self.topics[0]
                    add(
                        "Radar.RefreshRadar",
                        [
                            "radar": .object([
                                "type": .string("Radar.Radar"), "id": .string("r0"), "title": .string(topic),
                            ])
                        ],
                        day, 17 * 3600 + minutes(0...10))
                    add(
                        "sideBar.AddNote", ["text": .string("weekly review \(offset / 7)")], day,
                        17 * 3600 + minutes(15...25))
                }
            } else {
                // Weekends: reading and notes.
                for _ in 0..<(1 + Int(next() % 2)) {
                    add("sideBar.SaveWebsite", ["url": .string(pick(Self.sites))], day, 10 * 3600 + minutes(0...120))
                }
                if chance(0.5) {
                    counter += 1
                    add("sideBar.AddNote", ["text": .string("idea \(counter)")], day, 11 * 3600 + minutes(0...60))
                }
            }
            // Noise: now and then anything, at any time of day.
            for _ in 0..<Int(next() % 3) where chance(0.5) {
                let hour = 7 * 3600 + minutes(0...(14 * 60))
                switch next() % 5 {
                case 0:
                    add(
                        "Radar.CreateRadar", ["topic": .string(pick(Self.topics)), "position": .string("neutral")], day,
                        hour)
                case 1: add("sideBar.SaveWebsite", ["url": .string(pick(Self.sites))], day, hour)
                case 2:
                    counter += 1
                    add(
                        "FocusBlox.CreateTask",
                        ["title": .string("task \(counter)"), "urgency": .string("not_urgent")], day, hour)
                case 3: add("sideBar.AddNote", ["text": .string("note \(counter)")], day, hour)
                default: add("FocusBlox.GetNextUp", [:], day, hour)
                }
            }
        }
        return events.sorted { $0.at < $1.at }
    }
}
