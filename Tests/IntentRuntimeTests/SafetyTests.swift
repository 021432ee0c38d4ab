import Foundation
import IntentLanguage
import IntentModel
import IntentRendering
import ModelStore
import TestSupport
import Testing

@testable import IntentRuntime

/// A fresh store over a graph compiled from text, in a temporary directory.
final class GraphScratch {
    let directory: String
    let graph: IntentGraph
    var path: String { directory + "/store.sqlite" }

    init(_ yaml: String) {
        directory = NSTemporaryDirectory() + "intents-safety-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        graph = compileGraph(yaml)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    func conversation(_ options: Conversation.Options = .init()) throws -> Conversation {
        let store = try Store(path: path, graph: graph, clock: Bundled.clock)
        return Conversation(session: try Session(graph: graph, store: store), options: options)
    }
}

@Suite("Safety: deletes through call:, confirmations")
struct DestructiveCallTests {
    static let notes = """
        app: Notes
        entities:
          Note:
            properties:
              text: string
            matchBy: [text]
        intents:
          AddNote:
            parameters:
              text: { type: string }
            phrases: ["note {text}"]
            perform:
              - create: Note
                set: { text: "${text}" }
            result: { dialog: "Noted." }
          DeleteNote:
            parameters:
              note: { type: Note }
            phrases: ["delete the note {note}"]
            perform:
              - delete: note
            result: { dialog: "Deleted." }
          Forget:
            parameters:
              note: { type: Note }
            phrases: ["forget {note}"]
            perform:
              - call: DeleteNote
                with: { note: "${note}" }
            result: { dialog: "Forgotten." }
          ForgetLater:
            parameters:
              note: { type: Note }
            phrases: ["forget {note} later"]
            perform:
              - call: Forget
                with: { note: "${note}" }
            result: { dialog: "Forgotten later." }
        """

    @Test(
        "An intent that deletes through call: (directly or two calls deep) is destructive",
        arguments: [
            ("Forget", true), ("ForgetLater", true), ("DeleteNote", true), ("AddNote", false),
        ])
    func propagates(_ intent: String, _ deletes: Bool) throws {
        let graph = compileGraph(Self.notes)
        let found = try #require(graph.intents.first { $0.name.name == intent })
        #expect(found.deletes == deletes)
        // `intents graph --format json` says so too: the intent's `confirm`.
        let json = try JSONText.decode(JSONValue.self, from: graph.renderJSON())
        let intents = json.object?["apps"]?.array?.flatMap { $0.object?["intents"]?.array ?? [] } ?? []
        let shown = try #require(intents.first { $0.object?["name"]?.string == intent })
        #expect(shown.object?["confirm"] == .bool(deletes))
    }

    @Test("Deleting through call: asks before acting; no leaves the record")
    func asksBeforeActing() throws {
        let scratch = GraphScratch(Self.notes)
        let conversation = try scratch.conversation()
        #expect(conversation.say("note milk").status == .done)
        let question = conversation.say("forget milk")
        #expect(question.status == .needsConfirmation)
        #expect(conversation.say("no").status != .done)
        #expect(try conversation.titles("Note").count == 1)
        #expect(conversation.say("forget milk later").status == .needsConfirmation)
        #expect(conversation.say("yes").status == .done)
        #expect(try conversation.titles("Note").isEmpty)
    }
}

@Suite("Safety: questions that cannot be answered, answers that are wrong")
struct QuestionEndingTests {
    @Test("An entity prompt on an empty store says there is nothing to choose and stops")
    func emptyStoreStops() throws {
        let conversation = try Scratch().conversation()
        let answer = conversation.say("complete a task")
        #expect(answer.status == .error)
        #expect(answer.dialog == "There are no tasks yet, so there is nothing to choose.")
        #expect(!conversation.isWaiting)
        let named = conversation.say("complete the task pizza")
        #expect(named.status == .error)
        #expect(
            named.dialog
                == "I couldn't find a task called “pizza”. There are no tasks yet, so there is nothing to choose.")
        #expect(!conversation.isWaiting)
    }

    func runner(
        _ source: String, prompt: @escaping (String, [String]) -> String?, options: ShortcutRunner.Options = .init(),
        scratch: Scratch
    ) throws -> ShortcutRunner.Result {
        let session = try scratch.conversation().session
        let compilation = ShortcutCompiler.compile(
            path: "t/main.yaml", graph: session.graph, matcher: session.matcher(clock: Bundled.clock),
            files: ["t/main.yaml": source])
        let shortcut = try #require(compilation.shortcut, "\(compilation.diagnostics)")
        return ShortcutRunner(session: session, shortcuts: compilation.shortcuts, options: options, prompt: prompt)
            .run(shortcut)
    }

    @Test("A wrong choose answer at the terminal asks again")
    func chooseAsksAgain() throws {
        var replies = ["seven", "2"]
        var asked: [String] = []
        let result = try runner(
            """
            shortcut: Pick
            steps:
              - choose: "How long?"
                from: [25, 50, 90]
                as: minutes
              - output: "${minutes}"
            """,
            prompt: { question, _ in
                asked.append(question)
                return replies.isEmpty ? nil : replies.removeFirst()
            }, scratch: Scratch())
        #expect(result.outputText == "50")
        #expect(asked == ["How long?", "“seven” is not one of the choices. How long?"])
    }

    @Test("No to a confirmation inside a shortcut ends the run cleanly, saying so")
    func noEndsTheRun() throws {
        let scratch = Scratch()
        try scratch.conversation().say("add buy milk to my tasks")
        var options = ShortcutRunner.Options()
        options.answers = ["no"]
        let result = try runner(
            """
            shortcut: Clean
            steps:
              - say: "delete the task buy milk"
              - show: "not reached"
            """, prompt: { _, _ in nil }, options: options, scratch: scratch)
        guard case .stopped = result.ending else {
            Issue.record("expected a clean stop, got \(result.ending)")
            return
        }
        #expect(result.log.last?.text == "Cancelled. Nothing was changed.")
        #expect(!result.log.contains { $0.text == "not reached" })
        #expect(try scratch.conversation().titles("Task") == ["buy milk"])
    }
}

@Suite("Safety: where: queries agree with evaluation and do not overflow SQLite")
struct WhereQueryTests {
    static let conditions: [(condition: String, expected: [String])] = [
        ("'ÉCL' in title", ["Éclair recipe"]),
        ("'ecl' in title", ["Éclair recipe"]),
        ("'STRASSE' in title", ["Straße fegen"]),
        ("'straße' in title", ["Straße fegen"]),
        ("'strasse' in title", ["Straße fegen"]),
        ("'milk' in title", ["buy MILK"]),
        (
            (0..<150).map { "title == 'nothing \($0)'" }.joined(separator: " || ") + " || title == 'buy MILK'",
            ["buy MILK"]
        ),
        (
            (0..<150).map { "title != 'nothing \($0)'" }.joined(separator: " && ") + " && 'milk' in title",
            ["buy MILK"]
        ),
    ]

    @Test("SQL and the evaluator give the same records", arguments: Self.conditions)
    func agree(_ condition: String, _ expected: [String]) throws {
        let conversation = try Scratch().conversation()
        conversation.say("add Éclair recipe to my tasks", "add Straße fegen to my tasks", "add buy MILK to my tasks")
        let graph = conversation.session.graph
        let task = graph.entities.first { $0.name.name == "Task" }!
        try conversation.session.store.read { transaction in
            let evaluator = Evaluator(graph: graph, clock: Bundled.clock, app: "FocusBlox", store: transaction)
            let all = try transaction.fetch(RecordQuery(entity: task.name))
            let filter = try graph.filter(condition, for: task.name)
            let viaQuery = try evaluator.query(
                IntentGraph.Query(entity: task.name, filter: filter, sort: [], limit: nil), in: [:]
            ).map { $0.values["title"]?.description ?? "" }
            let viaEvaluation = try all.filter {
                try evaluator.evaluate(filter, in: evaluator.scope(of: $0, over: [:])).truthy
            }.map { $0.values["title"]?.description ?? "" }
            #expect(viaQuery == expected)
            #expect(viaEvaluation == expected)
            #expect(try QueryCompiler(evaluator: evaluator, entity: task, scope: [:]).filter(filter) != nil)
        }
    }
}

@Suite("Safety: a dry run says what each step would do without inventing results")
struct DryRunTests {
    func dryRun(_ file: String) throws -> ShortcutRunner.Result {
        let scratch = Scratch()
        let conversation = try scratch.conversation()
        conversation.say("add buy milk to my tasks")
        let session = conversation.session
        let path = Bundled.root + "/Shortcuts/" + file
        let compilation = ShortcutCompiler.compile(
            path: path, graph: session.graph, matcher: session.matcher(clock: Bundled.clock))
        let shortcut = try #require(compilation.shortcut, "\(compilation.diagnostics)")
        var options = ShortcutRunner.Options()
        options.dryRun = true
        let result = ShortcutRunner(session: session, shortcuts: compilation.shortcuts, options: options, prompt: nil)
            .run(shortcut)
        #expect(try conversation.titles("Task") == ["buy milk"], "a dry run changes nothing")
        return result
    }

    @Test("morning-review: later steps are described, not run on made-up values")
    func morningReview() throws {
        let result = try dryRun("morning-review.yaml")
        if case .failed(let failure) = result.ending { Issue.record("failed: \(failure.message)") }
        #expect(
            result.log.map(\.text) == [
                "Ready: What's next. (dry run: nothing was changed)",
                "Would decide “count(next) == 0” on a result a dry run does not have (next); neither branch runs",
                "Would repeat for each item of “${next}” (not known in a dry run), with task as one of them:",
                "Would show “• «task.title»«task.urgency == urgent ? ' (urgent)' : ''»”",
                "Would run Start Focus Block with title: «first(next).title», minutes: 25",
                "Would output “«block»”",
            ])
    }

    @Test("fortune-for-every-sign: no score is invented")
    func fortune() throws {
        let result = try dryRun("fortune-for-every-sign.yaml")
        if case .failed(let failure) = result.ending { Issue.record("failed: \(failure.message)") }
        #expect(!result.log.contains { $0.text.contains("(0%)") })
        #expect(result.log.last?.text == "Would output “Best match for Leo: «best.title» («bestScore»%).”")
    }
}

@Suite("Safety: types named in messages by their title, with a or an")
struct ArticleTests {
    static let home = """
        app: Home
        entities:
          Area:
            properties: { name: string }
            matchBy: [name]
          MediaPlayer:
            properties: { name: string }
            matchBy: [name]
          BinarySensor:
            properties: { name: string }
            matchBy: [name]
          Plug:
            title: Smart Plug
            properties: { name: string }
            matchBy: [name]
          Herb:
            article: an
            properties: { name: string }
            matchBy: [name]
          UnitCell:
            properties: { name: string }
            matchBy: [name]
        intents:
          AddArea:
            parameters: { name: string }
            phrases: ["add area {name}"]
            perform: [{ create: Area, set: { name: "${name}" } }]
            result: { dialog: "ok" }
          AddPlayer:
            parameters: { name: string }
            phrases: ["add player {name}"]
            perform: [{ create: MediaPlayer, set: { name: "${name}" } }]
            result: { dialog: "ok" }
          AddSensor:
            parameters: { name: string }
            phrases: ["add sensor {name}"]
            perform: [{ create: BinarySensor, set: { name: "${name}" } }]
            result: { dialog: "ok" }
          AddPlug:
            parameters: { name: string }
            phrases: ["add plug {name}"]
            perform: [{ create: Plug, set: { name: "${name}" } }]
            result: { dialog: "ok" }
          AddHerb:
            parameters: { name: string }
            phrases: ["add herb {name}"]
            perform: [{ create: Herb, set: { name: "${name}" } }]
            result: { dialog: "ok" }
          AddCell:
            parameters: { name: string }
            phrases: ["add cell {name}"]
            perform: [{ create: UnitCell, set: { name: "${name}" } }]
            result: { dialog: "ok" }
          ShowArea:
            parameters: { area: Area }
            phrases: ["show area {area}"]
            result: { dialog: "ok" }
          PlayOn:
            parameters: { player: MediaPlayer }
            phrases: ["play on {player}"]
            result: { dialog: "ok" }
          ReadSensor:
            parameters: { sensor: BinarySensor }
            phrases: ["read sensor {sensor}"]
            result: { dialog: "ok" }
          SwitchPlug:
            parameters: { plug: Plug }
            phrases: ["switch plug {plug}"]
            result: { dialog: "ok" }
          PickHerb:
            parameters: { herb: Herb }
            phrases: ["pick herb {herb}"]
            result: { dialog: "ok" }
          ChargeCell:
            parameters: { cell: UnitCell }
            phrases: ["charge cell {cell}"]
            result: { dialog: "ok" }
        """

    @Test(
        "Not found names the type by its title, with the right article",
        arguments: [
            ("add area kitchen", "show area zzzz", "I couldn't find an area called “zzzz”."),
            ("add player den", "play on zzzz", "I couldn't find a media player called “zzzz”."),
            ("add sensor door", "read sensor zzzz", "I couldn't find a binary sensor called “zzzz”."),
            ("add plug lamp", "switch plug zzzz", "I couldn't find a smart plug called “zzzz”."),
            ("add herb basil", "pick herb zzzz", "I couldn't find an herb called “zzzz”."),
            ("add cell one", "charge cell zzzz", "I couldn't find a unit cell called “zzzz”."),
        ])
    func articles(_ setup: String, _ phrase: String, _ expected: String) throws {
        let conversation = try GraphScratch(Self.home).conversation()
        #expect(conversation.say(setup).status == .done)
        let answer = conversation.say(phrase)
        #expect(answer.dialog.hasPrefix(expected), "\(answer.dialog)")
    }

    @Test("An empty store names the type in the plural")
    func plural() throws {
        let conversation = try GraphScratch(Self.home).conversation()
        #expect(
            conversation.say("show area zzzz").dialog.hasSuffix(
                "There are no areas yet, so there is nothing to choose."))
        #expect(
            conversation.say("play on zzzz").dialog.hasSuffix(
                "There are no media players yet, so there is nothing to choose."))
    }
}

@Suite("Safety: Tab completes slot values")
struct SlotCompletionTests {
    @Test(
        "After a phrase's words, Tab offers the slot's enum cases, synonyms and stored entity names",
        arguments: [
            ("complete the task bu", ["complete the task buy bread", "complete the task buy milk"]),
            ("complete the task pay", ["complete the task pay rent"]),
            ("complete the task buy m", ["complete the task buy milk"]),
            ("complete the task buy ", ["complete the task buy bread", "complete the task buy milk"]),
            ("track rust as bull", ["track rust as bullish"]),
        ])
    func completes(_ typed: String, _ expected: [String]) throws {
        let conversation = try Scratch().conversation()
        conversation.say("add buy milk to my tasks", "add buy bread to my tasks", "add pay rent to my tasks")
        let completer = SlotCompleter(session: conversation.session)
        #expect(completer.completions(for: typed) == expected)
    }
}

@Suite("Safety: answers in the language of the request")
struct LanguageTests {
    @Test(
        "FocusBlox answers German phrases in German, English ones in English",
        arguments: [
            ("erstelle eine aufgabe Steuern machen", "„Steuern machen“ hinzugefügt."),
            ("add pay rent to my tasks", "Added “pay rent”."),
        ])
    func answersInTheRequestsLanguage(_ phrase: String, _ dialog: String) throws {
        let conversation = try Scratch().conversation()
        #expect(conversation.say(phrase).dialog == dialog)
    }

    @Test("Built-in messages and prompts follow the request's language")
    func builtIns() throws {
        let conversation = try Scratch().conversation()
        conversation.say("add buy milk to my tasks")
        let notFound = conversation.say("hake pizza ab")
        #expect(notFound.dialog == "Ich habe „pizza“ nicht gefunden. Welche Aufgabe hast du erledigt?")
        #expect(conversation.cancel()?.dialog == "Abgebrochen. Nichts wurde geändert.")
        let question = conversation.say("lösche die aufgabe buy milk")
        #expect(question.status == .needsConfirmation)
        #expect(question.dialog.hasSuffix("(ja/nein)"), "\(question.dialog)")
        let cancelled = conversation.say("nein")
        #expect(cancelled.dialog == "Abgebrochen. Nichts wurde geändert.")
        let english = conversation.say("complete the task pizza")
        #expect(english.dialog == "I couldn't find a task called “pizza”. Which task did you finish?")
    }

    @Test("prompt:, dialog: and a rule's message: take a text per language")
    func localizedTexts() throws {
        let graph = """
            app: Kitchen
            languages: [en, de]
            intents:
              Boil:
                parameters:
                  minutes:
                    type: integer
                    prompt: { en: "For how many minutes?", de: "Wie viele Minuten?" }
                    validate: [{ min: 1, message: { en: "At least a minute.", de: "Mindestens eine Minute." } }]
                phrases:
                  en: ["boil eggs [for {minutes} minutes]"]
                  de: ["koche eier [{minutes} minuten lang]"]
                result: { dialog: { en: "Boiling for ${minutes} minutes.", de: "Koche ${minutes} Minuten." } }
            """
        let conversation = try GraphScratch(graph).conversation()
        #expect(conversation.say("koche eier").dialog == "Wie viele Minuten?")
        #expect(conversation.say("0").dialog == "Mindestens eine Minute. Wie viele Minuten?")
        #expect(conversation.say("5").dialog == "Koche 5 Minuten.")
        #expect(conversation.say("boil eggs").dialog == "For how many minutes?")
        #expect(conversation.say("0").dialog == "At least a minute. For how many minutes?")
        #expect(conversation.say("5").dialog == "Boiling for 5 minutes.")
    }
}

@Suite("Safety: focus blocks in German")
struct GermanFocusTests {
    @Test("A German focus request is asked, checked and answered in German")
    func focusInGerman() throws {
        let conversation = try Scratch().conversation()
        #expect(
            conversation.say("fokus auf Steuern für drei minuten").dialog
                == "Ein Fokusblock dauert mindestens fünf Minuten. Wie viele Minuten?")
        #expect(conversation.say("dreißig").dialog.hasPrefix("Fokus auf „Steuern“ für 30 Minuten. Endet um "))
        #expect(conversation.say("beende den fokusblock").dialog == "„Steuern“ beendet. Gut gemacht.")
    }
}

@Suite("Safety: fail: and confirm: in the request's language")
struct LocalizedStepTests {
    static let graph = """
        app: Kitchen
        languages: [en, de]
        entities:
          Pot:
            properties: { name: string, hot: { type: boolean, default: false } }
            matchBy: [name]
        intents:
          AddPot:
            parameters: { name: string }
            phrases: { en: ["add pot {name}"], de: ["neuer topf {name}"] }
            perform: [{ create: Pot, set: { name: "${name}", hot: true } }]
            result: { dialog: "ok" }
          Wash:
            parameters: { pot: Pot }
            phrases: { en: ["wash {pot}"], de: ["spüle {pot}"] }
            confirm: { en: "Wash ${pot.name}?", de: "${pot.name} spülen?" }
            perform:
              - if: "pot.hot"
                then:
                  - fail: { en: "“${pot.name}” is still hot.", de: "„${pot.name}“ ist noch heiß." }
            result: { dialog: "Washed." }
        """

    @Test("A German request gets the German question and the German failure")
    func german() throws {
        let conversation = try GraphScratch(Self.graph).conversation()
        #expect(conversation.say("neuer topf pasta").status == .done)
        #expect(conversation.say("spüle pasta").dialog == "pasta spülen? (ja/nein)")
        #expect(conversation.say("ja").dialog == "„pasta“ ist noch heiß.")
        #expect(conversation.say("wash pasta").dialog == "Wash pasta? (yes/no)")
        #expect(conversation.say("yes").dialog == "“pasta” is still hot.")
    }

    @Test("FocusBlox's failures are German for German requests")
    func focusBlox() throws {
        let conversation = try Scratch().conversation()
        conversation.say("fokus auf Steuern")
        #expect(
            conversation.say("fokus auf Post").dialog == "Es läuft schon ein Fokusblock: „Steuern“. Beende ihn zuerst.")
    }
}

@Suite("Safety: summaries in the request's language")
struct LocalizedSummaryTests {
    @Test("A German delete confirms with the German summary")
    func germanSummary() throws {
        let conversation = try Scratch().conversation()
        conversation.say("add buy milk to my tasks")
        #expect(conversation.say("lösche die aufgabe buy milk").dialog == "„buy milk“ löschen? (ja/nein)")
        conversation.cancel()
        #expect(conversation.say("delete the task buy milk").dialog == "Delete buy milk? (yes/no)")
    }
}
