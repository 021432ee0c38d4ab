import Foundation
import IntentLanguage
import IntentModel
import ModelStore
import TestSupport
import Testing

@testable import IntentRuntime

/// Search, donations, suggestions and tips through a conversation over the bundled apps: phrases
/// in, what search finds and what the store remembers out.
@Suite struct PresenceTests {
    /// The titles `intents search` lists for `text`, entities and actions.
    static func titles(_ text: String, _ conversation: Conversation) throws -> [String] {
        try SearchEngine(graph: conversation.session.graph)
            .search(text, store: conversation.session.store, now: Bundled.now, limit: 10).hits.map(\.title)
    }

    static let shopping = "Einkaufen: Milch, Brot, Butter"

    // ITB-G2: a task "Einkaufen: Milch, Brot, Butter" is found by each of its words (and typos, case, diacritics).
    @Test(arguments: ["Einkaufen", "Milch", "Brot", "Butter", "einkaufen milch", "MILCH", "mílch", "Mlch", "einkauf"])
    func findsTheShoppingTask(_ query: String) throws {
        let scratch = Scratch()
        let conversation = try scratch.conversation()
        conversation.say("add a task \(Self.shopping)", "add a task buy stamps")
        #expect(try Self.titles(query, conversation) == [Self.shopping])
    }

    @Test func typoFindsMilk() throws {
        let scratch = Scratch()
        let conversation = try scratch.conversation()
        conversation.say("add a task buy milk")
        let result = try SearchEngine(graph: conversation.session.graph)
            .search("mlk", store: conversation.session.store, now: Bundled.now)
        #expect(result.hits.map(\.title) == ["buy milk"])
        #expect(result.hits.first?.why == "“milk” (typo of “mlk”) in title")
        #expect(result.hits.first?.score.typos == 1)
    }

    // Completed tasks are not indexed; completing one takes it out of the index at once.
    @Test func completedTasksAreNotFound() throws {
        let scratch = Scratch()
        let conversation = try scratch.conversation()
        conversation.say("add a task \(Self.shopping)")
        #expect(try Self.titles("Milch", conversation) == [Self.shopping])
        #expect(conversation.say("mark \(Self.shopping) as done").status == .done)
        #expect(try Self.titles("Milch", conversation) == [])
    }

    @Test func aDeletedTaskIsGoneAtOnce() throws {
        let scratch = Scratch()
        let conversation = try scratch.conversation()
        conversation.say("add a task \(Self.shopping)")
        #expect(conversation.say("delete the task \(Self.shopping)", "yes").status == .done)
        #expect(try Self.titles("Brot", conversation) == [])
        // Undo brings the task and its place in the index back.
        _ = try conversation.session.undo()
        #expect(try Self.titles("Brot", conversation) == [Self.shopping])
    }

    @Test func keywordsCount() throws {
        let scratch = Scratch()
        let conversation = try scratch.conversation()
        conversation.say("add a task plan the trip")
        let store = conversation.session.store
        try store.write { transaction in
            let task = try transaction.fetch(RecordQuery(entity: QualifiedName(app: "FocusBlox", name: "Task")))[0]
            try transaction.update(task, set: ["tags": .array([.string("urlaub"), .string("Reise")])])
        }
        #expect(try Self.titles("urlaub", conversation) == ["plan the trip"])
        let hit = try SearchEngine(graph: conversation.session.graph).search("reise", store: store, now: Bundled.now)
            .hits.first
        #expect(hit?.matches.first?.field == .keywords)
    }

    @Test func aChangedTitleIsFoundByItsNewWordsOnly() throws {
        let scratch = Scratch()
        let conversation = try scratch.conversation()
        conversation.say("add a task call the plumber")
        try conversation.session.store.write { transaction in
            let task = try transaction.fetch(RecordQuery(entity: QualifiedName(app: "FocusBlox", name: "Task")))[0]
            try transaction.update(task, set: ["title": .string("email the landlord")])
        }
        #expect(try Self.titles("landlord", conversation) == ["email the landlord"])
        #expect(try Self.titles("plumber", conversation) == [])
    }

    // Past 64 writes the pending documents move into the FTS5 table; deleting or changing a
    // moved one still takes effect at once.
    @Test func deletesAndUpdatesAfterAFlush() throws {
        let scratch = Scratch()
        let conversation = try scratch.conversation()
        let store = conversation.session.store
        let task = QualifiedName(app: "FocusBlox", name: "Task")
        let records = try store.write { transaction in
            try (0..<300).map { index in
                try transaction.insert(
                    task, values: ["title": .string("chore c\(index)z \(index % 2 == 0 ? "garden" : "kitchen")")])
            }
        }
        #expect(try Self.titles("c7z", conversation) == ["chore c7z kitchen"])
        #expect(try Self.titles("garden", conversation).count == 10)  // the limit
        try store.write { transaction in
            try transaction.delete(records[7])
            _ = try transaction.update(records[8], set: ["title": .string("water the roses")])
            _ = try transaction.update(records[10], set: ["isCompleted": .boolean(true)])
        }
        #expect(try Self.titles("c7z", conversation) == [])
        #expect(try Self.titles("roses", conversation) == ["water the roses"])
        #expect(try Self.titles("c8z", conversation) == [])
        #expect(try Self.titles("c10z", conversation) == [])
        #expect(try Self.titles("c299z", conversation) == ["chore c299z kitchen"])
        try store.write { try $0.flushSearch() }
        #expect(try Self.titles("c7z", conversation) == [])
        #expect(try Self.titles("roses", conversation) == ["water the roses"])
    }

    // Actions: "focus" finds Start Focus Block, like Spotlight shows App Shortcuts.
    @Test func actionsAreFound() throws {
        let scratch = Scratch()
        let conversation = try scratch.conversation()
        let result = try SearchEngine(graph: conversation.session.graph)
            .search("focus", store: conversation.session.store, now: Bundled.now)
        let start = try #require(result.hits.first { $0.title == "Start Focus Block" })
        #expect(start.kind == .action)
        #expect(start.glyph == "◷")
        #expect(start.subtitle == "“Start focusing in FocusBlox”")
    }

    // The index is rebuilt when the searchable declarations change, and by reindexSearch.
    @Test func reindexesWhenTheDeclarationsChange() throws {
        let scratch = Scratch()
        let conversation = try scratch.conversation()
        conversation.say("add a task \(Self.shopping)")
        let plain = try Store(path: scratch.path, graph: Bundled.graph, clock: Bundled.clock)
        #expect(try plain.write { try $0.reindexSearch() } == 0)
        let reopened = try Store(
            path: scratch.path, graph: Bundled.graph, clock: Bundled.clock,
            indexer: SearchDocumentBuilder(graph: Bundled.graph, clock: Bundled.clock))
        #expect(try reopened.read { try $0.searchIndexCount() } == 1)
    }

    // ITB-G1: donations only for intents that declare donate:, with only the donated parameters.
    @Test func donatesOnlyDeclaredParameters() throws {
        let scratch = Scratch()
        let conversation = try scratch.conversation()
        conversation.say("remind me to call mom tomorrow at 9", "what's next")
        let donations = try conversation.session.store.read { try $0.donationHistory() }
        #expect(donations.map(\.intent) == ["FocusBlox.CreateTask"])
        #expect(donations.first?.parameters == #"{"title":"call mom","urgency":"not_urgent"}"#)
        #expect(donations.first?.via == .phrase)
    }

    @Test func aFailedIntentDonatesNothing() throws {
        let scratch = Scratch()
        let conversation = try scratch.conversation()
        #expect(conversation.say("complete the task pizza").status != .done)
        #expect(try conversation.session.store.read { try $0.donationHistory() }.isEmpty)
    }

    // Deleting an entity deletes the donations that refer to it (deleteDonations); --forget by intent.
    @Test func forgettingDonations() throws {
        let scratch = Scratch()
        let conversation = try scratch.conversation()
        conversation.say("add a task water plants", "mark water plants as done")
        let store = conversation.session.store
        #expect(
            try store.read { try $0.donationHistory() }.map(\.intent) == [
                "FocusBlox.CreateTask", "FocusBlox.CompleteTask",
            ])
        #expect(conversation.say("delete the task water plants", "yes").status == .done)
        #expect(try store.read { try $0.donationHistory() }.map(\.intent) == ["FocusBlox.CreateTask"])
        try store.write { _ = try $0.forgetDonations(intent: QualifiedName(app: "FocusBlox", name: "CreateTask")) }
        #expect(try store.read { try $0.donationHistory() }.isEmpty)
        #expect(try SuggestionModel(graph: Bundled.graph).suggest(store: store, now: Bundled.now).isEmpty)
    }

    // Suggestions: what follows what, and the values used most.
    @Test func suggestsWhatUsuallyFollows() throws {
        let scratch = Scratch()
        let conversation = try scratch.conversation()
        for index in 0..<3 {
            conversation.say("what's next", "start a focus block for 50 minutes on deep work", "end the focus block")
            conversation.say("add a task errand \(index)")
        }
        conversation.say("what's next")
        let suggestions = try SuggestionModel(graph: Bundled.graph).suggest(
            store: conversation.session.store, now: Bundled.now)
        #expect(suggestions.first?.text == "Start Focus Block · “deep work”, 50 minutes")
        #expect((suggestions.first?.score.sequence ?? 0) > 0)
        let accepted = conversation.accept(try #require(suggestions.first))
        #expect(accepted.status == .done)
        #expect(accepted.dialog.contains("deep work"))
    }

    static let shop = compileGraph(
        """
        app: Shop
        intents:
          Buy:
            parameters: { item: string }
            phrases: ["buy {item}"]
            result: { dialog: "${item}" }
            donate: [item]
            examples: [{ say: "buy milk", expect: { item: milk } }]
          Sell:
            parameters: { item: string }
            phrases: ["sell {item}"]
            result: { dialog: "${item}" }
            donate: [item]
            suggest: false
            examples: [{ say: "sell milk", expect: { item: milk } }]
          Count:
            parameters: { item: string }
            phrases: ["count {item}"]
            result: { dialog: "${item}" }
            donate: [item]
            examples: [{ say: "count milk", expect: { item: milk } }]
        """)

    /// Counters as the store keeps them: Buy in the mornings, Count in the afternoons, Sell most often.
    static let counts: [String: [String: Int]] = [
        "Shop.Buy": ["n": 4, "h:09": 4, "w:2": 4, #"v:item="milk""#: 3, #"v:item="tea""#: 1, "after:Shop.Count": 1],
        "Shop.Count": ["n": 4, "h:15": 4, "w:2": 4, #"v:item="eggs""#: 1, "after:Shop.Buy": 3],
        "Shop.Sell": ["n": 20, "h:09": 10, "h:15": 10],
    ]

    @Test(arguments: [("2026-11-23T09:00:00Z", "Buy · “milk”"), ("2026-11-23T15:00:00Z", "Count")])
    func timeOfDayDecides(_ moment: String, _ expected: String) throws {
        let now = try #require(ISODate.parse(moment, timeZone: .gmt))
        let suggestions = SuggestionModel(graph: Self.shop).suggest(
            counts: Self.counts, now: now, last: nil, clock: Bundled.clock)
        // Sell is never offered (suggest: false); eggs were used once: not offered as a value.
        #expect(suggestions.map(\.text).first == expected)
        #expect(!suggestions.contains { $0.intent.name == "Sell" })
        #expect(suggestions.first?.score.timeOfDay ?? 0 > 0)
    }

    @Test func sequenceDecidesWhenTimeDoesNot() throws {
        let now = try #require(ISODate.parse("2026-11-23T12:00:00Z", timeZone: .gmt))
        let model = SuggestionModel(graph: Self.shop)
        let afterBuy = model.suggest(counts: Self.counts, now: now, last: "Shop.Buy", clock: Bundled.clock)
        #expect(afterBuy.first?.text == "Count")
        #expect(afterBuy.first?.score.sequence ?? 0 > 0)
        let afterCount = model.suggest(counts: Self.counts, now: now, last: "Shop.Count", clock: Bundled.clock)
        #expect(afterCount.first?.text == "Buy · “milk”")
    }

    // ITB-G4: a tip is shown once per placement, in the conversation's language; dismissing is kept.
    @Test func tipsOncePerPlacement() throws {
        let scratch = Scratch()
        let conversation = try scratch.conversation()
        let board = TipBoard(graph: Bundled.graph)
        let store = conversation.session.store
        let german = try board.take(.start, app: "FocusBlox", language: "de", store: store)
        #expect(german?.text == "Sage „Erstelle Task in FocusBlox“")
        #expect(try board.take(.start, app: "FocusBlox", language: "en", store: store) == nil)
        try store.write { try $0.setTipsOff(true) }
        #expect(try board.take(.afterLongWay, app: "FocusBlox", language: "en", store: store) == nil)
        try store.write { try $0.setTipsOff(false) }
        let tip = try #require(try board.take(.afterLongWay, app: "FocusBlox", language: "en", store: store))
        #expect(tip.text == "Say “Mark as done in FocusBlox”")
        try store.write { try $0.dismissTip("FocusBlox.GetNextUp@after-long-way") }
        let states = try store.read { try $0.tipStates() }
        #expect(states["FocusBlox.GetNextUp@after-long-way"]?.dismissed == true)
    }
}
