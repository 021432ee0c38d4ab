import Foundation
import TestSupport
import Testing

/// `intents continue` in one process carrying on what another left, through the binary.
@Suite("intents continue", .tags(.slow), .skippedWhenFast)
struct HandoffCommandTests {
    let scratch = ScratchDirectory("handoff")
    var directory: String { scratch.path }
    var store: String { directory + "/store.sqlite" }

    func intents(_ arguments: [String], at now: String = "2026-11-22T10:00:00Z") throws -> CommandLineTests.Run {
        try ConversationCommandTests.run(arguments, store: store, overrides: ["INTENTS_NOW": now])
    }

    @Test func aQuestionLeftOpenBySayIsAnsweredByContinue() throws {
        let asked = try intents(["say", "check compatibility with leo"])
        #expect(asked.stdout == "What's your zodiac sign?\n")
        let listed = try intents(["continue", "--list"], at: "2026-11-22T10:05:00Z")
        #expect(
            listed.stdout
                == "1. question  Fortune.CheckCompatibility: “What's your zodiac sign?” (asked 2026-11-22T10:00:00Z)\n")
        let answered = try intents(["continue", "virgo"], at: "2026-11-22T10:05:00Z")
        #expect(answered.status == 0)
        #expect(answered.stdout.hasPrefix("What's your zodiac sign?\n› virgo\nVirgo and Leo: "))
        #expect(try intents(["continue", "--list"], at: "2026-11-22T10:06:00Z").stdout == "Nothing to continue.\n")
    }

    @Test func continueWithoutAReplyMovesTheQuestionHere() throws {
        _ = try intents(["say", "check compatibility with leo"])
        let moved = try intents(["continue", "--json"])
        let answer = try CommandLineTests.result(moved)
        #expect(answer["status"] as? String == "needs_value")
        #expect(answer["asking"] as? String == "yourSign")
        #expect((answer["parameters"] as? [String: Any])?["theirSign"] == nil)
        // Still one question waiting: the one this process now holds.
        #expect(try intents(["continue", "--list"]).stdout.components(separatedBy: "\n").count == 2)
        #expect(try intents(["continue", "aries"]).stdout.contains("\nAries and Leo: "))
        #expect(try intents(["continue", "--list"]).stdout == "Nothing to continue.\n")
    }

    @Test func theFirstShellIsToldItsQuestionWasCarriedOn() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: IntentsBinary.path)
        process.currentDirectoryURL = URL(fileURLWithPath: CommandLineTests.root)
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["INTENTS_STORE"] = store
        environment["INTENTS_NOW"] = "2026-11-22T10:00:00Z"
        environment["TZ"] = "UTC"
        process.environment = environment
        let stdin = Pipe(), out = Pipe()
        process.standardInput = stdin
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(Data("check compatibility with leo\n".utf8))
        // Read the first shell's output on another thread; wait (at most ten minutes: a loaded machine) until it has asked.
        let output = OutputCollector(out.fileHandleForReading)
        let deadline = Date().addingTimeInterval(600)
        while !output.text.contains("What's your zodiac sign?"), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        if !output.text.contains("What's your zodiac sign?") { process.terminate() }
        let answered = try intents(["continue", "virgo"])
        #expect(answered.stdout.contains("Virgo and Leo: "))
        stdin.fileHandleForWriting.write(Data("aries\n".utf8))
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        output.finish()
        #expect(
            output.text == """
                Tip: Say “New task in FocusBlox”
                › check compatibility with leo
                What's your zodiac sign?
                  › aries
                That question was carried on in another shell; nothing more to answer here.

                """)
    }

    /// An activity eligible for search is found by its title and keywords until it expires.
    @Test func anActivityEligibleForSearchIsFoundUntilItExpires() throws {
        #expect(try intents(["say", "create a radar about quantum computing"]).status == 0)
        #expect(try intents(["say", "open the radar on quantum computing"]).status == 0)
        #expect(try intents(["say", "open the radar on quantum computing"]).status == 0)
        let found = try intents(["search", "opinion", "--json"], at: "2026-11-22T11:00:00Z")
        let hits = try CommandLineTests.resultList(found, "hits")
        let activities = hits.filter { $0["kind"] as? String == "activity" }
        #expect(activities.count == 1, "the newest of each title once")
        #expect(activities.first?["title"] as? String == "quantum computing")
        #expect(activities.first?["intent"] as? String == "Radar.OpenRadar")
        let number = try #require(hits.firstIndex { $0["kind"] as? String == "activity" }) + 1
        let opened = try intents(["search", "opinion", "--open", String(number)], at: "2026-11-22T11:00:00Z")
        #expect(opened.stdout.contains("carry it on: intents continue"))
        let later = try intents(["search", "opinion", "--json"], at: "2026-11-22T19:00:00Z")
        #expect(!later.stdout.contains("\"activity\""), "expired after 8 hours")
    }

    /// An activity eligible for prediction feeds suggestions, with its parameters, like a donation.
    @Test func anActivityEligibleForPredictionIsSuggested() throws {
        #expect(try intents(["say", "create a radar about quantum computing"], at: "2026-11-15T09:00:00Z").status == 0)
        for day in ["16", "17", "18"] {
            let opened = try intents(["say", "open the radar on quantum computing"], at: "2026-11-\(day)T09:00:00Z")
            #expect(opened.status == 0)
        }
        let suggested = try intents(["suggest"], at: "2026-11-19T09:00:00Z")
        #expect(suggested.stdout.hasPrefix("1. Open Radar · “quantum computing”"), "\(suggested.stdout)")
    }

    @Test func anExpiredActivityIsNotOffered() throws {
        _ = try intents(["say", "create a radar on rust"])
        _ = try intents(["say", "open the rust radar"])
        let within = try intents(["continue", "--list"], at: "2026-11-22T17:59:59Z")
        #expect(
            within.stdout.hasPrefix(
                "1. activity  view-radar: “rust” (2026-11-22T10:00:00Z, until 2026-11-22T18:00:00Z) → radar://open/"))
        let carried = try intents(["continue"], at: "2026-11-22T17:59:59Z")
        #expect(carried.stdout.hasPrefix("Opening “rust”.\n"))
        let expired = try intents(["continue"], at: "2026-11-23T04:00:00Z")
        #expect(expired.stdout == "Nothing to continue.\n")
    }
}

/// Everything a pipe delivers, collected on a thread of its own.
final class OutputCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                self.lock.withLock { self.data.append(chunk) }
            }
            self.done.signal()
        }.start()
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

    /// Waits until the pipe is closed.
    func finish() { done.wait() }
}
