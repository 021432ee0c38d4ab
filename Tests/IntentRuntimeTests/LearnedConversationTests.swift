import Foundation
import IntentModel
import TestSupport
import Testing

@testable import IntentRuntime

@Suite("The learned stage in a conversation: acts, asks, confirms, or answers no match")
struct LearnedConversationTests {
    @Test("A phrase with a word no phrase has runs its intent")
    func unseenWordActs() throws {
        let conversation = try Scratch().conversation()
        let answer = conversation.say("what should I do next honestly")
        #expect(answer.intent?.description == "FocusBlox.GetNextUp")
        #expect(answer.status == .done)
    }

    @Test(
        "Out-of-domain requests get no match, with suggestions",
        arguments: [
            "what's the weather like today", "tell me a joke", "play some jazz", "convert 100 dollars to euros",
        ])
    func outOfDomain(_ sentence: String) throws {
        let conversation = try Scratch().conversation()
        let answer = conversation.say(sentence)
        #expect(answer.status == .noMatch, "“\(sentence)” → \(answer.status) \(answer.intent?.description ?? "")")
        #expect(try conversation.titles("Task").isEmpty)
    }

    /// "banana" is passed over by the exact matcher's last-resort pass: a guess, like the learned stage's.
    @Test("An intent that deletes, reached by a guess past an unknown word, confirms even with --yes")
    func destructiveLearnedMatchConfirms() throws {
        let scratch = Scratch()
        try scratch.conversation().say("add pay rent to my tasks")
        let conversation = try scratch.conversation(.init(confirmAll: true))
        let question = conversation.say("remove banana the task pay rent")
        #expect(question.intent?.description == "FocusBlox.DeleteTask")
        #expect(question.status == .needsConfirmation)
        #expect(try conversation.titles("Task") == ["pay rent"])
        let answer = conversation.say("yes")
        #expect(answer.status == .done)
        #expect(try conversation.titles("Task").isEmpty)
    }

    @Test("Between the thresholds it asks “Did you mean …?”; yes carries on, no cancels")
    func asksBetweenThresholds() throws {
        // On the apps as they were when the sentence was chosen: the bundled apps' own phrases grow.
        let conversation = try Scratch().conversation(graph: FrozenApps.graph)
        // Not "my luck today" ("today" is a word of the daily fortune's phrase, no value dropped:
        // that guess acts), nor "my fortune luck" since the training's per-unit draws (it acts).
        let question = conversation.say("luck for my fortune")
        #expect(question.status == .needsConfirmation)
        #expect(question.dialog == "Did you mean “What's my daily fortune”?")
        let next = conversation.say("yes")
        #expect(next.intent?.description == "Fortune.GetDailyFortune")
        #expect(next.status != .noMatch)

        let again = try Scratch().conversation(graph: FrozenApps.graph)
        #expect(again.say("luck for my fortune").status == .needsConfirmation)
        #expect(again.say("no").status == .cancelled)
        #expect(!again.isWaiting)
    }

    @Test("A focus block named in words no phrase has starts, its title taken from the words left over")
    func calledDeepWork() throws {
        let answer = try Scratch().conversation().say("start a focus block called deep work")
        #expect(answer.intent?.description == "FocusBlox.StartFocusBlock")
        #expect(answer.dialog.contains("deep work”"))
    }

    /// Set Urgency's "(mark|set|make|flag) [the] [task] {task} [as|to] {urgency}" read "set the
    /// thermostat to 68 degrees" as a task called "thermostat to 68 degrees" whose urgency went
    /// unsaid, and asked about it: the task's free text took the "to" that says the value.
    @Test(
        "A request to something else, read as a task whose urgency went unsaid, is never taken for one",
        arguments: ["set the thermostat to 68 degrees", "set the heating to twenty", "make the music to my liking"])
    func unsaidSlotAfterFreeText(_ sentence: String) throws {
        let conversation = try Scratch().conversation()
        let answer = conversation.say(sentence)
        #expect(answer.intent?.description != "FocusBlox.SetTaskUrgency", "“\(sentence)” → \(answer.dialog)")
        #expect(answer.status != .done)
    }

    @Test("A task no record is called, its urgency unsaid, is no reading to ask about")
    func unsaidSlotBesideANameNothingHas() throws {
        let scratch = Scratch()
        try scratch.conversation().say("add pay rent to my tasks")
        let conversation = try scratch.conversation()
        let answer = conversation.say("set the alarm for seven")
        #expect(answer.intent?.description != "FocusBlox.SetTaskUrgency", "\(answer.dialog)")
        #expect(answer.status != .done)
        // A task that is there is read so (its urgency left unsaid takes the default).
        let named = conversation.say("mark the task pay rent")
        #expect(named.intent?.description == "FocusBlox.SetTaskUrgency")
        #expect(named.dialog.contains("pay rent"), "\(named.dialog)")
    }

    /// Said backwards, each was read: "urgent … task the make" as a new urgent task (the values it
    /// names are Create Task's own, which made an asking guess act), "list next my me list" by the
    /// exact matcher passing "next" over as one word too many. "… between compatibility" ends as
    /// "{yourSign} and {theirSign} compatibility" does, and has "between compatibility" the other way
    /// round: an edge in its place vouches for no order.
    @Test(
        "A sentence said backwards never acts, whichever intent's phrase it reverses",
        arguments: [
            "urgent fence garden task the make", "urgent to fence garden task switch", "list next my me tasks",
            "virgo and gemini between compatibility", "virgo and gemini of compatibility the check",
        ])
    func backwardsNeverActs(_ sentence: String) throws {
        let conversation = try Scratch().conversation()
        let answer = conversation.say(sentence)
        #expect(answer.status != .done, "“\(sentence)” → \(answer.intent?.description ?? "") \(answer.dialog)")
        #expect(try conversation.titles("Task").isEmpty)
    }

    /// "block" ends Start Focus Block's phrase "(start|begin) [a] [new] focus (block|session)" and
    /// starts none, so the sentence was taken for said backwards and asked "Did you mean …?"; its
    /// `training:` sentence "block out time to focus on [my thesis](title)" starts with it.
    @Test("A request that starts with a word the author's own training sentence starts with runs")
    func startsAsATrainingSentenceDoes() throws {
        let conversation = try Scratch().conversation()
        let answer = conversation.say("block 45 minutes for reading")
        #expect(answer.status == .done, "\(answer)")
        #expect(answer.intent?.description == "FocusBlox.StartFocusBlock")
        #expect(answer.dialog.hasPrefix("Focusing on “reading” for 45 minutes."), "\(answer.dialog)")
    }

    @Test("A backwards sentence the exact matcher reads as free text is asked about, not run")
    func weakExactMatchAsks() throws {
        let conversation = try Scratch().conversation()
        let answer = conversation.say("notes recent my read")
        #expect(answer.status != .done)
        #expect(try conversation.titles("Note").isEmpty)
    }
}
