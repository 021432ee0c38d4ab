import Foundation
import IntentModel
import TestSupport
import Testing

@testable import IntentRuntime

/// "how many tasks do I have" answers with a number (it listed the next three and no number).
@Suite("Counting tasks")
struct CountingTasksTests {
    @Test func theAnswerIsANumberAndTheNextThree() throws {
        let conversation = try Scratch().conversation()
        #expect(conversation.say("how many tasks do i have").dialog == "You have no open tasks.")
        conversation.say(
            "add pay rent to my tasks", "add call mom to my tasks as urgent", "add buy milk to my tasks",
            "add walk the dog to my tasks")
        let answer = conversation.say("how many tasks are left")
        #expect(answer.intent?.description == "FocusBlox.CountTasks")
        #expect(answer.dialog == "You have 4 open tasks; up next: call mom, pay rent, buy milk.")
        #expect(answer.value == .integer(4))
        #expect(conversation.say("how many urgent tasks do i have").dialog == "You have 1 urgent task: call mom.")
        #expect(
            conversation.say("wie viele aufgaben habe ich noch").dialog
                == "Du hast 4 offene Aufgaben; als Nächstes: call mom, pay rent, buy milk.")
        #expect(
            conversation.say("wie viele dringende aufgaben habe ich").dialog == "Du hast 1 dringende Aufgabe: call mom."
        )
        // Listing is still listing.
        #expect(conversation.say("what's next").dialog == "Up next: call mom, pay rent, buy milk.")
    }
}
