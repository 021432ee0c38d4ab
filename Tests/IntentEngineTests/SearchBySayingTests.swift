import Foundation
import IntentEngine
import IntentModel
import IntentRuntime
import TestSupport
import Testing

/// "search for milk", "find my notes about stamps": a request to search that no app's phrase reads
/// is answered from the search index, like `intents search`, in the speaker's language.
@Suite("Searching by saying so")
struct SearchBySayingTests {
    let scratch = EngineScratch()

    func engine() throws -> IntentEngine {
        let engine = try scratch.engine()
        for phrase in ["add call the bank to my tasks", "note that stamps for the invitations are in the drawer"] {
            #expect(engine.respond(to: phrase, EngineRequest(conversation: .make())).status == .done)
        }
        return engine
    }

    @Test(
        "What is found is said with its type and app",
        arguments: [
            ("search for bank", "Found 1 for “bank”: “call the bank” (task in FocusBlox)."),
            (
                "find my notes about stamps",
                "Found 1 for “stamps”: “stamps for the invitations are in the drawer” (note in sideBar)."
            ),
            // Every determiner the matcher knows stands before a type's noun ("their" was not one here).
            (
                "search for their notes about stamps",
                "Found 1 for “stamps”: “stamps for the invitations are in the drawer” (note in sideBar)."
            ),
            ("search my tasks for stamps", "Nothing found for “stamps”."),
            ("look up bank in focusblox", "Found 1 for “bank”: “call the bank” (task in FocusBlox)."),
            ("look up bank in sidebar", "Nothing found for “bank”."),
            ("search for zebras", "Nothing found for “zebras”."),
            ("suche nach bank", "1 Treffer für „bank“: „call the bank“ (Aufgabe in FocusBlox)."),
        ])
    func searchIsAnswered(_ sentence: String, _ dialog: String) throws {
        let answer = try engine().respond(to: sentence, EngineRequest(conversation: .make()))
        #expect(answer.status == .done, "\(answer.dialog)")
        #expect(answer.dialog == dialog)
    }

    /// An entity's `synonyms:` ("Aufgaben", "to-dos") narrow a search as its English noun does; a
    /// German search names the type by its German `title:` ("Aufgabe", not "Task").
    @Test(
        "A type's synonym narrows the search, in any language",
        arguments: [
            ("suche nach aufgaben mit bank", "1 Treffer für „bank“: „call the bank“ (Aufgabe in FocusBlox)."),
            ("find my to-dos about bank", "Found 1 for “bank”: “call the bank” (task in FocusBlox)."),
            ("search for my tasks about bank", "Found 1 for “bank”: “call the bank” (task in FocusBlox)."),
        ])
    func synonymsNarrow(_ sentence: String, _ dialog: String) throws {
        let engine = try engine()
        let note = engine.respond(to: "note that the bank opens at nine", EngineRequest(conversation: .make()))
        #expect(note.status == .done, "\(note.dialog)")
        let answer = engine.respond(to: sentence, EngineRequest(conversation: .make()))
        #expect(answer.dialog == dialog)
    }

    @Test("The hits come as records in the JSON answer")
    func hitsAreRecords() throws {
        let engine = try engine()
        let answer = engine.respond(to: "search for bank", EngineRequest(conversation: .make(), kept: false))
        guard case .array(let hits)? = answer.result, case .object(let hit)? = hits.first else {
            Issue.record("no hits: \(String(describing: answer.result))")
            return
        }
        #expect(hit["type"] == .string("FocusBlox.Task"))
        #expect(hit["title"] == .string("call the bank"))
    }

    @Test(
        "An app's own phrase with “find” or “search” is the app's, not a search",
        arguments: ["find the note about stamps", "search my notes for stamps"])
    func anAppsPhraseWins(_ sentence: String) throws {
        let answer = try engine().respond(to: sentence, EngineRequest(conversation: .make()))
        #expect(answer.intent?.description == "sideBar.OpenNote", "\(answer.dialog)")
    }

    @Test("A saved website is listed, found and opened by its host")
    func savedWebsites() throws {
        let engine = try scratch.engine()
        let request = EngineRequest(conversation: .make())
        #expect(engine.respond(to: "what's on my reading list", request).dialog == "You have not saved a website yet.")
        #expect(engine.respond(to: "save https://swift.org/blog for later", request).dialog == "Saved swift.org.")
        #expect(engine.respond(to: "show my reading list", request).dialog == "Saved: swift.org.")
        #expect(engine.respond(to: "what did i save", request).dialog == "Saved: swift.org.")
        #expect(
            engine.respond(to: "search for swift", request).dialog
                == "Found 1 for “swift”: “swift.org” (website in sideBar).")
        let opened = engine.respond(to: "open the saved page swift.org", request)
        #expect(opened.dialog == "Opening swift.org (https://swift.org/blog).")
    }
}
