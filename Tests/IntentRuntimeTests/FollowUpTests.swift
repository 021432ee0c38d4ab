import Foundation
import IntentModel
import ModelStore
import TestSupport
import Testing

@testable import IntentRuntime

/// Issue 20, item 5: a follow-up that names only a new value reruns the last request with it —
/// "do the same for the kitchen", "the other one" — and says what it carried over; an explicit new
/// request is never taken for one.
@Suite("Follow-ups: the last request again with one value changed")
struct FollowUpTests {
    static let home = """
        app: Home
        enums:
          Domain: { cases: { light: { title: Light, synonyms: [lights] }, fan: Fan } }
        entities:
          Area: { properties: { name: string }, matchBy: [name] }
        intents:
          TurnOn:
            parameters:
              domain: Domain
              area: Area
            phrases: ["turn on the {domain} in [the] {area}"]
            result: { dialog: "On: ${domain} in ${area.name}." }
          TurnOff:
            parameters: { area: Area }
            phrases: ["turn off everything in [the] {area}"]
            result: { dialog: "Off: everything in ${area.name}." }
        """

    let scratch = Scratch()

    func conversation() throws -> Conversation {
        let graph = compileGraph(Self.home)
        let store = try Store(path: scratch.path, graph: graph, clock: Bundled.clock)
        try store.write { transaction in
            for name in ["Kitchen", "Living Room"] {
                try transaction.insert(QualifiedName(app: "Home", name: "Area"), values: ["name": .string(name)])
            }
        }
        return Conversation(session: try Session(graph: graph, store: store))
    }

    @Test(
        "A new value for the last request",
        arguments: [
            ("do the same for the kitchen", "area", "On: Light in Kitchen."),
            ("and the kitchen?", "area", "On: Light in Kitchen."),
            ("same for the fan", "domain", "On: Fan in Living Room."),
            ("what about the fan", "domain", "On: Fan in Living Room."),
        ])
    func newValue(_ followUp: String, _ replaced: String, _ dialog: String) throws {
        let conversation = try conversation()
        #expect(conversation.say("turn on the lights in the living room").dialog == "On: Light in Living Room.")
        let answer = conversation.say(followUp)
        #expect(answer.dialog == dialog, "“\(followUp)”")
        #expect(answer.carried?.replaced == replaced, "“\(followUp)”")
    }

    @Test("“The other one” is the other of two: two records, two cases; never when two parameters have two")
    func theOtherOne() throws {
        let conversation = try conversation()
        #expect(conversation.say("turn off everything in the kitchen").dialog == "Off: everything in Kitchen.")
        let explained = try #require(conversation.explainFollowUp("the other one"))
        #expect(explained.contains("area replaced"), "\(explained)")
        let other = conversation.say("the other one")
        #expect(other.dialog == "Off: everything in Living Room.")
        #expect(other.carried?.replaced == "area")
        #expect(conversation.say("and the other one?").dialog == "Off: everything in Kitchen.")
        // Light or fan, kitchen or living room: which one is "the other" is not said.
        #expect(conversation.say("turn on the lights in the kitchen").dialog == "On: Light in Kitchen.")
        #expect(conversation.explainFollowUp("the other one") == nil)
        #expect(conversation.say("the other one").carried == nil)
    }

    @Test("An explicit request is a request, not a follow-up")
    func explicitRequestIsNoFollowUp() throws {
        let conversation = try conversation()
        _ = conversation.say("turn on the lights in the living room")
        let answer = conversation.say("turn off everything in the kitchen")
        #expect(answer.carried == nil)
        #expect(answer.dialog == "Off: everything in Kitchen.")
    }
}
