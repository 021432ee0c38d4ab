import Foundation
import IntentModel
import TestSupport
import Testing

@testable import IntentRuntime

/// Requests to the bundled apps in words their phrases do not have, as a new user says them at the
/// prompt (issue 20): each class of them understood, several sentences of each.
@Suite("Requests in a user's own words")
struct OwnWordsTests {
    @Test(
        "Searching one's notes for a word opens the note that has it",
        arguments: [
            "search my notes for stamps", "look through my notes for stamps", "look for the note about stamps",
            "search the notes for stamps",
        ])
    func searchingNotes(_ sentence: String) throws {
        let conversation = try Scratch().conversation()
        conversation.say("note that i need to buy stamps at the post office", "note that the boiler is serviced")
        let answer = conversation.say(sentence)
        #expect(answer.status == .done, "\(answer)")
        #expect(answer.intent?.description == "sideBar.OpenNote", "\(answer)")
        #expect(answer.dialog == "Your note: “i need to buy stamps at the post office”.")
    }

    @Test(
        "Saying one's sign starts a compatibility check and asks for the other sign",
        arguments: [("i'm a leo", "Leo"), ("I am an aries", "Aries"), ("my sign is virgo", "Virgo")])
    func sayingOnesSign(_ sentence: String, _ sign: String) throws {
        let conversation = try Scratch().conversation()
        conversation.expectQuestion(
            sentence, intent: "Fortune.CheckCompatibility", question: "What's their zodiac sign?")
        let result = conversation.say("pisces")
        #expect(result.status == .done, "\(result)")
        #expect(result.dialog.hasPrefix("\(sign) and Pisces: "), "\(result.dialog)")
    }

    @Test(
        "Asking which tasks one has lists them",
        arguments: [
            "what tasks do i have", "which tasks do i have left", "what tasks are open", "what to-dos do i have",
        ])
    func whichTasks(_ sentence: String) throws {
        let conversation = try Scratch().conversation()
        conversation.say("add pay rent to my tasks", "add call mom to my tasks")
        let answer = conversation.say(sentence)
        #expect(answer.status == .done, "\(answer)")
        #expect(answer.intent?.description == "FocusBlox.GetNextUp", "\(answer)")
        #expect(answer.dialog == "Up next: pay rent, call mom.", "\(answer.dialog)")
    }

    /// "display" is no word of Open Radar's phrases; WordNet reads it as "show". Before para9, adding
    /// FocusBlox's change intents retrained the classifier so that "about" fell to no match (0.35).
    @Test(
        "Displaying a radar opens it, whichever preposition names the topic",
        arguments: ["display the radar about rust", "display the radar for rust", "display the radar on rust"])
    func displayingARadar(_ sentence: String) throws {
        let conversation = try Scratch().conversation()
        conversation.say("create a radar on rust")
        let answer = conversation.say(sentence)
        #expect(answer.status == .done, "\(answer)")
        #expect(answer.intent?.description == "Radar.OpenRadar", "\(answer)")
        #expect(answer.dialog == "Opening “rust”.")
    }
}

extension OwnWordsTests {
    @Test(
        "Two signs asked about as a pair, then the question, are checked",
        arguments: [
            ("taurus and libra, would they get along", "Taurus and Libra: "),
            ("cancer and gemini, do they match", "Cancer and Gemini: "),
        ])
    func twoSigns(_ sentence: String, _ start: String) throws {
        let answer = try Scratch().conversation().say(sentence)
        #expect(answer.status == .done, "\(answer)")
        #expect(answer.dialog.hasPrefix(start), "\(answer.dialog)")
    }

    @Test(
        "Asking how much time is left of a focus block says when it ends",
        arguments: ["how much time have i got left", "how long do i have left in my focus session"])
    func timeLeft(_ sentence: String) throws {
        let conversation = try Scratch().conversation()
        conversation.say("start a focus block on the essay for 30 minutes")
        let answer = conversation.say(sentence)
        #expect(answer.status == .done, "\(answer)")
        #expect(answer.intent?.description == "FocusBlox.GetFocusBlock", "\(answer)")
    }

    @Test(
        "Switching one's fortunes to a kind switches the widget to it",
        arguments: [("change my fortune to career", "career"), ("switch my readings to love", "love")])
    func switchingFortunes(_ sentence: String, _ kind: String) throws {
        let answer = try Scratch().conversation().say(sentence)
        #expect(answer.status == .done, "\(answer)")
        #expect(answer.intent?.description == "Fortune.SwitchFortuneType", "\(answer)")
        #expect(answer.parameters.contains { $0.name == "fortuneType" && $0.value == .string(kind) }, "\(answer)")
    }

    @Test(
        "A focus block said by its length and a word of its own asks whether to start one",
        arguments: [("set aside 50 minutes", 50), ("set aside 40 minutes for the essay", 40)])
    func focusBlockByItsLength(_ sentence: String, _ minutes: Int) throws {
        let conversation = try Scratch().conversation()
        let answer = conversation.say(sentence)
        #expect(answer.status == .needsConfirmation, "\(answer)")
        #expect(answer.intent?.description == "FocusBlox.StartFocusBlock", "\(answer)")
        // Said as a person says it, the length said kept: "Did you mean “Focus on the essay for 40 minutes”?",
        // a title not said left for the end ("Focus for 50 minutes on …"), never "… for" mid-sentence.
        #expect(
            answer.dialog.hasPrefix("Did you mean “") && answer.dialog.contains(" for \(minutes) minutes"),
            "\(answer.dialog)")
        #expect(!answer.dialog.contains("… "), "\(answer.dialog)")
        let started = conversation.say("yes")
        #expect(started.intent?.description == "FocusBlox.StartFocusBlock", "\(started)")
    }

    @Test(
        "A note taken about something holds the thing, not the word about",
        arguments: [
            ("take a note about stamps", "Noted: “stamps”."),
            ("write a note about the boiler service", "Noted: “the boiler service”."),
            ("quick note about the garage code", "Noted: “the garage code”."),
        ])
    func noteAbout(_ sentence: String, _ dialog: String) throws {
        let answer = try Scratch().conversation().say(sentence)
        #expect(answer.status == .done, "\(answer)")
        #expect(answer.intent?.description == "sideBar.AddNote", "\(answer)")
        #expect(answer.dialog == dialog)
    }

    @Test("Asking how a tracked topic is doing shows where one stands on it")
    func howATopicIsDoing() throws {
        let conversation = try Scratch().conversation()
        conversation.say("create a radar on rust")
        for sentence in ["how is rust doing", "how's rust doing"] {
            let answer = conversation.say(sentence)
            #expect(answer.status == .done, "\(answer)")
            #expect(answer.intent?.description == "Radar.ShowOpinion", "\(answer)")
            #expect(answer.dialog.hasPrefix("On “rust” you are neutral"), "\(answer.dialog)")
        }
    }

    @Test(
        "Asking what is happening with a tracked topic refreshes it",
        arguments: ["what's happening with rust", "what's going on with rust"])
    func whatIsHappeningWithATopic(_ sentence: String) throws {
        let conversation = try Scratch().conversation()
        conversation.say("create a radar on rust")
        let answer = conversation.say(sentence)
        #expect(answer.status == .done, "\(answer)")
        #expect(answer.intent?.description == "Radar.RefreshRadar", "\(answer)")
    }

    @Test(
        "What one has to do, then a request pointing back at it, adds it as a task",
        arguments: [
            ("i have to buy a present, put it on my list", "buy a present"),
            ("we need to fix the fence, add it to my tasks", "fix the fence"),
            ("call the plumber, put that on my to-do list", "call the plumber"),
        ])
    func pointingBackAtATask(_ sentence: String, _ title: String) throws {
        let answer = try Scratch().conversation().say(sentence)
        #expect(answer.status == .done, "\(answer)")
        #expect(answer.intent?.description == "FocusBlox.CreateTask", "\(answer)")
        #expect(answer.dialog == "Added “\(title)”.")
    }

    @Test(
        "A task said as what to do after \"to\" is added without the to",
        arguments: [
            ("add a to-do to water the plants", "water the plants"),
            ("create an urgent task to file the taxes", "file the taxes"),
            ("new task to renew the passport", "renew the passport"),
        ])
    func taskToDo(_ sentence: String, _ title: String) throws {
        let answer = try Scratch().conversation().say(sentence)
        #expect(answer.status == .done, "\(answer)")
        #expect(answer.intent?.description == "FocusBlox.CreateTask", "\(answer)")
        #expect(answer.dialog.hasPrefix("Added “\(title)”"), "\(answer.dialog)")
    }

    @Test(
        "A tracked topic's name followed by \"again\" or \"now\" names the topic",
        arguments: ["how do i feel about nuclear fusion again", "what do i think of nuclear fusion now"])
    func topicThenAgain(_ sentence: String) throws {
        let conversation = try Scratch().conversation()
        conversation.say("create a radar on nuclear fusion")
        let answer = conversation.say(sentence)
        #expect(answer.status == .done, "\(answer)")
        #expect(answer.intent?.description == "Radar.ShowOpinion", "\(answer)")
        #expect(answer.dialog.hasPrefix("On “nuclear fusion” you are neutral"), "\(answer.dialog)")
    }

    @Test(
        "Two signs in words no phrase has are checked in the order said, one's own first",
        arguments: [
            ("check how a gemini gets along with a capricorn", "Gemini and Capricorn: "),
            ("how good is a pisces with a taurus", "Pisces and Taurus: "),
        ])
    func signsInTheOrderSaid(_ sentence: String, _ start: String) throws {
        let answer = try Scratch().conversation().say(sentence)
        #expect(answer.status == .done, "\(answer)")
        #expect(answer.intent?.description == "Fortune.CheckCompatibility", "\(answer)")
        #expect(answer.dialog.hasPrefix(start), "\(answer.dialog)")
    }

    @Test(
        "A topic said with one's view, then a request pointing back, is tracked with that view",
        arguments: [
            ("i'm optimistic about nuclear fusion, put it on my radar", "Now tracking “nuclear fusion” (Positive)."),
            ("i'm bearish on tesla, add it to my radar", "Now tracking “tesla” (Negative)."),
        ])
    func viewThenPointingBack(_ sentence: String, _ dialog: String) throws {
        let answer = try Scratch().conversation().say(sentence)
        #expect(answer.status == .done, "\(answer)")
        #expect(answer.intent?.description == "Radar.CreateRadar", "\(answer)")
        #expect(answer.dialog == dialog)
    }
}

extension OwnWordsTests {
    /// The backwards check compared word order with the phrase templates only, and asked "Did you
    /// mean …?" about these sentences the author wrote word for word as `training:` sentences.
    @Test(
        "A training sentence said as written runs its intent, never taken for said backwards",
        arguments: [
            ("block out time to focus on my thesis", "FocusBlox.StartFocusBlock"),
            ("anything i should get to next", "FocusBlox.GetNextUp"),
            ("was steht heute auf meiner liste", "FocusBlox.GetNextUp"),
        ])
    func trainingSentenceAsWritten(_ sentence: String, _ intent: String) throws {
        let conversation = try Scratch().conversation()
        conversation.say("add pay rent to my tasks")
        let answer = conversation.say(sentence)
        #expect(answer.status == .done, "\(answer)")
        #expect(answer.intent?.description == intent, "\(answer)")
    }
}

extension OwnWordsTests {
    /// Start Focus Block's `(on|for) {title}` took "50 minutes" (or "half an hour") as the block's
    /// title, and started it for the default 25 minutes.
    @Test(
        "A length said with its unit is the focus block's minutes, and the title is asked for",
        arguments: [
            ("start a focus block for 50 minutes", 50), ("begin a focus session for half an hour", 30),
            ("start a focus block for an hour and a half", 90), ("start a focus session for two hours", 120),
        ])
    func focusBlockLength(_ sentence: String, _ minutes: Int) throws {
        let conversation = try Scratch().conversation()
        conversation.expectQuestion(
            sentence, intent: "FocusBlox.StartFocusBlock", question: "What will you focus on?")
        let started = conversation.say("the budget")
        #expect(started.status == .done, "\(started)")
        #expect(started.dialog.hasPrefix("Focusing on “the budget” for \(minutes) minutes."), "\(started.dialog)")
    }

    /// "(focus|concentrate) on {title}" took the whole rest as the title ("writing for half an hour")
    /// and started the block for the default 25 minutes; so did the German phrase with the length first.
    @Test(
        "A length at the start or end of a focus block's title is its minutes",
        arguments: [
            ("let me focus on writing for half an hour", "writing", 30),
            ("focus on the budget for two hours", "the budget", 120),
            ("concentrate on reading for an hour and a half", "reading", 90),
            ("starte einen fokusblock für 20 minuten zum lernen", "lernen", 20),
        ])
    func focusBlockLengthBesideTitle(_ sentence: String, _ title: String, _ minutes: Int) throws {
        let answer = try Scratch().conversation().expectAnswer(sentence, .done, intent: "FocusBlox.StartFocusBlock")
        let values = Dictionary(uniqueKeysWithValues: answer.parameters.map { ($0.name, $0.value) })
        #expect(values["title"] == .string(title), "\(answer)")
        #expect(values["minutes"] == .integer(minutes), "\(answer)")
    }

    /// A length inside the title is the title's: only a span that starts or ends it is the minutes.
    @Test("A length inside a focus block's title stays in it")
    func lengthInsideTitle() throws {
        let answer = try Scratch().conversation().say("focus on the 2 hour exam prep")
        #expect(answer.status == .done, "\(answer)")
        #expect(answer.dialog.hasPrefix("Focusing on “the 2 hour exam prep” for 25 minutes."), "\(answer)")
    }

    /// Explore Radars' `what am I <watching_word> [in {app}]` carried "what … am i … in radar" to 0.90,
    /// "plan" being no word of any phrase: the wrong intent acted.
    @Test(
        "Asking which plan one is on opens the subscription",
        arguments: [
            "what plan am i on in radar", "which plan do i have in radar", "which radar plan am i on",
            "what subscription have i got in radar",
        ])
    func whichPlan(_ sentence: String) throws {
        let answer = try Scratch().conversation().say(sentence)
        #expect(answer.status == .done, "\(answer)")
        #expect(answer.intent?.description == "Radar.ShowRadarSubscription", "\(answer)")
        #expect(answer.dialog == "Opening your subscription.")
    }

    /// Create Task had no phrase for it: "i need to remember to pay rent" was only a guess, asked about.
    @Test(
        "Needing to remember to do something adds it as a task",
        arguments: [
            ("i need to remember to pay rent", "pay rent"),
            ("i have to remember to water the plants", "water the plants"),
            ("i want to remember to call mom", "call mom"),
        ])
    func needingToRemember(_ sentence: String, _ title: String) throws {
        let conversation = try Scratch().conversation()
        let answer = conversation.say(sentence)
        #expect(answer.status == .done, "\(answer)")
        #expect(answer.intent?.description == "FocusBlox.CreateTask", "\(answer)")
        #expect(answer.dialog == "Added “\(title)”.")
        #expect(try conversation.titles("Task") == [title])
    }

    /// Create Radar's `(add|put) {topic} (to|on) my (radar|watch list|watchlist)` asked "Did you mean
    /// “Track something in Radar”?" about a shopping list, and acted on a grocery list ("grocery" read
    /// as "market" through WordNet, 0.96): the word before "list" says which list, and it is no watch
    /// list. (The robustness benchmark has a shopping list as another app's, out of domain.)
    @Test(
        "Putting something on a shopping or grocery list tracks nothing in Radar",
        arguments: [
            ("put eggs on the shopping list", Answer.Status.noMatch),
            ("put apples on the shopping list", Answer.Status.noMatch),
            ("put eggs on the grocery list", Answer.Status.needsConfirmation),
        ])
    func shoppingListIsNoRadar(_ sentence: String, _ status: Answer.Status) throws {
        let conversation = try Scratch().conversation()
        let answer = conversation.say(sentence)
        #expect(answer.status == status, "\(answer)")
        #expect(try conversation.titles("Radar").isEmpty)
    }
}

extension OwnWordsTests {
    /// The tagger labelled "shortage" as no value's word, and the guess refreshed the radar "chip".
    @Test("A word the definitions never saw, next to a guessed name, is part of the name")
    func nameWidenedOverUnseenWords() throws {
        let conversation = try Scratch().conversation()
        conversation.say("track chip")
        conversation.say("track the chip shortage")
        let answer = conversation.expectAnswer("anything new on the chip shortage", .done, intent: "Radar.RefreshRadar")
        #expect(answer.dialog.hasPrefix("Refreshed “the chip shortage”"), "\(answer.dialog)")
    }

    /// "self", a word of Side Bar's "note to self", was left out of the topic: Radar tracked
    /// “driving cars”.
    @Test("A word before a guessed name that only another app's phrases have is part of the name")
    func nameWidenedOverAnotherAppsWord() throws {
        let conversation = try Scratch().conversation()
        conversation.expectAnswer(
            "add self driving cars to my radar, i'm skeptical", .done, intent: "Radar.CreateRadar")
        #expect(try conversation.titles("Radar") == ["self driving cars"])
    }

    /// Delete Radar had no phrase for it: "(delete|remove) [the|my] {radar} radar" looked for a radar
    /// called "coffee market from my".
    @Test(
        "Removing a radar from my radar deletes it, after asking",
        arguments: ["remove the coffee market from my radar", "take the coffee market off my radars"])
    func removeFromMyRadar(_ sentence: String) throws {
        let conversation = try Scratch().conversation()
        conversation.say("track the coffee market")
        let answer = conversation.expectAnswer(sentence, .needsConfirmation, intent: "Radar.DeleteRadar")
        #expect(answer.dialog == "Delete the coffee market? (yes/no)", "\(answer.dialog)")
    }
}

extension OwnWordsTests {
    /// The classifier read "stop showing my fortune on the lock screen" as Start Fortune Tracking at
    /// 0.81, and it acted: a live activity started when the user asked to stop one. Stop Fortune
    /// Tracking, its runner-up, says "stop": that is asked about.
    @Test(
        "A word that turns a request around asks about the intent that says it, never the other",
        arguments: ["stop showing my fortune on the lock screen", "please stop showing my fortune on the lock screen"])
    func reversingWordAsks(_ sentence: String) throws {
        let answer = try Scratch().conversation().expectAnswer(
            sentence, .needsConfirmation, intent: "Fortune.StopFortuneTracking")
        #expect(answer.dialog == "Did you mean “Stop fortune tracking”?", "\(answer.dialog)")
    }
}

extension OwnWordsTests {
    /// "don't delete the rust radar" was Delete Radar at 1.00 (it asked only because deleting always
    /// confirms); "please never delete the rust radar" passed "never" over as one word too many.
    @Test(
        "A sentence that says not to do something does nothing",
        arguments: [
            "don't delete the rust radar", "please never delete the rust radar", "do not start a focus block",
            "don't add buy milk to my tasks",
        ])
    func sayingNotTo(_ sentence: String) throws {
        let conversation = try Scratch().conversation()
        conversation.say("track rust")
        let answer = conversation.say(sentence)
        #expect(answer.status == .noMatch, "\(answer)")
        #expect(try conversation.titles("Radar") == ["rust"])
        #expect(try conversation.titles("Task").isEmpty)
    }

    /// A question says "not" or "end" of what it asks about: "how many tasks have i not finished"
    /// asked "Did you mean …?" when "not" counted as turning the request around.
    @Test(
        "A question that says not or end is answered",
        arguments: [
            ("how many tasks have i not finished", "FocusBlox.CountTasks"),
            ("when does my block end", "FocusBlox.GetFocusBlock"),
        ])
    func questionWithNot(_ sentence: String, _ intent: String) throws {
        let conversation = try Scratch().conversation()
        conversation.say("add pay rent to my tasks")
        conversation.say("start a focus block on the report")
        conversation.expectAnswer(sentence, .done, intent: intent)
    }

    /// "never mind" takes back what was said before: the request after it is still one.
    @Test("A request after “never mind” is still asked about")
    func neverMind() throws {
        try Scratch().conversation().expectAnswer(
            "never mind what's my fortune today", .needsConfirmation, intent: "Fortune.GetDailyFortune")
    }

    /// A `training:` sentence that starts so is the intent's own: "don't let me forget to …" adds a
    /// task (its wording, "don't let me forget to [book the flights](title)", with another title);
    /// "don't forget to buy milk", in words of its own, asks.
    @Test("Saying not to forget something adds it, or asks to")
    func notToForget() throws {
        let conversation = try Scratch().conversation()
        conversation.expectAnswer("don't let me forget to call mom", .done, intent: "FocusBlox.CreateTask")
        #expect(try conversation.titles("Task") == ["call mom"])
        conversation.expectAnswer("don't forget to buy milk", .needsConfirmation, intent: "FocusBlox.CreateTask")
    }
}

extension OwnWordsTests {
    /// The exact matcher reads phrases only: "how long is my to-do list", a `training:` sentence
    /// word for word, asked "Did you mean …?" (0.69), and "take buy stamps off my list", the
    /// training sentence "take [mow the lawn](task) off my list" with another task, answered
    /// nothing (0.29).
    @Test("A training sentence's wording, with its values or others, runs its intent")
    func trainingWordingWithOtherValues() throws {
        let conversation = try Scratch().conversation()
        conversation.say("add buy stamps to my tasks")
        conversation.say("add pay rent to my tasks")
        conversation.expectAnswer("how long is my to-do list", .done, intent: "FocusBlox.CountTasks")
        let answer = conversation.expectAnswer(
            "take buy stamps off my list", .needsConfirmation, intent: "FocusBlox.DeleteTask")
        #expect(answer.dialog == "Delete buy stamps? (yes/no)", "\(answer.dialog)")
    }

    /// Free text as its words only: "how's the stock market doing" has as many words of a value as
    /// of Radar's "how is [rust](radar) doing", and says no more of Radar than of any question.
    @Test("A training sentence's wording that says less than its value does not act")
    func trainingWordingThatSaysLittle() throws {
        let conversation = try Scratch().conversation()
        let answer = conversation.say("how's the stock market doing")
        #expect(answer.status != .done && answer.status != .needsValue, "\(answer)")
    }

    /// "called" was the title's first word: the task was “called book flights”.
    @Test(
        "A name introduced by called, named or titled is the name",
        arguments: [
            ("can you create a task called book flights for me", "book flights"),
            ("add a task named renew the lease", "renew the lease"),
        ])
    func nameIntroducedByCalled(_ sentence: String, _ title: String) throws {
        let conversation = try Scratch().conversation()
        conversation.expectAnswer(sentence, .done, intent: "FocusBlox.CreateTask")
        #expect(try conversation.titles("Task") == [title])
    }

    /// "don't delete the rust radar" did nothing, but offered "Did you mean “Delete the rust radar”?".
    @Test("A sentence that says not to do something is offered no phrase that does it")
    func sayingNotToSuggestsNothing() throws {
        let conversation = try Scratch().conversation()
        conversation.say("track rust")
        let answer = conversation.say("don't delete the rust radar")
        #expect(answer.status == .noMatch, "\(answer)")
        #expect(!answer.dialog.contains("Did you mean"), "\(answer.dialog)")
    }
}

extension OwnWordsTests {
    /// Side Bar's "jot down {text}" wrote the note “pick up the dry cleaning as a task”: the
    /// sentence said which kind of record it wanted, and it was not a note.
    @Test("Free text that ends by naming another kind of record asks before anything is written")
    func endingAsAnotherKind() throws {
        let conversation = try Scratch().conversation()
        let answer = conversation.say("jot down pick up the dry cleaning as a task")
        #expect(answer.status == .needsConfirmation, "\(answer)")
        #expect(answer.dialog.hasPrefix("Did you mean"), "\(answer.dialog)")
        #expect(try conversation.titles("Note").isEmpty)
        conversation.expectAnswer("jot down the wifi password is on the fridge", .done, intent: "sideBar.AddNote")
    }
}

extension OwnWordsTests {
    /// "mark chess as" set the task to urgent, Set Urgency's default: the sentence stopped after the
    /// word that introduces the value, and the default stood in for what was not said.
    @Test(
        "A request that stops after the word introducing a value asks for it, not its default",
        arguments: [("mark chess as", "How urgent is it?"), ("markiere chess als", "Wie dringend ist sie?")])
    func valueBegunNotSaid(_ sentence: String, _ question: String) throws {
        let conversation = try Scratch().conversation()
        conversation.say("add chess to my tasks")
        conversation.expectQuestion(sentence, intent: "FocusBlox.SetTaskUrgency", question: question)
        #expect(try conversation.titles("Task", where: "urgency == \"urgent\"").isEmpty)
        conversation.say("not urgent")
        #expect(try conversation.titles("Task", where: "urgency == \"not_urgent\"") == ["chess"])
    }
}
