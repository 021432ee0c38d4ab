import Foundation
import IntentModel
import TestSupport
import Testing

@testable import IntentRuntime

/// Requests that name where something is or goes ("… in radar", "… to my list") rather than what it
/// is (issue 20): the place is never read as a value, and a wrong intent never acts on it.
@Suite("Places named in a request")
struct PlacesNamedTests {
    /// Open Radar's `… {radar} radar` read these as a radar called "settings in" or "profile in",
    /// with the app's name as the template's word: the wrong intent, acting.
    @Test(
        "The app named at the end of a request is the app, not the last word of a radar's phrase",
        arguments: [
            ("go to the settings in radar", "Radar.ShowRadarSettings", "Opening Radar's settings."),
            ("take me to my profile in radar", "Radar.ShowRadarProfile", "Opening your profile."),
            ("show me my profile in radar", "Radar.ShowRadarProfile", "Opening your profile."),
        ])
    func appNamedAtTheEnd(_ sentence: String, _ intent: String, _ dialog: String) throws {
        let conversation = try Scratch().conversation()
        conversation.say("create a radar on rust")
        let answer = conversation.say(sentence)
        #expect(answer.intent?.description != "Radar.OpenRadar", "\(answer)")
        #expect(answer.status == .done, "\(answer)")
        #expect(answer.intent?.description == intent, "\(answer)")
        #expect(answer.dialog == dialog)
    }

    /// Create Task's `<task_word> [to] {title}` took "my list" as the task's title.
    @Test(
        "Adding a task to one's list without saying the task asks what it is",
        arguments: ["add a task to my list", "add a new task to my to-do list", "create a task on my list"])
    func addingATaskToTheList(_ sentence: String) throws {
        let conversation = try Scratch().conversation()
        conversation.expectQuestion(sentence, intent: "FocusBlox.CreateTask", question: "What's the task?")
        let added = conversation.say("buy milk")
        #expect(added.status == .done, "\(added)")
        #expect(added.dialog == "Added “buy milk”.")
        #expect(try conversation.titles("Task") == ["buy milk"])
    }
}
