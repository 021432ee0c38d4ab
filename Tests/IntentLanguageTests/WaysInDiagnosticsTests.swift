import IntentModel
import Testing

@testable import IntentLanguage

/// `links:`, `share:` and `activity:` in, diagnostics out (checked like `DiagnosticsTests`).
struct WaysInDiagnosticsTests {
    static let app = """
        app: Shop
        scheme: shop
        intents:
          Buy:
            parameters: { item: string }
            phrases: ["buy {item}"]
            result: { dialog: "${item}" }
          Sell:
            parameters: { thing: string }
            phrases: ["sell {thing}"]
            result: { dialog: "${thing}" }

        """

    static let cases: [DiagnosticsTests.Case] = [
        DiagnosticsTests.Case(
            name: "a slot that is not a parameter",
            source: app + """
                links:
                  - { url: "shop://buy/{1️⃣itme}", intent: Buy }
                """, findings: [("1️⃣", "error: 'itme' is not a parameter of 'Buy'; did you mean 'item'?")]),
        DiagnosticsTests.Case(
            name: "two routes matching the same URL",
            source: app + """
                links:
                  - { url: 1️⃣"shop://item/{item}", intent: Buy }
                  - { url: 2️⃣"shop://item/{thing}", intent: Sell }
                """,
            findings: [
                ("2️⃣", "error: the link 'shop://item/{thing}' matches the same URLs as 'shop://item/{item}' (Shop)"),
                ("1️⃣", "note: 'shop://item/{item}' is declared here"),
            ]),
        DiagnosticsTests.Case(
            name: "a word and a slot overlap; different words do not",
            source: app + """
                links:
                  - { url: "shop://item/{item}", intent: Buy }
                  - { url: "shop://item/{thing}/sell", intent: Sell }
                  - { url: 1️⃣"shop://item/new", intent: Sell }
                """,
            findings: [
                ("1️⃣", "error: the link 'shop://item/new' matches the same URLs as 'shop://item/{item}' (Shop)"),
                ("note", "note: 'shop://item/{item}' is declared here"),
            ]),
        DiagnosticsTests.Case(
            name: "an unknown intent",
            source: app + """
                links:
                  - { url: "shop://buy/{item}", intent: 1️⃣Buys }
                """, findings: [("1️⃣", "error: unknown intent 'Buys'; did you mean 'Buy'?")]),
        DiagnosticsTests.Case(
            name: "another scheme than the app's",
            source: app + """
                links:
                  - { url: "1️⃣shap://buy/{item}", intent: Buy }
                """,
            findings: [
                ("1️⃣", "error: 'shap' is not Shop's scheme; a link uses 'shop:' or is a universal link (https:)")
            ]),
        DiagnosticsTests.Case(
            name: "a slot that is part of a segment",
            source: app + """
                links:
                  - { url: "shop://buy/1️⃣item-{item}", intent: Buy }
                """, findings: [("1️⃣", "error: a slot fills a whole path segment: /{name}/")]),
        DiagnosticsTests.Case(
            name: "a misspelt key of a link",
            source: app + """
                links:
                  - 1️⃣{ 2️⃣uri: "shop://buy/{item}", intent: Buy }
                """,
            findings: [
                ("2️⃣", "error: unknown key 'uri'; did you mean 'url'?"), ("1️⃣", "error: missing 'url' in a link"),
            ]),
        DiagnosticsTests.Case(
            name: "an unknown content kind and a bad size",
            source: app + """
                share:
                  - { accepts: [1️⃣urls, file], maxSize: 2️⃣100XB, intent: Buy, with: { item: "${title}" } }
                """,
            findings: [
                ("1️⃣", "error: unknown content kind 'urls'; did you mean 'url'?"),
                ("2️⃣", "error: '100XB' is not a size: write bytes or a number with KB, MB or GB (100MB)"),
            ]),
        DiagnosticsTests.Case(
            name: "a share value for a parameter the intent lacks",
            source: app + """
                share:
                  - { accepts: text, intent: Buy, with: { 1️⃣iten: "${text}" } }
                """, findings: [("1️⃣", "error: 'Buy' has no parameter 'iten'; did you mean 'item'?")]),
        DiagnosticsTests.Case(
            name: "a share value that reads an unknown name",
            source: app + """
                share:
                  - { accepts: text, intent: Buy, with: { item: "${1️⃣txt}" } }
                """, findings: [("1️⃣", "error: unknown name 'txt'; did you mean 'text'?")]),
        DiagnosticsTests.Case(
            name: "an activity's unknown eligibility and bad expiry",
            source: """
                app: Shop
                intents:
                  Buy:
                    parameters: { item: string }
                    phrases: ["buy {item}"]
                    result: { dialog: "${item}" }
                    activity: { type: buy, eligible: [1️⃣handof], expires: 2️⃣soon }
                """,
            findings: [
                ("1️⃣", "error: unknown eligibility 'handof'; did you mean 'handoff'?"),
                ("2️⃣", "error: 'soon' is not a duration: write 8h, 30m or 1h30m"),
            ]),
    ]

    @Test(arguments: cases)
    func diagnoses(_ c: DiagnosticsTests.Case) {
        DiagnosticsTests().diagnoses(c)
    }

    @Test func theBundledAppsHaveLinksShareRoutesAndActivities() throws {
        let graph = try #require(IntentCompiler.compile(directory: Paths.intents).graph)
        #expect(
            graph.app(named: "Radar")?.links.map(\.url).prefix(3) == [
                "radar://open/{radar}", "radar://create?topic={topic}&position={position}",
                "https://radar.app/radar/{radar}",
            ])
        #expect(
            graph.app(named: "sideBar")?.shareRoutes.map(\.intent.name) == ["SaveWebsite", "AddNote", "AttachFile"])
        #expect(graph.app(named: "sideBar")?.shareRoutes.last?.maximumSize == 100 * 1024 * 1024)
        #expect(graph.intent(QualifiedName(app: "Radar", name: "OpenRadar"))?.activity?.type == "view-radar")
        #expect(
            graph.canonicalLink(for: QualifiedName(app: "Radar", name: "Radar"))?.route.url == "radar://open/{radar}")
    }
}
