import Foundation
import IntentEngine
import IntentModel
import IntentRuntime
import TestSupport
import Testing

/// "complete it" right after "add water the plants to my tasks": words that point back at a record
/// instead of naming one ("it", "that task", "the radar") mean the record the last request made or
/// ran with, in the same conversation and on any engine over its store; with nothing to point at,
/// the question is asked plainly instead of "I couldn't find a task called “it”".
@Suite("Pointing back: “it”, “that task”, “the radar”")
struct PointingBackTests {
    let scratch = EngineScratch()

    struct Case: Sendable, CustomStringConvertible {
        var first: String
        var then: String
        var dialog: String
        var description: String { "\(first) → \(then)" }
    }

    static let cases: [Case] = [
        .init(first: "add water the plants to my tasks", then: "complete it", dialog: "“water the plants” is done"),
        .init(
            first: "add water the plants to my tasks", then: "i finished that task",
            dialog: "“water the plants” is done"),
        .init(first: "add pay rent to my tasks", then: "make it urgent", dialog: "“pay rent” is urgent now."),
        .init(first: "add pay rent to my tasks", then: "move it to tomorrow", dialog: "“pay rent” is due tomorrow"),
        .init(first: "add pay rent to my tasks", then: "delete it", dialog: "Delete pay rent?"),
        .init(
            first: "track rust in radar", then: "what's new on the radar",
            dialog: "Refreshed “rust”; that makes 1 refresh."),
        .init(first: "füge steuern zu meinen aufgaben hinzu", then: "lösche sie", dialog: "steuern"),
    ]

    @Test(arguments: Self.cases)
    func wordsThatPointBackMeanTheLastRecord(_ c: Case) throws {
        let request = EngineRequest(conversation: .make())
        #expect(try scratch.engine().respond(to: "add call mom to my tasks", request).status == .done)
        #expect(try scratch.engine().respond(to: "track go in radar", request).status == .done)
        #expect(try scratch.engine().respond(to: c.first, request).status == .done)
        // Another engine over the same store: the record is kept with the conversation.
        let answer = try scratch.engine().respond(to: c.then, request)
        #expect(answer.dialog.contains(c.dialog), "\(answer.dialog)")
    }

    @Test("With nothing to point at, the question is asked plainly, and nothing changes")
    func nothingToPointAtAsks() throws {
        let engine = try scratch.engine()
        _ = engine.respond(to: "add pay rent to my tasks", EngineRequest(conversation: .make()))
        let lone = EngineRequest(conversation: .make())
        let answer = engine.respond(to: "complete it", lone)
        #expect(answer.status == .needsValue)
        #expect(answer.dialog == "Which task did you finish?", "\(answer.dialog)")
        #expect(answer.choices == ["pay rent"])
        // Too long after the last request, "it" no longer points at its record.
        let request = EngineRequest(conversation: .make())
        #expect(try scratch.engine().respond(to: "add call mom to my tasks", request).status == .done)
        let later = try scratch.engine(at: Bundled.now.addingTimeInterval(10 * 60))
        #expect(later.respond(to: "delete it", request).dialog == "Which task should I delete?")
        // "no" to the question declines it.
        #expect(later.respond(to: "no", request).status == .cancelled)
        #expect(try scratch.engine().search("call mom").hits.count == 1)
    }

    @Test("A record named like a pointing word is found by its name")
    func aRecordNamedSoWins() throws {
        let request = EngineRequest(conversation: .make())
        #expect(try scratch.engine().respond(to: "add the task to my tasks", request).status == .done)
        #expect(try scratch.engine().respond(to: "add pay rent to my tasks", request).status == .done)
        let answer = try scratch.engine().respond(to: "complete the task", request)
        #expect(answer.dialog == "Nice — “the task” is done.", "\(answer.dialog)")
    }

    @Test("An article or the app's name alone is no name: “what's new on the radar” asks which")
    func anArticleIsNoName() throws {
        let engine = try scratch.engine()
        _ = engine.respond(to: "track rust in radar", EngineRequest(conversation: .make()))
        for sentence in ["what's new on the radar", "what's new on radar"] {
            let answer = engine.respond(to: sentence, EngineRequest(conversation: .make()))
            #expect(answer.dialog == "Which radar should I refresh?", "\(sentence): \(answer.dialog)")
        }
    }

    @Test("A question that would repeat the sentence names the intent and its values instead")
    func theReviewQuestionSaysHowItRead() throws {
        let answer = try scratch.engine().respond(
            to: "delete the note about stamps", EngineRequest(conversation: .make()))
        #expect(answer.status == .needsConfirmation)
        #expect(answer.dialog == "Did you mean: Delete Task in FocusBlox (task “the note about stamps”)?")
    }

    @Test("“undo that” takes the last change back, in either language; a dry run takes nothing back")
    func undoIsUnderstood() throws {
        let engine = try scratch.engine()
        let request = EngineRequest(conversation: .make())
        #expect(engine.respond(to: "undo", request).dialog == "There is nothing to undo.")
        _ = engine.respond(to: "add buy milk to my tasks", request)
        _ = engine.respond(to: "add pay rent to my tasks", request)
        let dry = engine.respond(to: "undo that", EngineRequest(conversation: .make(), dryRun: true))
        #expect(dry.status == .ready)
        #expect(try engine.search("pay rent").hits.count == 1)
        let undone = engine.respond(to: "take that back", request)
        #expect(undone.status == .done)
        #expect(undone.dialog == "Undid Create Task: Added “pay rent”. (1 change reverted)")
        #expect(try engine.search("pay rent").hits.isEmpty)
        #expect(engine.respond(to: "mach das rückgängig", request).dialog.hasPrefix("Rückgängig gemacht: Create Task:"))
        #expect(try engine.search("buy milk").hits.isEmpty)
    }
}
