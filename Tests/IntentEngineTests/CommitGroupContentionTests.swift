import Foundation
import IntentEngine
import IntentModel
import IntentRuntime
import TestSupport
import Testing

/// Group commit where it can go wrong: a `COMMIT` that PostgreSQL refuses, and two engines over
/// one database (two instances, as it were) that want one conversation's lock while a group holds
/// the schema's. Another program (`psql`) plays the database's part: a check that only fails at
/// the commit, a transaction holding the schema's lock until the test lets it go.
@Suite("Group commit: a refused commit, two engines on one conversation")
struct CommitGroupContentionTests {
    let folder = ScratchDirectory("groups-contention")

    /// Two grouping engines over one new schema holding the jar `piggy`, and a third that does
    /// not group (it reads what is committed); the store's URL.
    func engines() throws -> (first: IntentEngine, second: IntentEngine, reader: IntentEngine, store: String) {
        let (grouping, reader, store) = try JarEngines.make(in: folder, name: "contention", grouping: 2)
        return (grouping[0], grouping[1], reader, store)
    }

    /// Every jar as `reader` sees it (only what is committed), by name (search also finds the
    /// intent `Drop`, by its phrase's "coin").
    static func jars(_ reader: IntentEngine) -> [String] {
        ((try? reader.search("coins", limit: 50).hits.map(\.title)) ?? []).filter { $0.contains(" holds ") }.sorted()
    }

    @Test("A group whose COMMIT fails answers every member with an error and leaves nothing written")
    func refusedCommit() throws {
        let (engine, _, reader, store) = try engines()
        // A check the database makes only at COMMIT: a jar named "doomed" is refused then.
        try Self.psql(
            store,
            """
            CREATE FUNCTION refuse_doomed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN IF NEW.name = 'doomed' THEN RAISE EXCEPTION 'no jar may be called doomed'; END IF; RETURN NULL; END $$;
            CREATE CONSTRAINT TRIGGER refuse_doomed AFTER INSERT OR UPDATE ON "Jar.Jar"
            DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_doomed();
            """)
        let phrases = [
            "drop a coin in piggy", "add jar rainy day", "add jar doomed", "drop a coin in piggy",
            "drop a coin in piggy",
        ]
        let before = engine.committedGroups
        let results = try CommitGroupTests.together(phrases, to: engine, reader: reader)
        try #require(results.count == phrases.count)
        // Every request ran (each alone would have been done) in one group, whose commit failed.
        #expect(engine.committedGroups.requests - before.requests == phrases.count)
        for result in results {
            #expect(result.answer.status == .error, "\(result.answer.dialog)")
            #expect(result.answer.storeFailure)
            #expect(result.answer.dialog.hasPrefix("the store could not commit:"), "\(result.answer.dialog)")
            #expect(result.answer.dialog.contains("no jar may be called doomed"), "\(result.answer.dialog)")
            // Nobody was answered while anything of the group could be seen.
            #expect(result.seen == "piggy holds 0 coins, 0 minted", "\(result.seen)")
        }
        #expect(Self.jars(reader) == ["piggy holds 0 coins, 0 minted"])
        // The engine goes on: the next request commits.
        #expect(engine.respond(to: "drop a coin in piggy", EngineRequest(conversation: .make())).dialog == "Dropped.")
        #expect(Self.jars(reader) == ["piggy holds 1 coins, 0 minted"])
    }

    @Test(
        "Two engines on one conversation's lock while a group holds the schema's: in order, no deadlock, no interleaving"
    )
    func oneConversationTwoEngines() throws {
        let (first, second, reader, store) = try engines()
        let schema = try #require(store.components(separatedBy: "schema=").last)
        let conversation = ConversationID("kitchen-\(UUID().uuidString.prefix(8).lowercased())")
        let request = EngineRequest(conversation: conversation)
        #expect(first.respond(to: "add a jar", request).dialog == "What do you call it?")

        // Another transaction holds the schema's lock: every engine's first write waits for it.
        let holder = try Self.SchemaLockHolder(store: store, schema: schema)
        defer { holder.release() }
        try Self.until("the other transaction holds the schema's lock") {
            try Self.schemaLockCount(store, schema, granted: true) == 1
        }
        let answers = CommitGroupTests.Results()
        let done = DispatchGroup()
        func send(_ index: Int, _ engine: IntentEngine, _ text: String, _ request: EngineRequest) {
            done.enter()
            Thread {
                answers.set(index, (engine.respond(to: text, request), ""))
                done.leave()
            }.start()
        }
        // The second engine's group begins (it waits for the schema's lock), first in line for it.
        send(0, second, "drop a coin in piggy", EngineRequest(conversation: .make()))
        try Self.until("the second engine waits for the schema's lock") {
            try Self.schemaLockCount(store, schema, granted: false) == 1
        }
        // The first engine takes the conversation's lock, then waits for the schema's: its reply
        // is the conversation's next message.
        send(1, first, "rainy day", request)
        try Self.until("the first engine waits for the schema's lock") {
            try Self.schemaLockCount(store, schema, granted: false) == 2
        }
        // The conversation's message after it reaches the second engine, whose group is open:
        // it joins the group, finds the conversation's lock taken, and must let the group commit
        // before it waits (else: each engine waits for the other's lock).
        send(2, second, "drop a coin in rainy day", request)
        try Self.until("the conversation's next message waits to join the second engine's group") {
            second.requestsWaitingToJoin == 1
        }
        holder.release()
        // Bounded: a deadlock fails the test (PostgreSQL would also end one side with an error).
        try #require(done.wait(timeout: .now() + 120) == .success, "the requests did not finish: a deadlock")
        let results = answers.all(3).map(\.answer.dialog)
        // In order: the reply named the jar; the message after it saw the jar committed (had it
        // read the conversation before, it would have been taken as the jar's name).
        #expect(results == ["Dropped.", "Added rainy day.", "Dropped."], "\(results)")
        #expect(Self.jars(reader) == ["piggy holds 1 coins, 0 minted", "rainy day holds 1 coins, 0 minted"])
        // The conversation goes on at either engine.
        #expect(first.respond(to: "add a jar", request).dialog == "What do you call it?")
        #expect(second.respond(to: "sunny day", request).dialog == "Added sunny day.")
    }

    // MARK: The database's side, through psql

    /// Runs `sql` in the store's schema as another program would; its output.
    @discardableResult
    static func psql(_ store: String, _ sql: String) throws -> String {
        let (url, schema) = try split(store)
        let psql = try #require(ExternalTool.postgres("psql"), "psql is not installed")
        let run = try ExternalTool.run(
            psql, [url, "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-c", "SET search_path TO \"\(schema)\"; " + sql])
        try #require(run.status == 0, "psql: \(run.stderr)")
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The server's URL without the schema, and the schema.
    static func split(_ store: String) throws -> (url: String, schema: String) {
        let parts = store.components(separatedBy: "?schema=")
        try #require(parts.count == 2)
        return (parts[0], parts[1])
    }

    /// How many holders of (or waiters for) the schema's write lock there are.
    static func schemaLockCount(_ store: String, _ schema: String, granted: Bool) throws -> Int {
        Int(
            try psql(
                store,
                """
                SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND granted = \(granted)
                AND ((classid::int8 << 32) | objid::int8) = hashtext('\(schema)')::int8
                """)) ?? -1
    }

    /// Waits until `condition` holds (a minute at most: then the test fails, never hangs).
    static func until(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(60)
        while try !condition() {
            try #require(Date() < deadline, "never happened: \(what)")
            usleep(20_000)
        }
    }

    /// A `psql` session holding a transaction with the schema's write lock until `release`.
    final class SchemaLockHolder: @unchecked Sendable {
        let process = Process()
        let input = Pipe()
        private var released = false

        init(store: String, schema: String) throws {
            let (url, _) = try CommitGroupContentionTests.split(store)
            process.executableURL = URL(
                fileURLWithPath: try #require(ExternalTool.postgres("psql"), "psql is not installed"))
            process.arguments = [url, "-X", "-q", "-v", "ON_ERROR_STOP=1"]
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            input.fileHandleForWriting.write(
                Data("BEGIN;\nSELECT pg_advisory_xact_lock(hashtext('\(schema)'));\n".utf8))
        }

        /// Commits the holder's transaction and ends it.
        func release() {
            guard !released else { return }
            released = true
            input.fileHandleForWriting.write(Data("COMMIT;\n".utf8))
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }
}
