import Foundation
import IntentModel
import TestSupport
import Testing

@testable import IntentRuntime

/// FocusBlox's tasks after they were added: renamed, made urgent or not, moved to another day; each
/// change undone as one step, and answered in the speaker's language, dates included.
@Suite("Changing a task: its title, its urgency, its due date")
struct ChangingTasksTests {
    @Test func renameKeepsTheTaskAndUndoGivesTheOldTitle() throws {
        let conversation = try Scratch().conversation()
        conversation.say("add buy milk to my tasks")
        let answer = conversation.say("rename buy milk to buy oat milk")
        #expect(answer.status == .done)
        #expect(answer.dialog == "Renamed it to “buy oat milk”.")
        #expect(try conversation.titles("Task") == ["buy oat milk"])
        #expect(
            try conversation.session.undo()
                == "Undid Rename Task: Renamed it to “buy oat milk”. (1 change reverted)")
        #expect(try conversation.titles("Task") == ["buy milk"])
    }

    @Test(
        "An urgency said where a new title could stand is the urgency, not a title",
        arguments: [
            ("set pay rent to urgent", true), ("make pay rent urgent", true), ("prioritize pay rent", true),
            ("mark pay rent as high priority", true), ("change pay rent to not urgent", false),
            ("set pay rent to low priority", false),
        ])
    func urgencyIsSet(_ sentence: String, _ urgent: Bool) throws {
        let conversation = try Scratch().conversation()
        conversation.say(urgent ? "add pay rent to my tasks" : "add pay rent to my tasks as urgent")
        let answer = conversation.say(sentence)
        #expect(answer.status == .done, "\(answer)")
        #expect(answer.dialog == "“pay rent” is \(urgent ? "urgent" : "not urgent") now.")
        #expect(try conversation.titles("Task") == ["pay rent"])
        #expect(try conversation.titles("Task", where: "urgency == urgent") == (urgent ? ["pay rent"] : []))
    }

    @Test func rescheduleSaysTheNewDayInTheSpeakersLanguage() throws {
        let conversation = try Scratch().conversation()
        conversation.say("add pay rent to my tasks", "add call mom to my tasks")
        // Sunday 22 November 2026, 10:00 UTC.
        #expect(conversation.say("move pay rent to tomorrow at 9").dialog == "“pay rent” is due tomorrow at 09:00 now.")
        #expect(
            conversation.say("verschiebe call mom auf dienstag").dialog == "„call mom“ ist jetzt Di 24. Nov fällig.")
        #expect(try conversation.titles("Task", where: "due != nil") == ["pay rent", "call mom"])
    }

    @Test func aTaskThatIsNotThereIsAskedForAndNothingChanges() throws {
        let conversation = try Scratch().conversation()
        conversation.say("add pay rent to my tasks")
        let answer = conversation.say("rename walk the dog to walk the cat")
        #expect(answer.status == .needsValue)
        #expect(answer.dialog.hasPrefix("I couldn't find a task called “walk the dog”."), "\(answer.dialog)")
        #expect(try conversation.titles("Task") == ["pay rent"])
    }
}
