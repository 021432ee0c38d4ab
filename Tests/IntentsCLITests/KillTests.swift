import Foundation
import IntentLanguage
import IntentModel
import ModelStore
import TestSupport
import Testing

/// A process killed in the middle of a long run of phrases leaves every finished intent in the
/// store and no part of the one it was in.
@Suite("SIGKILL in the middle of a run", .tags(.slow), .skippedWhenFast)
struct KillTests {
    /// Starts the REPL on `store` with `input` piped in (written from another thread); output dropped.
    /// Runs in `directory` (where a PostgreSQL store's compiled cache goes, `./.intents`).
    static func repl(store: String, input: Data, in directory: String = CommandLineTests.root) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: IntentsBinary.path)
        process.arguments = ["--store", store, "--intents", CommandLineTests.root + "/Intents"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let writer = Thread {
            stdin.fileHandleForWriting.write(input)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        return process
    }

    /// Where the test's store is: a file in `directory`, or a new schema of the test's PostgreSQL.
    static func store(_ backend: String, in directory: String) throws -> String {
        backend == "postgres" ? try PostgresCluster.freshStore("kill") : directory + "/store.sqlite"
    }

    @Test(arguments: ["sqlite", "postgres"])
    func killedRunLeavesWholeIntentsOnly(_ backend: String) throws {
        let directory = NSTemporaryDirectory() + "intents-kill-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try Self.store(backend, in: directory)
        let graph = try #require(try IntentCompiler.compile(directory: CommandLineTests.root + "/Intents").graph)
        let radar = QualifiedName(app: "Radar", name: "Radar")
        let task = QualifiedName(app: "FocusBlox", name: "Task")

        // 300 radars, so each "refresh all radars" writes 300 rows in one transaction (100 on
        // PostgreSQL, where each row is a few round trips: a debug build would take minutes).
        let radars = backend == "postgres" ? 100 : 300
        let enough = backend == "postgres" ? 20 : 40
        let seed = try Store(path: path, graph: graph, clock: Bundled.clock)
        _ = try seed.write { transaction in
            for index in 0..<radars { try transaction.insert(radar, values: ["topic": .string("topic \(index)")]) }
        }

        var lines = ""
        for index in 0..<3_000 { lines += index % 2 == 0 ? "refresh all radars\n" : "add task number \(index)\n" }
        let process = try Self.repl(store: path, input: Data(lines.utf8), in: directory)

        // Kill once a good number of intents have run, while it is busy with more. A debug build
        // on a loaded machine (CI runs this beside the browser and PostgreSQL suites) first compiles
        // the definitions and trains the learned stage, which took over a minute there: wait for
        // the work itself, not for a clock; the deadline only stops a run that never gets going.
        let observer = try Store(path: path, graph: graph, clock: Bundled.clock, readOnly: true)
        let deadline = Date().addingTimeInterval(900)
        var executed = 0
        while process.isRunning, Date() < deadline {
            let latest = try observer.read { try $0.executions(limit: 1).first?.id ?? 0 }
            executed = Int(latest)
            if executed >= enough { break }
            usleep(2_000)
        }
        try #require(process.isRunning, "the run ended before it was killed, after \(executed) intents")
        try #require(executed >= enough, "only \(executed) intents ran in 15 minutes")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let store = try Store(path: path, graph: graph, clock: Bundled.clock)
        try store.read { transaction in
            let executions = try transaction.executions(limit: 10_000)
            let refreshes = executions.filter { $0.intent == "Radar.RefreshAllRadars" }.count
            let creates = executions.filter { $0.intent == "FocusBlox.CreateTask" }.count
            #expect(executions.count >= enough)
            #expect(executions.count < 3_000, "the run was still going when it was killed")
            // Every radar was refreshed by every finished refresh, and by no unfinished one.
            let counts = Set(try transaction.fetch(RecordQuery(entity: radar)).map { $0.values["refreshCount"] })
            #expect(counts == [.integer(refreshes)])
            // One task per finished CreateTask, in the order they were said.
            let tasks = try transaction.fetch(RecordQuery(entity: task)).map { $0.values["title"] }
            #expect(tasks.count == creates)
            #expect(tasks == (0..<creates).map { .string("number \($0 * 2 + 1)") })
        }
    }

    @Test(arguments: ["sqlite", "postgres"])
    func twoProcessesOnOneStoreLoseNoUpdate(_ backend: String) throws {
        let directory = NSTemporaryDirectory() + "intents-two-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try Self.store(backend, in: directory)
        let graph = try #require(try IntentCompiler.compile(directory: CommandLineTests.root + "/Intents").graph)
        let radar = QualifiedName(app: "Radar", name: "Radar")
        _ = try Store(path: path, graph: graph, clock: Bundled.clock).write {
            try $0.insert(radar, values: ["topic": .string("rust")])
        }

        // Each process reads the count and writes it plus one, 150 times, at the same time as the other.
        let input = Data(String(repeating: "refresh the rust radar\n", count: 150).utf8)
        let processes = try (0..<2).map { _ in try Self.repl(store: path, input: input, in: directory) }
        for process in processes { process.waitUntilExit() }
        #expect(processes.map(\.terminationStatus) == [0, 0])
        let refreshed = try Store(path: path, graph: graph, clock: Bundled.clock, readOnly: true).read {
            try $0.fetch(RecordQuery(entity: radar))
        }
        #expect(refreshed.map { $0.values["refreshCount"] } == [.integer(300)])
    }
}
