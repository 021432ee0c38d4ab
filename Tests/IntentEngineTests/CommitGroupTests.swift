import Foundation
import IntentEngine
import IntentModel
import IntentRuntime
import TestSupport
import Testing

/// Group commit on PostgreSQL: requests that reach one engine while it is busy share one
/// transaction and one commit, each in a savepoint of its own; nobody is answered before the
/// shared commit returns.
@Suite("Group commit: requests that arrive together share one commit")
struct CommitGroupTests {
    let folder = ScratchDirectory("groups")

    /// The first groups its commits, the second (another instance, as it were) reads what is committed.
    func engines() throws -> (IntentEngine, IntentEngine) {
        let (grouping, reader, _) = try JarEngines.make(in: folder, name: "groups", grouping: 1)
        return (grouping[0], reader)
    }

    /// The jar as the other engine sees it: only what is committed.
    static func committed(_ reader: IntentEngine) -> String {
        (try? reader.search("piggy").hits.first?.title) ?? "no jar"
    }

    /// Sends `phrases` at once to `engine` while it is busy, so that all of them wait for it and
    /// then share one group; each answer, as soon as it is given, with what `reader` then sees.
    static func together(
        _ phrases: [String], to engine: IntentEngine, reader: IntentEngine
    ) throws -> [(answer: Answer, seen: String)] {
        let results = Results()
        let group = DispatchGroup()
        try engine.whileBusy {
            for (index, phrase) in phrases.enumerated() {
                group.enter()
                Thread {
                    let answer = engine.respond(to: phrase, EngineRequest(conversation: .make()))
                    results.set(index, (answer, committed(reader)))
                    group.leave()
                }.start()
            }
            // Every request waits for the engine before it is let go (bounded: never hangs).
            let deadline = Date().addingTimeInterval(60)
            while engine.requestsWaitingToJoin < phrases.count, Date() < deadline { usleep(2_000) }
            try #require(engine.requestsWaitingToJoin == phrases.count)
        }
        group.wait()
        return results.all(phrases.count)
    }

    @Test("Increments sent together lose nothing, share one commit, and are answered only once it is committed")
    func incrementsTogether() throws {
        let (engine, reader) = try engines()
        let before = engine.committedGroups
        let results = try Self.together(
            Array(repeating: "drop a coin in piggy", count: 12), to: engine, reader: reader)
        #expect(results.allSatisfy { $0.answer.status == .done && $0.answer.dialog == "Dropped." })
        // One group of twelve: one commit.
        #expect(engine.committedGroups.groups - before.groups == 1)
        #expect(engine.committedGroups.requests - before.requests == 12)
        // Whoever got an answer first already saw all twelve committed, from another connection.
        for result in results { #expect(result.seen == "piggy holds 12 coins, 0 minted", "\(result.seen)") }
        #expect(Self.committed(reader) == "piggy holds 12 coins, 0 minted")
    }

    @Test("A failing intent in a group rolls back alone: the others are committed, it leaves nothing")
    func failureRollsBackAlone() throws {
        let (engine, reader) = try engines()
        let phrases = ["mint gold", "mint silver", "mint fake", "mint copper", "drop a coin in piggy"]
        let results = try Self.together(phrases, to: engine, reader: reader)
        let statuses = results.map(\.answer.status)
        #expect(statuses == [.done, .done, .error, .done, .done], "\(results.map(\.answer.dialog))")
        #expect(results[2].answer.dialog == "No fakes.")
        // The fake coin's record and its count are gone; the three others and the drop landed.
        #expect(Self.committed(reader) == "piggy holds 1 coins, 3 minted")
        #expect(engine.committedGroups.requests >= phrases.count)
        // And the group's engine goes on answering.
        #expect(engine.respond(to: "mint tin", EngineRequest(conversation: .make())).dialog == "Minted tin.")
        #expect(Self.committed(reader) == "piggy holds 1 coins, 4 minted")
    }

    @Test("Turned off, every request commits on its own")
    func notGrouped() throws {
        let (_, reader) = try engines()
        let group = DispatchGroup()
        for _ in 0..<3 {
            group.enter()
            Thread {
                _ = reader.respond(to: "drop a coin in piggy", EngineRequest(conversation: .make()))
                group.leave()
            }.start()
        }
        group.wait()
        #expect(reader.committedGroups.groups == 0)
        #expect(Self.committed(reader) == "piggy holds 3 coins, 0 minted")
    }

    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [Int: (Answer, String)] = [:]
        func set(_ index: Int, _ result: (Answer, String)) { lock.withLock { results[index] = result } }
        func all(_ count: Int) -> [(answer: Answer, seen: String)] {
            lock.withLock { (0..<count).compactMap { results[$0] }.map { (answer: $0.0, seen: $0.1) } }
        }
    }
}
