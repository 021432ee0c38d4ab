import Foundation
import Testing

/// One user's data never reaches another: ann fills her store; bob, on every surface, sees none of
/// it, and a link to her record is 404 — the same answer as a record that never existed.
@Suite("Users kept apart")
struct UsersApartTests {
    /// Ann's day: a radar (a record, a donation, a search entry, a widget line), a task, a focus
    /// block (a live activity) and a question left open (a continuation).
    static func annsDay(_ server: ServerHarness) async throws -> (radar: String, link: String) {
        let created = try await server.say("create a radar on quantum computing")
        #expect(created["status"] as? String == "done", "\(created)")
        let result = created["result"] as? [String: Any]
        let id = try #require(result?["id"] as? String, "\(created)")
        _ = try await server.say("add buy oat milk to my tasks")
        let focus = try await server.say("start a focus block deep work for 25 minutes")
        #expect(focus["status"] as? String == "done", "\(focus)")
        let open = try await server.say("check compatibility")
        #expect(open["status"] as? String == "needs_value")
        return (id, "radar://open/\(id)")
    }

    @Test func searchFindsOnlyTheirOwn() async throws {
        try await ServerHarness.with { server in
            _ = try await Self.annsDay(server)
            let ann = try await server.send("GET", "/v1/search?q=quantum", as: "ann")
            let bob = try await server.send("GET", "/v1/search?q=quantum", as: "bob")
            #expect(Self.entities(ann).contains("quantum computing"), "\(ann)")
            #expect(Self.entities(bob).isEmpty, "\(bob)")
        }
    }

    /// "search for …" said to the server is answered from the speaker's own search index: bob
    /// hears that nothing is found, ann hears her radar and her task.
    @Test func searchBySayingFindsOnlyTheirOwn() async throws {
        try await ServerHarness.with { server in
            _ = try await Self.annsDay(server)
            for (sentence, hit) in [("search for quantum", "quantum computing"), ("find oat milk", "buy oat milk")] {
                let bob = try await server.say(sentence, as: "bob")
                #expect(bob["status"] as? String == "done", "\(bob)")
                #expect((bob["dialog"] as? String)?.hasPrefix("Nothing found for") == true, "\(bob)")
                #expect(!bob.text.contains(hit), "\(bob)")
                let ann = try await server.say(sentence, as: "ann")
                #expect((ann["dialog"] as? String)?.contains("“\(hit)”") == true, "\(ann)")
            }
        }
    }

    @Test func anotherUsersRecordInALinkIsNotFound() async throws {
        try await ServerHarness.with { server in
            let (_, link) = try await Self.annsDay(server)
            let ann = try await server.send("POST", "/v1/open", #"{"url":"\#(link)"}"#, as: "ann")
            #expect(ann.status == 200, "\(ann)")
            let bob = try await server.send("POST", "/v1/open", #"{"url":"\#(link)"}"#, as: "bob")
            #expect(bob.status == 404, "\(bob)")
            #expect(!bob.text.contains("quantum"), "\(bob)")
            let never = try await server.send("POST", "/v1/open", #"{"url":"radar://open/999999"}"#, as: "bob")
            #expect(never.status == 404)
            #expect(never.errorCode == bob.errorCode, "a missing record and another's are told apart: \(never) \(bob)")
            let byTopic = try await server.send(
                "POST", "/v1/open", #"{"url":"radar://open/quantum%20computing"}"#, as: "bob")
            #expect(byTopic.status == 404, "\(byTopic)")
        }
    }

    @Test func sayingReachesOnlyTheirOwnRecords() async throws {
        try await ServerHarness.with { server in
            _ = try await Self.annsDay(server)
            let bob = try await server.say("what's next", as: "bob")
            #expect(!bob.text.contains("oat milk"), "\(bob)")
            let refresh = try await server.say("refresh quantum computing", as: "bob")
            #expect(refresh["status"] as? String != "done", "\(refresh)")
            #expect(!refresh.text.contains("Refreshed “quantum"), "\(refresh)")
            let ann = try await server.say("what's next", as: "ann")
            #expect(ann.text.contains("oat milk"), "\(ann)")
        }
    }

    @Test func anotherUsersConversationIdContinuesNothingOfTheirs() async throws {
        try await ServerHarness.with { server in
            let asked = try await server.say("check compatibility", as: "ann")
            let id = try #require(asked["conversation"] as? String)
            _ = try await server.say("leo", conversation: id, as: "ann")
            let bob = try await server.say("virgo", conversation: id, as: "bob")
            #expect((bob["dialog"] as? String)?.hasPrefix("Leo and Virgo") != true, "\(bob)")
            let ann = try await server.say("virgo", conversation: id, as: "ann")
            #expect((ann["dialog"] as? String)?.hasPrefix("Leo and Virgo: 78% compatible.") == true, "\(ann)")
        }
    }

    /// Ann's last change is her radar: bob's undo has nothing of his to undo, and leaves it.
    @Test func undoUndoesOnlyTheirOwn() async throws {
        try await ServerHarness.with { server in
            let created = try await server.say("create a radar on quantum computing")
            #expect(created["status"] as? String == "done", "\(created)")
            let bob = try await server.send("POST", "/v1/undo", "{}", as: "bob")
            #expect(bob.status == 200, "\(bob)")
            #expect(!bob.text.contains("quantum"), "\(bob)")
            let search = try await server.send("GET", "/v1/search?q=quantum", as: "ann")
            #expect(Self.entities(search).contains("quantum computing"), "bob's undo touched ann's radar: \(search)")
            let ann = try await server.send("POST", "/v1/undo", "{}", as: "ann")
            #expect(ann.text.contains("quantum"), "\(ann)")
        }
    }

    @Test func widgetsShowOnlyTheirOwn() async throws {
        try await ServerHarness.with { server in
            _ = try await Self.annsDay(server)
            let ann = try await server.send("GET", "/v1/widgets?family=medium", as: "ann")
            let bob = try await server.send("GET", "/v1/widgets?family=medium", as: "bob")
            #expect(ann.text.contains("quantum computing"), "\(ann)")
            #expect(!bob.text.contains("quantum computing"), "\(bob)")
            #expect(!bob.text.contains("oat milk"), "\(bob)")
        }
    }

    @Test func suggestionsComeOnlyFromTheirOwnDonations() async throws {
        try await ServerHarness.with { server in
            _ = try await Self.annsDay(server)
            let ann = try await server.send("GET", "/v1/suggest?limit=10", as: "ann")
            let bob = try await server.send("GET", "/v1/suggest?limit=10", as: "bob")
            #expect(!((ann["suggestions"] as? [Any]) ?? []).isEmpty, "\(ann)")
            #expect(((bob["suggestions"] as? [Any]) ?? []).isEmpty, "\(bob)")
        }
    }

    @Test func activitiesAreOnlyTheirOwn() async throws {
        try await ServerHarness.with { server in
            _ = try await Self.annsDay(server)
            let ann = try await server.send("GET", "/v1/activities", as: "ann")
            let bob = try await server.send("GET", "/v1/activities", as: "bob")
            #expect(!((ann["activities"] as? [Any]) ?? []).isEmpty, "\(ann)")
            #expect(((bob["activities"] as? [Any]) ?? []).isEmpty, "\(bob)")
        }
    }

    @Test func continueCarriesOnOnlyTheirOwn() async throws {
        try await ServerHarness.with { server in
            _ = try await Self.annsDay(server)
            let ann = try await server.send("GET", "/v1/continuations", as: "ann")
            let bob = try await server.send("GET", "/v1/continuations", as: "bob")
            #expect(!((ann["continuations"] as? [Any]) ?? []).isEmpty, "\(ann)")
            #expect(((bob["continuations"] as? [Any]) ?? []).isEmpty, "\(bob)")
            let carried = try await server.send("POST", "/v1/continue", "{}", as: "bob")
            #expect(carried.status == 404, "\(carried)")
            let annCarried = try await server.send("POST", "/v1/continue", "{}", as: "ann")
            #expect(annCarried.status == 200, "\(annCarried)")
        }
    }

    static func entities(_ reply: HTTPReply) -> [String] {
        ((reply["hits"] as? [[String: Any]]) ?? []).filter { $0["kind"] as? String == "entity" }
            .compactMap { $0["title"] as? String }
    }
}
