import Foundation
import IntentModel
import ModelStore
import TestSupport
import Testing

@testable import IntentRuntime

/// “help” and “what can you do” at a prompt, as Siri and Alexa answer them: sentences each app's
/// phrases read, in the speaker's language — unless an app's own phrase reads the words.
@Suite("Asking for help: what each app can be asked")
struct HelpTests {
    @Test("“help” and “what can you do” answer with two sentences per app", arguments: ["help", "What can you do?"])
    func help(_ text: String) throws {
        let answer = try Scratch().conversation().say(text)
        #expect(answer.status == .done)
        #expect(answer.intent == nil)
        #expect(
            answer.suggestions == [
                "New task in FocusBlox", "What's next in FocusBlox", "Get my fortune in Fortune",
                "Check compatibility in Fortune", "Create a radar in Radar", "Refresh my radars in Radar",
                "Save a website in sideBar", "Add a note in sideBar",
            ])
        #expect(answer.dialog.hasPrefix("You can say, for example, “New task in FocusBlox”, "))
        #expect(answer.dialog.hasSuffix(" or “Add a note in sideBar”."))
    }

    @Test("“Hilfe” is answered in German with the German phrases")
    func german() throws {
        let answer = try Scratch().conversation().say("Hilfe")
        #expect(
            answer.dialog
                == "Du kannst zum Beispiel „Erstelle Task in FocusBlox“ oder „Was steht an in FocusBlox“ sagen.")
    }

    @Test("An app's own phrase for the words wins over the built-in help")
    func appsOwnHelp() throws {
        let graph = compileGraph(
            """
            app: Manual
            intents:
              ShowManual:
                phrases: ["help", "open the manual"]
                result: { dialog: "Here is the manual." }
            """)
        let scratch = Scratch()
        let conversation = Conversation(
            session: try Session(graph: graph, store: try Store(path: scratch.path, graph: graph, clock: Bundled.clock))
        )
        #expect(conversation.say("help").dialog == "Here is the manual.")
        #expect(conversation.say("what can you do").dialog == "You can say, for example, “Help”.")
    }

    @Test("Help is not taken while a question waits for its answer")
    func notDuringAQuestion() throws {
        let conversation = try Scratch().conversation()
        #expect(conversation.say("add a task").dialog == "What's the task?")
        #expect(conversation.say("help").dialog == "Added “help”.")
    }
}
