import IntentModel
import Testing

@testable import IntentLanguage

/// `widgets:` and `controls:` in, diagnostics out, checked like every other definition.
extension DiagnosticsTests {
    static let app = """
        app: Shop
        entities:
          Item:
            properties: { name: string, isDone: { type: boolean, default: false } }
            matchBy: [name]
        intents:
          Finish:
            parameters: { item: Item }
            phrases: ["finish {item}"]
            perform: [ { update: item, set: { isDone: true } } ]
          Add:
            parameters: { name: string }
            phrases: ["add {name}"]
            perform: [ { create: Item, set: { name: "${name}" } } ]

        """

    static let surfaceCases: [Case] = [
        Case(
            name: "an intent only a widget's button or a control runs needs no phrase; one nothing runs is flagged",
            source: """
                app: Shop
                entities:
                  Item:
                    properties: { name: string }
                intents:
                  Reset:
                    perform: [ { create: Item, set: { name: reset } } ]
                  Wipe:
                    perform: [ { create: Item, set: { name: wipe } } ]
                  1️⃣Lost:
                    perform: [ { create: Item, set: { name: lost } } ]
                widgets:
                  Panel:
                    families: [small]
                    content: { title: Items }
                    buttons: [ { title: Reset, intent: Reset } ]
                controls:
                  WipeAll: { action: { intent: Wipe } }
                """,
            findings: [
                ("1️⃣", "warning: intent 'Lost' has neither a phrase nor an app shortcut; nothing can say it")
            ]),
        Case(
            name: "a configurable widget: its parameters, values, links, figures and widget buttons checked",
            source: app + """
                widgets:
                  One:
                    families: [small]
                    parameters:
                      7️⃣item: { type: Item }
                      which: { type: 1️⃣Itme }
                      shown: { type: Item }
                      limit: { type: integer, default: 2️⃣many }
                    let:
                      label: "${3️⃣shwn.name}"
                    link: 4️⃣"shop/${shown.id}"
                    content:
                      title: "${shown.name}"
                      figures:
                        - { value: "${count(Item where 5️⃣isDon)}", label: Done }
                      link: 6️⃣"shop://item/${item.id}"
                    buttons:
                      - { title: Finish, intent: Finish, with: { item: "${shown}" } }
                """,
            findings: [
                ("1️⃣", "error: unknown type 'Itme'; did you mean 'Item'?"),
                ("2️⃣", "error: the default of 'limit' must be a whole number; 'many' is not"),
                ("3️⃣", "error: unknown name 'shwn'; did you mean 'shown'?"),
                ("4️⃣", "error: a link starts with a scheme, as in radar://open/${radar.id}"),
                ("5️⃣", "error: unknown name 'isDon'; did you mean 'isDone'?"),
                ("6️⃣", "error: 'link' shows each item: add 'items'"),
                (
                    "7️⃣",
                    "error: 'item' cannot name a widget's parameter or value: use letters, digits and '_', and not 'item'"
                ),
            ]),
        Case(
            name: "unknown family, score out of range, a rule after one that always holds",
            source: app + """
                widgets:
                  List:
                    families: [small, 1️⃣medum]
                    relevance:
                      - { score: 2️⃣120 }
                      - 3️⃣{ when: "exists(Item)", score: 5 }
                    content: { title: Items }
                """,
            findings: [
                ("1️⃣", "error: unknown widget family 'medum'; did you mean 'medium'?"),
                ("2️⃣", "error: a relevance score is between 0 and 100"),
                ("3️⃣", "warning: this rule is never reached: the rule before it always holds"),
            ]),
        Case(
            name: "the one-line items query: unknown entity, property and sort key at their places",
            source: app + """
                widgets:
                  List:
                    families: [medium]
                    content:
                      items: "1️⃣Itme where !isDone"
                  Other:
                    families: [medium]
                    content:
                      items: "Item where !2️⃣isDon sort 3️⃣nmae limit 3"
                      line: "${4️⃣item.titel}"
                """,
            findings: [
                ("1️⃣", "error: unknown entity 'Itme'; did you mean 'Item'?"),
                ("2️⃣", "error: unknown name 'isDon'; did you mean 'isDone'?"),
                ("3️⃣", "error: 'Item' has no property 'nmae'; did you mean 'name'?"),
                ("4️⃣", "error: 'Item' has no property 'titel'"),
            ]),
        Case(
            name: "a line without items, a button without items, a button's intent and arguments",
            source: app + """
                widgets:
                  List:
                    families: [medium]
                    content:
                      line: 1️⃣"${item.name}"
                    buttons:
                      - 2️⃣{ title: Done, intent: Finish, with: { item: "${item}" } }
                  Done:
                    families: [medium]
                    content: { items: "Item where !isDone" }
                    buttons:
                      - { title: Done, intent: 3️⃣Finsh }
                      - { title: Done, intent: 4️⃣Finish, with: { 5️⃣itme: "${item}" } }
                """,
            findings: [
                ("1️⃣", "error: 'line' shows each item: add 'items'"),
                (
                    "2️⃣",
                    "error: this button belongs to the widget (it has no 'items'), so it cannot use 'item': add 'items' or drop 'item'"
                ),
                ("3️⃣", "error: unknown intent 'Finsh'; did you mean 'Finish'?"),
                ("4️⃣", "error: calling 'Finish' needs 'item'"),
                ("5️⃣", "error: 'Finish' has no parameter 'itme'; did you mean 'item'?"),
            ]),
        Case(
            name: "controls: a toggle needs state, on and off; a button an action",
            source: app + """
                controls:
                  1️⃣Half:
                    state: "exists(Item)"
                    turnOn: { intent: Add, with: { name: x } }
                  Both:
                    state: "2️⃣count(Item)"
                    turnOn: { intent: 3️⃣Add }
                    turnOff: { intent: Finish, with: { item: "${first(Item)}" } }
                  Press:
                    action: { intent: 5️⃣Add, with: { 4️⃣title: x } }
                """,
            findings: [
                ("1️⃣", "error: a control is a toggle (state, turnOn, turnOff) or a button (action)"),
                ("2️⃣", "error: a condition must be boolean, but this is integer"),
                ("3️⃣", "error: calling 'Add' needs 'name'"),
                ("4️⃣", "error: 'Add' has no parameter 'title'"),
                ("5️⃣", "error: calling 'Add' needs 'name'"),
            ]),
    ]

    @Test(arguments: surfaceCases)
    func diagnosesSurfaces(_ c: Case) {
        diagnoses(c)
    }

    @Test func aWidgetOrControlNamedTwiceInOneAppIsAnError() {
        let second =
            "widgets:\n  List: { families: [small], content: { title: Again } }\ncontrols:\n  Add: { action: { intent: Add, with: { name: x } } }\n"
        let first =
            Self.app
            + "widgets:\n  List: { families: [small], content: { title: Items } }\ncontrols:\n  Add: { action: { intent: Add, with: { name: y } } }\n"
        let compilation = IntentCompiler.compile(
            files: [("Intents/t/app.yaml", Array(first.utf8)), ("Intents/t/more.yaml", Array(second.utf8))],
            root: "Intents")
        let errors = compilation.diagnostics.filter { $0.severity == .error }.map(\.message.text)
        #expect(errors == ["duplicate widget 'List'", "duplicate control 'Add'"])
        #expect(
            compilation.diagnostics.filter { $0.severity == .error }.allSatisfy {
                $0.location?.start.file == "Intents/t/more.yaml"
            })
    }

    @Test func surfacesCompileIntoTheGraph() throws {
        let source =
            Self.app + """
                widgets:
                  List:
                    title: My items
                    families: [small, accessoryInline]
                    timeline: { refresh: 15m }
                    relevance: [ { when: "exists(Item where !isDone)", score: 60 }, { score: 5 } ]
                    content: { title: Items, value: "${count(Item)}", items: "Item where !isDone sort -createdAt limit 3" }
                controls:
                  Adder: { action: { intent: Add, with: { name: new } } }
                """
        let graph = try #require(compile(source).graph)
        let widget = try #require(graph.widgets(named: "my items").first)
        #expect(widget.families == [.small, .accessoryInline])
        #expect(widget.refresh == 900)
        #expect(widget.relevance.map(\.score) == [60, 5])
        #expect(widget.content.items?.limit == 3)
        #expect(widget.content.items?.sort == [IntentGraph.SortKey(property: "createdAt", descending: true)])
        #expect(graph.controls(named: "Shop.Adder").count == 1)
    }
}
