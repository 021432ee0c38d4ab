import Foundation
import IntentModel
import TestSupport
import Testing

@testable import IntentRuntime

/// “open Sidebar”, as people say to Siri: there is no screen to show, so the app says what it is
/// for and what can be said to it, in the speaker's language; any other sentence is left alone.
@Suite("Opening an app by its name")
struct OpeningAppsTests {
    @Test(
        "An app asked for by name or synonym answers with what it understands",
        arguments: [
            ("open sidebar", "sideBar"), ("Open the Radar app", "Radar"), ("launch focus blox", "FocusBlox"),
            ("what can i do with fortune", "Fortune"), ("what can the fortune teller do", "Fortune"),
            ("how do i use my fortune app", "Fortune"), ("go to radar please", "Radar"),
        ])
    func appByName(_ sentence: String, _ app: String) throws {
        let answer = try Scratch().conversation().say(sentence)
        #expect(answer.status == .done, "\(answer)")
        #expect(answer.app == app)
        #expect(answer.dialog.hasPrefix("Opened \(app)."), "\(answer.dialog)")
        #expect(answer.dialog.contains("You can say, for example, “"), "\(answer.dialog)")
        #expect((1...3).contains(answer.suggestions.count), "\(answer.suggestions)")
        // Each sentence offered is one this app answers.
        for sentence in answer.suggestions {
            let reply = try Scratch().conversation(.init(dryRun: true)).say(sentence)
            #expect(reply.app == app, "“\(sentence)” → \(reply)")
        }
    }

    @Test func inGermanTheAnswerIsGerman() throws {
        let answer = try Scratch().conversation().say("öffne focusblox")
        #expect(answer.status == .done)
        #expect(answer.dialog.hasPrefix("FocusBlox geöffnet. Du kannst zum Beispiel „"), "\(answer.dialog)")
    }

    @Test(
        "A sentence that names an app but asks for more is not opening it",
        arguments: ["open radar on electric cars", "open the camera", "what can radar track for me tomorrow"])
    func moreThanTheAppIsNotOpeningIt(_ sentence: String) throws {
        let answer = try Scratch().conversation(.init(dryRun: true)).say(sentence)
        #expect(!answer.dialog.hasPrefix("Opened"), "\(answer)")
    }
}
