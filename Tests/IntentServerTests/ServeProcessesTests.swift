import Foundation
import IntentModel
import ModelStore
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Two real `intents serve` processes over the test's PostgreSQL database, as a deployment runs
/// them: a conversation goes on at the other one, increments through both lose nothing, and one
/// killed (SIGKILL) in the middle of a load loses nothing it committed and leaves no half intent.
/// Waits are generous deadlines on what is observed (readiness by polling `/healthz`), never sleeps
/// that assume a machine's speed.
@Suite("Two intents serve processes over one PostgreSQL database", .tags(.slow), .skippedWhenFast)
struct ServeProcessesTests {
    /// The `intents` binary the tests were built with, found beside the test bundle.
    static let binary = IntentsBinary.path
    static let radar = QualifiedName(app: "Radar", name: "Radar")

    @Test func conversationsIncrementsAndAKilledInstance() async throws {
        let url = try PostgresCluster.url()
        let store = url + "?schema=serve_\(UUID().uuidString.prefix(8).lowercased())"
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.binary),
            "\(Self.binary) is missing: build it first (swift build)")
        let folder = NSTemporaryDirectory() + "intents-serve-processes-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let instances = Instances(folder: folder, store: store)
        defer {
            instances.stopAll()
            try? FileManager.default.removeItem(atPath: folder)
        }

        let ann = try instances.addUser("ann")
        let bob = try instances.addUser("bob")
        // One after the other: the first builds the compiled cache the second reads.
        let first = try await instances.start()
        let second = try await instances.start()

        // A conversation carried from one process to the other and back.
        let asked = try await first.say("check compatibility", conversation: "kitchen-1", token: ann)
        #expect(asked.status == 200 && asked["dialog"] as? String == "What's your zodiac sign?", "\(asked)")
        let leo = try await second.say("leo", conversation: "kitchen-1", token: ann)
        #expect(leo["dialog"] as? String == "What's their zodiac sign?", "\(leo)")
        let virgo = try await first.say("virgo", conversation: "kitchen-1", token: ann)
        #expect((virgo["dialog"] as? String)?.hasPrefix("Leo and Virgo: 78% compatible.") == true, "\(virgo)")

        // Increments sent at once through both processes: every one counted, each once.
        let created = try await second.say("create a radar on quantum computing", token: ann)
        #expect(created["status"] as? String == "done", "\(created)")
        let replies = try await withThrowingTaskGroup(of: HTTPReply.self) { group in
            for index in 0..<20 {
                let instance = index % 2 == 0 ? first : second
                group.addTask { try await instance.say("refresh quantum computing", token: ann) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(replies.allSatisfy { $0.status == 200 && $0["status"] as? String == "done" }, "\(replies)")
        #expect(try instances.refreshes("ann") == .init(count: 20, executions: 20))

        // Bob's question, asked of the process about to be killed.
        let hall = try await first.say("check compatibility", conversation: "hall", token: bob)
        #expect(hall["asking"] as? String == "yourSign", "\(hall)")

        // A load on the first process: eight clients, each sending one request after another (each
        // in a conversation of its own, whose lock the process holds while answering it) until one
        // is cut off. Killed once some answers have come back, so that each client has one in flight.
        let outcomes = Outcomes()
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                for client in 0..<8 {
                    group.addTask {
                        for number in 0... {
                            let conversation = "load-\(client)-\(number)"
                            do {
                                let reply = try await first.say(
                                    "refresh quantum computing", conversation: conversation, token: ann)
                                outcomes.add(
                                    conversation,
                                    reply.status == 200 && reply["status"] as? String == "done" ? .done : .failed)
                                if reply.status != 200 { return }
                            } catch {
                                outcomes.add(conversation, .cut)
                                return
                            }
                        }
                    }
                }
            }
        }
        try await waitUntil("five of the load's answers to come back", deadline: .seconds(600)) {
            outcomes.done.count >= 5
        }
        first.kill()
        await load.value
        let (done, cut) = (outcomes.done.count, outcomes.cut)
        #expect(outcomes.failed.isEmpty, "answers that were not 'done': \(outcomes.failed)")
        #expect(cut.count == 8, "\(cut)")

        // Everything answered 'done' is in the store, and nothing of an intent that was cut:
        // each refresh counted has its execution in the journal and no execution lacks its refresh.
        let after = try instances.refreshes("ann")
        #expect(after.count == after.executions, "a half-done intent: \(after)")
        #expect(
            after.count >= 20 + done && after.count <= 20 + done + cut.count, "\(after), done \(done), cut \(cut.count)"
        )

        // The survivor goes on in every conversation the dead process was in (their locks went with
        // its connections), and answers Bob's question.
        for conversation in cut {
            let again = try await second.say("refresh quantum computing", conversation: conversation, token: ann)
            #expect(again["status"] as? String == "done", "\(conversation): \(again)")
        }
        let scorpio = try await second.say("scorpio", conversation: "hall", token: bob)
        #expect(scorpio["asking"] as? String == "theirSign", "\(scorpio)")
        let total = after.count + cut.count
        #expect(try instances.refreshes("ann") == .init(count: total, executions: total))

        // A process started again picks up the open question.
        let restarted = try await instances.start()
        let aries = try await restarted.say("aries", conversation: "hall", token: bob)
        #expect((aries["dialog"] as? String)?.hasPrefix("Scorpio and Aries: 51% compatible.") == true, "\(aries)")
        let last = try await restarted.say("refresh quantum computing", token: ann)
        #expect((last["dialog"] as? String)?.contains("that makes \(total + 1) refreshes") == true, "\(last)")
    }
}

/// What each load request came to, by its conversation.
final class Outcomes: @unchecked Sendable {
    enum Kind { case done, failed, cut }
    private let lock = NSLock()
    private var kinds: [String: Kind] = [:]

    func add(_ conversation: String, _ kind: Kind) { lock.withLock { kinds[conversation] = kind } }
    func of(_ kind: Kind) -> [String] { lock.withLock { kinds.filter { $0.value == kind }.map(\.key).sorted() } }
    var done: [String] { of(.done) }
    var failed: [String] { of(.failed) }
    var cut: [String] { of(.cut) }
}

/// Waits, checking every 100 ms, until `condition` holds; fails the test past `deadline`.
func waitUntil(
    _ what: String, deadline: Duration, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async throws {
    let end = ContinuousClock.now + deadline
    while try await !condition() {
        guard ContinuousClock.now < end else {
            Issue.record("waited \(deadline) for \(what)", sourceLocation: sourceLocation)
            throw HTTPTestClient.Failure(description: "gave up waiting for \(what)")
        }
        try await Task.sleep(for: .milliseconds(100))
    }
}

/// The `intents serve` processes of one test, all in one folder (the users file and the compiled
/// cache are in its `.intents/`) over one store; each is stopped at the end, whatever happens.
final class Instances: @unchecked Sendable {
    let folder: String
    let store: String
    private let lock = NSLock()
    private var started: [ServeProcess] = []

    init(folder: String, store: String) {
        self.folder = folder
        self.store = store
    }

    /// `intents users add NAME`: the token it prints.
    func addUser(_ name: String) throws -> String {
        let run = try IntentsBinary.run(["users", "add", name, "--store", store], in: folder)
        let token = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard run.status == 0, token.hasPrefix("it_") else {
            throw HTTPTestClient.Failure(description: "users add \(name) exited \(run.status): \(token)\(run.stderr)")
        }
        return token
    }

    /// Starts `intents serve --port 0` and waits until it says its port and `/healthz` answers.
    func start() async throws -> ServeProcess {
        let number = lock.withLock { started.count + 1 }
        let process = try ServeProcess(folder: folder, store: store, number: number)
        lock.withLock { started.append(process) }
        try await process.ready()
        return process
    }

    /// SIGTERM to every process still running, SIGKILL to one that does not stop within a minute.
    func stopAll() {
        for process in lock.withLock({ started }) { process.stop() }
    }

    struct Refreshes: Equatable, CustomStringConvertible {
        var count: Int
        var executions: Int
        var description: String { "refreshCount \(count), RefreshRadar executions \(executions)" }
    }

    /// The user's radar's count and the refreshes in their journal, read from the database itself.
    func refreshes(_ user: String) throws -> Refreshes {
        let path = StoreLocation.store(of: user, besides: store)
        let reader = try Store(path: path, graph: Bundled.graph, clock: Bundled.clock, readOnly: true)
        return try reader.read { transaction in
            let radars = try transaction.fetch(RecordQuery(entity: ServeProcessesTests.radar))
            var count = 0
            if case .integer(let value)? = radars.first?.values["refreshCount"] { count = value }
            let executions = try transaction.executions(limit: 100_000).filter { $0.intent == "Radar.RefreshRadar" }
                .count
            return Refreshes(count: count, executions: executions)
        }
    }
}

/// One `intents serve` process on a port it chose (`--port 0`), its output in the test's folder.
final class ServeProcess: @unchecked Sendable {
    let process: Process
    let outputPath: String
    let logPath: String
    private(set) var port = 0

    init(folder: String, store: String, number: Int) throws {
        outputPath = folder + "/serve-\(number).out"
        logPath = folder + "/serve-\(number).log"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: ServeProcessesTests.binary)
        process.arguments = [
            "serve", "--port", "0", "--store", store, "--intents", Bundled.root + "/Intents", "--rate", "1000",
            "--burst", "1000",
        ]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        try process.run()
    }

    /// Waits (up to 15 minutes: the first process builds the compiled cache) for the line with the
    /// port, then for `/healthz` to answer 200.
    func ready() async throws {
        let pattern = "listening on http://127.0.0.1:"
        try await waitUntil("intents serve to say its port (log: \(logPath))", deadline: .seconds(900)) {
            guard process.isRunning else {
                let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                throw HTTPTestClient.Failure(
                    description: "intents serve exited \(process.terminationStatus): \(log.suffix(2_000))")
            }
            let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            guard let range = output.range(of: pattern) else { return false }
            port = Int(output[range.upperBound...].prefix(while: \.isNumber)) ?? 0
            return port > 0
        }
        try await waitUntil("/healthz at port \(port)", deadline: .seconds(300)) {
            (try? await HTTPTestClient.send(port: port, method: "GET", path: "/healthz"))?.status == 200
        }
    }

    func say(_ text: String, conversation: String? = nil, token: String) async throws -> HTTPReply {
        var object: [String: JSONValue] = ["text": .string(text)]
        if let conversation { object["conversation"] = .string(conversation) }
        return try await HTTPTestClient.send(
            port: port, method: "POST", path: "/v1/say",
            headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")],
            body: Array(JSONText.compact(.object(object)).utf8))
    }

    func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let end = Date().addingTimeInterval(60)
        while process.isRunning && Date() < end { usleep(50_000) }
        if process.isRunning { kill() }
        process.waitUntilExit()
    }
}
