import IntentModel
import IntentRendering
import Testing

@testable import IntentLanguage

struct BundledDefinitionsTests {
    static let compilation = Result { try IntentCompiler.compile(directory: Paths.intents) }

    @Test func compileWithoutAnyDiagnostic() throws {
        let compilation = try Self.compilation.get()
        let printer = DiagnosticPrinter(sources: compilation.sources)
        #expect(compilation.diagnostics.isEmpty, "\(printer.render(compilation.diagnostics))")
        #expect(compilation.graph != nil)
    }

    @Test(arguments: [
        ("Radar", ["CreateRadar", "RefreshRadar", "RefreshAllRadars", "OpenRadar"]),
        ("FocusBlox", ["CreateTask", "CompleteTask", "GetNextUp", "StartFocusBlock", "EndFocusBlock"]),
        ("Fortune", ["GetDailyFortune", "CheckCompatibility"]),
        ("sideBar", ["SaveWebsite", "AddNote", "ShowRecentNotes"]),
    ])
    func declareTheIntentsOtherWorkReliesOn(app: String, intents: [String]) throws {
        let graph = try #require(try Self.compilation.get().graph)
        let declared = try #require(graph.app(named: app)).intents.map(\.name.name)
        for intent in intents { #expect(declared.contains(intent), "\(app) lacks \(intent)") }
    }

    @Test func signaturesMatchTheDomainPlans() throws {
        let graph = try #require(try Self.compilation.get().graph)
        func intent(_ name: String) throws -> IntentGraph.Intent { try #require(graph.intents(named: name).first) }
        let createRadar = try intent("CreateRadar")
        #expect(createRadar.parameter("topic")?.prompt == "What would you like to track?")
        #expect(createRadar.parameter("position")?.defaultValue == .enumCase("neutral"))
        let createTask = try intent("CreateTask")
        #expect(createTask.parameter("urgency")?.type.description == "Urgency")
        #expect(createTask.parameter("due")?.isOptional == true)
        #expect(try intent("StartFocusBlock").parameter("minutes")?.defaultValue == .integer(25))
        let compatibility = try intent("CheckCompatibility")
        #expect(compatibility.parameter("yourSign")?.prompt == "What's your zodiac sign?")
        #expect(compatibility.parameter("theirSign")?.prompt == "What's their zodiac sign?")
        #expect(graph.enums.first { $0.name.name == "ZodiacSign" }?.cases.count == 12)
        #expect(try intent("SaveWebsite").parameter("url")?.type == .url)
        #expect(try intent("GetDailyFortune").parameter("fortuneType")?.isOptional == true)
    }

    @Test func radarShipsTheSeedsAppShortcuts() throws {
        let graph = try #require(try Self.compilation.get().graph)
        let radar = try #require(graph.app(named: "Radar"))
        let spoken = radar.shortcuts.flatMap {
            $0.phrases.map { IntentGraph.speak($0.template, appName: "Radar", rules: radar.rules) }
        }
        for phrase in [
            "Create a radar in Radar", "Track something in Radar", "New radar in Radar",
            "Refresh my radars in Radar", "Update radars in Radar", "Get new opinions in Radar",
        ] {
            #expect(spoken.contains(phrase), "missing \(phrase)")
        }
    }

    @Test func edgesLeadFromResultsToTheIntentsThatTakeThem() throws {
        let graph = try #require(try Self.compilation.get().graph)
        #expect(
            graph.edges.contains {
                $0.from.name == "CreateTask" && $0.to.name == "CompleteTask" && $0.parameter == "task"
            })
        #expect(graph.edges.contains { $0.from.name == "CreateRadar" && $0.to.name == "RefreshRadar" })
    }
}
