import Foundation
import IntentLanguage
import IntentModel
import ModelStore
import TestSupport
import Testing

@testable import IntentRuntime

@Suite("Conversation: phrases in, answers and effects out")
struct ConversationTests {
    @Test("A phrase executes its intent and the store keeps the effect")
    func createsATask() throws {
        let scratch = Scratch()
        let conversation = try scratch.conversation()
        let answer = conversation.say("hey, add buy milk to my tasks in focusblox please")
        #expect(answer.status == .done)
        #expect(answer.dialog == "Added “buy milk”.")
        #expect(answer.intent?.description == "FocusBlox.CreateTask")
        #expect(try conversation.titles("Task") == ["buy milk"])
        // A second session over the same file sees it.
        #expect(try scratch.conversation().titles("Task") == ["buy milk"])
    }

    @Test("A missing value is asked for with its prompt, and the reply carries on")
    func asksForAMissingValue() throws {
        let conversation = try Scratch().conversation()
        let question = conversation.say("start a focus block")
        #expect(question.status == .needsValue)
        #expect(question.asking == "title")
        #expect(question.dialog == "What will you focus on?")
        let answer = conversation.say("the quarterly report")
        #expect(answer.status == .done)
        #expect(answer.dialog == "Focusing on “the quarterly report” for 25 minutes. Ends at 10:25.")
    }

    @Test("An invalid value says why and asks again")
    func validation() throws {
        let conversation = try Scratch().conversation()
        let question = conversation.say("start a focus block on taxes for 3 minutes")
        #expect(question.status == .needsValue)
        #expect(question.dialog == "A focus block lasts at least five minutes. For how many minutes?")
        let again = conversation.say("soon")
        #expect(again.status == .needsValue)
        #expect(again.dialog.hasPrefix("I didn't get that."))
        let answer = conversation.say("forty five")
        #expect(answer.status == .done)
        #expect(answer.dialog.contains("for 45 minutes"))
    }

    @Test("Two entities with one name become numbered choices")
    func disambiguatesEntities() throws {
        let conversation = try Scratch().conversation()
        conversation.say("add buy milk to my tasks", "create an urgent task buy milk")
        let question = conversation.say("mark buy milk as done")
        #expect(question.status == .needsDisambiguation)
        #expect(question.choices == ["buy milk", "buy milk"])
        let answer = conversation.say("2")
        #expect(answer.status == .done)
        #expect(try conversation.titles("Task", where: "isCompleted") == ["buy milk"])
        #expect(try conversation.titles("Task", where: "isCompleted && urgency == urgent") == ["buy milk"])
    }

    @Test("An entity not in the store is reported and offered from the suggested ones")
    func unknownEntity() throws {
        let conversation = try Scratch().conversation()
        conversation.say("add pay rent to my tasks")
        let question = conversation.say("complete the task pizza")
        #expect(question.status == .needsValue)
        #expect(question.dialog == "I couldn't find a task called “pizza”. Which task did you finish?")
        #expect(question.choices == ["pay rent"])
        #expect(conversation.say("1").status == .done)
    }

    @Test("Deleting confirms; no leaves the store as it was, yes deletes")
    func deleteConfirms() throws {
        let conversation = try Scratch().conversation()
        conversation.say("add buy milk to my tasks")
        let question = conversation.say("delete the task buy milk")
        #expect(question.status == .needsConfirmation)
        #expect(question.dialog == "Delete buy milk? (yes/no)")
        #expect(conversation.say("no").status == .cancelled)
        #expect(try conversation.titles("Task") == ["buy milk"])
        #expect(conversation.say("delete the task buy milk", "yes").dialog == "Deleted “buy milk”.")
        #expect(try conversation.titles("Task").isEmpty)
    }

    @Test("A new request at a confirmation is answered; the delete is dropped, not done")
    func newRequestAtConfirmation() throws {
        let conversation = try Scratch().conversation()
        conversation.say("add buy milk to my tasks", "add pay rent to my tasks")
        #expect(conversation.say("delete the task buy milk").status == .needsConfirmation)
        let answer = conversation.say("what's next")
        #expect(answer.status == .done)
        #expect(answer.dialog.hasPrefix("Up next:"))
        #expect(!conversation.isWaiting)
        #expect(try conversation.titles("Task").sorted() == ["buy milk", "pay rent"])
        // What is neither an answer nor a request still asks again.
        #expect(conversation.say("delete the task buy milk").status == .needsConfirmation)
        let unclear = conversation.say("purple monkey dishwasher")
        #expect(unclear.status == .needsConfirmation)
        #expect(unclear.dialog == "Please answer yes or no. Delete buy milk? (yes/no)")
    }

    @Test("“Don't” answers a confirmation with no", arguments: ["don't", "Don’t!", "dont"])
    func dontIsNo(_ reply: String) throws {
        let conversation = try Scratch().conversation()
        conversation.say("add buy milk to my tasks", "delete the task buy milk")
        #expect(conversation.say(reply).status == .cancelled)
        #expect(try conversation.titles("Task") == ["buy milk"])
    }

    @Test("Cancel works at any question")
    func cancel() throws {
        let conversation = try Scratch().conversation()
        #expect(conversation.say("start a focus block").isQuestion)
        let answer = conversation.say("never mind")
        #expect(answer.status == .cancelled)
        #expect(!conversation.isWaiting)
        #expect(try conversation.titles("FocusBlock").isEmpty)
    }

    @Test("A failing intent answers with its message and changes nothing")
    func failureRollsBack() throws {
        let conversation = try Scratch().conversation()
        #expect(conversation.say("start a focus block on taxes for 30 minutes").status == .done)
        let answer = conversation.say("start a focus block on email for 30 minutes")
        #expect(answer.status == .error)
        #expect(answer.failure?.message == "A focus block is already running: “taxes”. End it first.")
        #expect(try conversation.titles("FocusBlock") == ["taxes"])
        #expect(conversation.say("end the focus block").dialog == "Ended “taxes”. Well done.")
    }

    @Test("Out-of-domain phrases get no_match with suggestions")
    func noMatch() throws {
        let conversation = try Scratch().conversation()
        let answer = conversation.say("order a pizza with extra radar")
        #expect(answer.status == .noMatch)
        #expect(answer.dialog.hasPrefix("Sorry, I don't know how to do that."))
        let empty = conversation.say("   ")
        #expect(empty.status == .noMatch)
    }

    @Test("Undo reverts the last intent that changed something")
    func undo() throws {
        let conversation = try Scratch().conversation()
        conversation.say("add buy milk to my tasks", "add pay rent to my tasks", "what's next")
        #expect(try conversation.session.undo() == "Undid Create Task: Added “pay rent”. (1 change reverted)")
        #expect(try conversation.titles("Task") == ["buy milk"])
        conversation.say("delete the task buy milk", "yes")
        #expect(try conversation.titles("Task").isEmpty)
        _ = try conversation.session.undo()
        #expect(try conversation.titles("Task") == ["buy milk"])
        // The restored task is found by name again.
        #expect(conversation.say("complete buy milk").status == .done)
    }

    @Test("A dry run resolves without executing")
    func dryRun() throws {
        let conversation = try Scratch().conversation(.init(dryRun: true))
        let answer = conversation.say("remind me to call mom tomorrow at 9")
        #expect(answer.status == .ready)
        #expect(answer.dialog == "Ready: Create call mom due tomorrow at 09:00. (dry run: nothing was changed)")
        #expect(try conversation.titles("Task").isEmpty)
    }

    @Test("JSON parameters: ISO dates, enum ids, entities as type, id and title")
    func jsonParameters() throws {
        let conversation = try Scratch().conversation()
        let created = conversation.say("remind me to call mom tomorrow at 9")
        let parameters = Dictionary(uniqueKeysWithValues: created.parameters.map { ($0.name, $0.value) })
        #expect(parameters["due"] == "2026-11-23T09:00:00Z")
        #expect(parameters["urgency"] == "not_urgent")
        let completed = conversation.say("complete call mom")
        let task = completed.parameters.first?.value.object
        #expect(task?["type"] == "FocusBlox.Task")
        #expect(task?["title"] == "call mom")
        #expect(task?["id"]?.string?.count == 36)
    }

    @Test("Queries sort and filter in the store: urgent first, done ones left out")
    func queries() throws {
        let conversation = try Scratch().conversation()
        conversation.say(
            "add water the plants to my tasks", "create an urgent task fix the login bug",
            "remind me to pay rent tomorrow", "add buy milk to my tasks", "complete buy milk")
        #expect(conversation.say("what's next").dialog == "Up next: fix the login bug, pay rent, water the plants.")
    }

    @Test("Radar: refresh counts, refresh all, deep links")
    func radar() throws {
        let conversation = try Scratch().conversation()
        #expect(conversation.say("track rust as bullish").dialog == "Now tracking “rust” (Positive).")
        #expect(conversation.say("refresh the rust radar").dialog == "Refreshed “rust”; that makes 1 refresh.")
        conversation.say("track electric cars")
        #expect(conversation.say("refresh all radars").dialog == "Refreshed 2 radars.")
        let opened = conversation.say("open the radar on rust")
        #expect(opened.opens.count == 1)
        #expect(opened.opens.first?.hasPrefix("radar://open/") == true)
    }

    @Test("Fortune readings are the same for the same day and signs")
    func fortune() throws {
        let conversation = try Scratch().conversation()
        let first = conversation.say("how compatible are leo and virgo")
        let second = conversation.say("how compatible are virgo and leo")
        #expect(first.status == .done)
        #expect(first.dialog.hasPrefix("Leo and Virgo: "))
        #expect(first.dialog.dropFirst(14) == second.dialog.dropFirst(14))
        let question = conversation.say("check compatibility")
        #expect(question.dialog == "What's your zodiac sign?")
        #expect(conversation.say("aries").dialog == "What's their zodiac sign?")
        #expect(conversation.say("libra").status == .done)
    }

    @Test("sideBar: validation by pattern, duplicates refused")
    func sidebar() throws {
        let conversation = try Scratch().conversation()
        #expect(conversation.say("save https://swift.org").dialog == "Saved swift.org.")
        let again = conversation.say("save https://swift.org")
        #expect(again.status == .error)
        #expect(again.dialog == "“swift.org” is already saved.")
        #expect(try conversation.titles("Website").count == 1)
    }

    @Test("Donations keep only the donate parameters")
    func donations() throws {
        let scratch = Scratch()
        let conversation = try scratch.conversation()
        conversation.say("remind me to call mom tomorrow at 9")
        let donations = try conversation.session.store.read { try $0.donations() }
        #expect(donations.count == 1)
        #expect(donations.first?.intent == "FocusBlox.CreateTask")
        #expect(donations.first?.parameters == #"{"title":"call mom","urgency":"not_urgent"}"#)
    }
}
