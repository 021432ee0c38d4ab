import Foundation
import IntentLanguage
import IntentModel
import IntentRendering
import ModelStore
import TestSupport
import Testing

@testable import IntentRuntime

/// Widgets computed from the store: relevance, families, timelines, buttons; and controls.
@Suite("Widgets and controls")
struct WidgetTests {
    let scratch = Scratch()

    func widget(_ name: String, in graph: IntentGraph = Bundled.graph) -> IntentGraph.Widget {
        graph.widgets(named: name)[0]
    }

    /// Seed 004, ITB-G3: the quick capture widget's score from what the store holds.
    static let relevanceCases: [(phrases: [String], score: Int)] = [
        ([], 10),
        (["add buy milk to my tasks"], 40),
        (["add buy milk to my tasks", "add an urgent task pay the rent"], 80),
        (["add an urgent task pay the rent", "start a focus block for 50 minutes on the report"], 100),
    ]

    @Test(arguments: relevanceCases)
    func quickCaptureRelevanceFollowsTheStore(_ phrases: [String], _ score: Int) throws {
        let conversation = try scratch.conversation()
        for phrase in phrases { #expect(conversation.say(phrase).status == .done, "\(phrase)") }
        let center = WidgetCenter(graph: Bundled.graph, store: conversation.session.store)
        let snapshot = try center.snapshot(widget("QuickCapture"))
        #expect(snapshot.relevance.score == score)
        let stack = try center.stack()
        #expect(stack[0].widget.name == "QuickCapture" || score < 40, "the most relevant widget is on top")
    }

    @Test func theFocusRuleStopsHoldingWhenTheBlockEnds() throws {
        let conversation = try scratch.conversation()
        conversation.say("start a focus block for 30 minutes on the report")
        let center = WidgetCenter(graph: Bundled.graph, store: conversation.session.store)
        let entries = try center.timeline(widget("QuickCapture"), from: Bundled.now, span: 3_600)
        #expect(entries.map(\.relevance.score) == [100, 100, 10, 10, 10])
        #expect(entries[2].date == Bundled.now.addingTimeInterval(30 * 60), "an entry where the block ends")
        #expect(
            entries.map(\.date).filter { $0 != entries[2].date }.allSatisfy {
                $0.timeIntervalSince(Bundled.now).truncatingRemainder(dividingBy: 900) == 0
            }, "the others every 15 minutes")
    }

    @Test func aTimelineHasAnEntryWhereADueDatePasses() throws {
        let conversation = try scratch.conversation()
        #expect(conversation.say("remind me to pay taxes today at 10:30").status == .done)
        let center = WidgetCenter(graph: Bundled.graph, store: conversation.session.store)
        let entries = try center.timeline(widget("DueSoon"), from: Bundled.now, span: 2 * 3_600)
        #expect(entries.count == 2)
        #expect(entries[0].items.map(\.detail) == ["due 10:30"])
        #expect(entries[0].relevance.score == 30)
        #expect(entries[1].date == Bundled.now.addingTimeInterval(31 * 60))
        #expect(entries[1].items.map(\.detail) == ["overdue"])
        #expect(entries[1].relevance.score == 90)
    }

    @Test func aButtonCompletesATaskAndTheWidgetReloads() throws {
        let conversation = try scratch.conversation()
        conversation.say("add buy milk to my tasks", "add an urgent task pay the rent")
        let center = WidgetCenter(graph: Bundled.graph, store: conversation.session.store)
        let before = try center.snapshot(widget("QuickCapture"))
        #expect(before.items.map(\.line) == ["pay the rent", "buy milk"])
        #expect(before.items.flatMap(\.buttons).map(\.number) == [1, 2])
        let answer = try #require(
            try center.press(2, on: widget("QuickCapture"), session: conversation.session, options: .init()))
        #expect(answer.status == .done)
        #expect(answer.dialog.contains("buy milk"))
        let after = try center.snapshot(widget("QuickCapture"))
        #expect(after.items.map(\.line) == ["pay the rent"])
        #expect(after.value == "1")
        #expect(try center.press(5, on: widget("QuickCapture"), session: conversation.session, options: .init()) == nil)
    }

    /// Every family keeps its size, whatever the text: long titles are cut with "…".
    @Test(arguments: IntentGraph.WidgetFamily.allCases)
    func longTitlesNeverOverflowAFamily(_ family: IntentGraph.WidgetFamily) throws {
        let conversation = try scratch.conversation()
        let long = "write the quarterly report on the migration of every customer to the new platform"
        conversation.say("add an urgent task \(long)", "add 漢字のとても長いタスクの名前をここに書きます to my tasks")
        let snapshot = try WidgetCenter(graph: Bundled.graph, store: conversation.session.store)
            .snapshot(widget("QuickCapture"))
        for ascii in [false, true] {
            let lines = WidgetRenderer(ascii: ascii).render(snapshot, family: family)
            let (columns, rows) = WidgetRenderer.size(of: family)
            let framed = family != .accessoryInline
            #expect(lines.count == (framed ? rows + 2 : 1))
            for line in lines {
                if framed {
                    #expect(TerminalText.width(line) == columns + 2, "\(family): \(line)")
                } else {
                    #expect(TerminalText.width(line) <= columns, "\(family): \(line)")
                }
            }
            if family != .accessoryCircular, family != .accessoryInline {
                #expect(lines.contains { $0.contains("…") }, "\(family) cuts the long title")
            }
        }
    }

    @Test func theFocusToggleStartsAndEndsABlock() throws {
        let conversation = try scratch.conversation()
        let controls = ControlCenter(session: conversation.session)
        let focus = conversation.session.graph.controls(named: "Focus")[0]
        #expect(try controls.state(of: focus) == false)
        let on = try controls.perform(.on, on: focus, options: .init())
        #expect(on.status == .done)
        #expect(on.dialog.hasPrefix("Focusing on “Focus” for 25 minutes"))
        #expect(try controls.state(of: focus) == true)
        #expect(try controls.perform(.on, on: focus, options: .init()).dialog == "Focus is already on.")
        #expect(try controls.perform(.toggle, on: focus, options: .init()).dialog.hasPrefix("Ended “Focus”"))
        #expect(try controls.state(of: focus) == false)
        #expect(throws: ControlCenter.Failure.self) { try controls.perform(.press, on: focus, options: .init()) }
        let refresh = conversation.session.graph.controls(named: "Refresh Radars")[0]
        conversation.say("create a radar about quantum computing")
        #expect(try controls.perform(.press, on: refresh, options: .init()).dialog == "Refreshed 1 radar.")
        #expect(throws: ControlCenter.Failure.self) { try controls.perform(.on, on: refresh, options: .init()) }
    }

    /// `count(…)` and `exists(…)` counted by the store agree with counting the records read.
    @Test(arguments: [
        "Task where !isCompleted", "Task where urgency == urgent", "Task where lowercase(title) == 'buy milk'",
        "Task", "Task where due != nil && due < now()", "FocusBlock where isActive",
    ])
    func countsByTheStoreAgreeWithCountingRecords(_ query: String) throws {
        let conversation = try scratch.conversation()
        conversation.say(
            "add buy milk to my tasks", "add an urgent task pay the rent", "remind me to call mom today at 9",
            "complete buy milk")
        let graph = Bundled.graph
        let counted = try graph.expression("count(\(query))", app: "FocusBlox")
        let exists = try graph.expression("exists(\(query))", app: "FocusBlox")
        let listed = try graph.expression(query, app: "FocusBlox")
        try conversation.session.store.read { transaction in
            let evaluator = Evaluator(graph: graph, clock: Bundled.clock, app: "FocusBlox", store: transaction)
            let records = try evaluator.evaluate(listed, in: [:]).items ?? []
            #expect(try evaluator.evaluate(counted, in: [:]) == .integer(records.count))
            #expect(try evaluator.evaluate(exists, in: [:]) == .boolean(!records.isEmpty))
        }
    }

    static let failingToggle = """
        app: Lamp
        entities:
          Light:
            properties: { name: string, isOn: { type: boolean, default: false } }
            matchBy: [name]
        intents:
          TurnOn:
            phrases: ["turn on the light"]
            perform:
              - create: Light
                set: { name: hall, isOn: true }
              - fail: "The bulb is broken."
          TurnOff:
            phrases: ["turn off the light"]
            perform: []
        controls:
          Light:
            state: "exists(Light where isOn)"
            turnOn: { intent: TurnOn }
            turnOff: { intent: TurnOff }
        """

    @Test func aToggleWhoseIntentFailsKeepsItsState() throws {
        let graph = compileGraph(Self.failingToggle)
        let store = try Store(path: scratch.path, graph: graph, clock: Bundled.clock)
        let session = try Session(graph: graph, store: store)
        let controls = ControlCenter(session: session)
        let light = graph.controls[0]
        let answer = try controls.perform(.on, on: light, options: .init())
        #expect(answer.status == .error)
        #expect(answer.dialog == "The bulb is broken.")
        #expect(try controls.state(of: light) == false)
        #expect(try store.read { try $0.fetch(RecordQuery(entity: QualifiedName(app: "Lamp", name: "Light"))) }.isEmpty)
    }
}
