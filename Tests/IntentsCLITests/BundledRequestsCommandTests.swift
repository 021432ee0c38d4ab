import Foundation
import TestSupport
import Testing

/// Issue 20: requests a new user makes of the bundled apps that were read wrongly, through `say`
/// as a user sees them. Each failed before the change that came with it.
@Suite("requests to the bundled apps a new user makes")
struct BundledRequestsCommandTests {
    let scratch = ScratchDirectory("bundled-requests")
    var store: String { scratch.path + "/store.sqlite" }

    func say(_ arguments: [String]) throws -> CommandLineTests.Run {
        try ConversationCommandTests.run(arguments, store: store, input: Data())
    }

    func json(_ sentence: String) throws -> [String: Any] {
        try CommandLineTests.result(try say(["say", "--dry-run", sentence, "--json"]))
    }

    /// "take me to the radar settings" opened a radar named "the"; the phone's settings stay no one's.
    @Test(arguments: [
        ("take me to the radar settings", "Radar.ShowRadarSettings"),
        ("open radar settings", "Radar.ShowRadarSettings"),
        ("open settings", nil), ("show me the settings", nil), ("go to settings", nil),
    ])
    func radarSettingsAreSaidWithRadar(_ sentence: String, _ intent: String?) throws {
        let answer = try json(sentence)
        #expect(answer["intent"] as? String == intent, "\(answer)")
        if intent == nil { #expect(answer["status"] as? String == "no_match", "\(answer)") }
    }

    /// The widget's type said: set to it (naming none, as the widget's button does, goes round).
    @Test func theFortuneWidgetSwitchesToTheTypeSaid() throws {
        let love = try say(["say", "switch the widget to love"])
        #expect(love.stdout == "The Daily Fortune widget shows your love fortune.\n", "\(love)")
        let career = try say(["say", "make the fortune widget show career readings"])
        #expect(career.stdout == "The Daily Fortune widget shows your career fortune.\n", "\(career)")
        let next = try say(["say", "switch the fortune widget"])
        #expect(next.stdout == "The Daily Fortune widget shows your daily fortune.\n", "\(next)")
    }

    /// A pronoun after free text is the text's ("stand by me" lost "me" as a filler); a closing
    /// clause pointing back at the request (", track it") is no part of the value.
    @Test(arguments: [
        ("add a task stand by me", "title", "stand by me"),
        ("add a task call you back", "title", "call you back"),
        ("i'm skeptical about crypto, track it", "topic", "crypto"),
        ("i feel bullish about solar power, please add that", "topic", "solar power"),
    ])
    func freeTextEndsWhereTheRequestDoes(_ sentence: String, _ name: String, _ value: String) throws {
        let answer = try json(sentence)
        let parameters = answer["parameters"] as? [String: Any] ?? [:]
        #expect(parameters[name] as? String == value, "\(answer)")
    }

    /// "I'm done with my focus session" ended a task called "focus session"; "i'm done tracking
    /// crypto" completed a task.
    @Test(arguments: [
        ("i'm done with my focus session", "FocusBlox.EndFocusBlock"),
        ("i'm done tracking crypto", "Radar.DeleteRadar"),
    ])
    func doneWithSaysWhichAppsThing(_ sentence: String, _ intent: String) throws {
        let answer = try json(sentence)
        #expect(answer["intent"] as? String == intent, "\(answer)")
    }
}
