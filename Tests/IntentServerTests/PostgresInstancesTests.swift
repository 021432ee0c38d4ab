import Foundation
import IntentModel
import TestSupport
import Testing

/// Servers over one PostgreSQL database: each user's data in their own schema, conversations and
/// increments shared by every instance.
@Suite("Instances over one PostgreSQL database")
struct PostgresInstancesTests {
    /// Two servers on two loopback ports, one users file, one database.
    static func withTwoInstances(_ body: (ServerHarness, ServerHarness) async throws -> Void) async throws {
        let store = try PostgresCluster.url()
        let database = store + "?schema=" + "main_\(UUID().uuidString.prefix(8).lowercased())"
        let first = try await ServerHarness.start(store: database)
        let second = try await ServerHarness.start(directory: first.directory, tokens: first.tokens, store: database)
        do {
            try await body(first, second)
        } catch {
            Issue.record(error)
        }
        await second.stop(remove: false)
        await first.stop(remove: true)
    }

    @Test("Users apart: bob finds nothing of ann's, and her link is 404 for him")
    func usersApart() async throws {
        let store = try PostgresCluster.freshStore("apart")
        try await ServerHarness.with(store: store) { server in
            let (_, link) = try await UsersApartTests.annsDay(server)
            let ann = try await server.send("GET", "/v1/search?q=quantum", as: "ann")
            let bob = try await server.send("GET", "/v1/search?q=quantum", as: "bob")
            #expect(UsersApartTests.entities(ann).contains("quantum computing"), "\(ann)")
            #expect(UsersApartTests.entities(bob).isEmpty, "\(bob)")
            #expect(try await server.send("POST", "/v1/open", #"{"url":"\#(link)"}"#, as: "ann").status == 200)
            #expect(try await server.send("POST", "/v1/open", #"{"url":"\#(link)"}"#, as: "bob").status == 404)
            let undo = try await server.send("POST", "/v1/undo", "{}", as: "bob")
            #expect(!undo.text.contains("quantum"), "\(undo)")
        }
    }

    @Test("A conversation goes on at the other instance, request after request")
    func followUpAtTheOtherInstance() async throws {
        try await Self.withTwoInstances { first, second in
            let asked = try await first.say("check compatibility")
            let conversation = try #require(asked["conversation"] as? String)
            let leo = try await second.say("leo", conversation: conversation)
            #expect(leo["dialog"] as? String == "What's their zodiac sign?", "\(leo)")
            let virgo = try await first.say("virgo", conversation: conversation)
            #expect((virgo["dialog"] as? String)?.hasPrefix("Leo and Virgo: 78% compatible.") == true, "\(virgo)")
            let libra = try await second.say("and libra?", conversation: conversation)
            #expect((libra["dialog"] as? String)?.hasPrefix("Leo and Libra: 72% compatible.") == true, "\(libra)")
        }
    }

    /// A user has two engines on PostgreSQL, and a dry run's conversation is held in the memory of
    /// the engine that answered it (nothing is written): its follow-ups must reach that engine.
    @Test("A dry run's follow-ups are answered in its conversation, whichever of the user's engines")
    func dryRunFollowUps() async throws {
        let store = try PostgresCluster.freshStore("dryfollow")
        try await ServerHarness.with(store: store) { server in
            for _ in 0..<3 {
                let asked = try await server.say("check compatibility", dryRun: true)
                #expect(asked["dialog"] as? String == "What's your zodiac sign?", "\(asked)")
                let conversation = try #require(asked["conversation"] as? String)
                let leo = try await server.say("leo", conversation: conversation, dryRun: true)
                #expect(leo["dialog"] as? String == "What's their zodiac sign?", "\(leo)")
                let virgo = try await server.say("virgo", conversation: conversation, dryRun: true)
                #expect(
                    virgo["dialog"] as? String == "Ready: Check Leo with Virgo. (dry run: nothing was changed)",
                    "\(virgo)")
            }
        }
    }

    @Test("Increments from both instances at once lose nothing")
    func concurrentIncrements() async throws {
        try await Self.withTwoInstances { first, second in
            let created = try await first.say("create a radar on quantum computing")
            #expect(created["status"] as? String == "done", "\(created)")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    let server = index % 2 == 0 ? first : second
                    group.addTask {
                        let refreshed = try await server.say("refresh quantum computing")
                        #expect(refreshed["status"] as? String == "done", "\(refreshed)")
                    }
                }
                try await group.waitForAll()
            }
            let last = try await second.say("refresh quantum computing")
            #expect((last["dialog"] as? String)?.contains("that makes 21 refreshes") == true, "\(last)")
        }
    }
}
