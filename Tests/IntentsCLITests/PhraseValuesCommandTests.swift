import Foundation
import TestSupport
import Testing

/// Phrases that fix values, parameters filled from the request's context, units glued to numbers,
/// plurals, and the resolution ranking as `say`, `explain`, `check` and the prompt show them.
@Suite("Phrase values, context and ranking at the command line", .tags(.slow), .skippedWhenFast)
struct PhraseValuesCommandTests {
    let scratch = ScratchDirectory("phrase-values")
    var directory: String { scratch.path }
    var store: String { directory + "/store.sqlite" }
    var definitions: String { directory + "/Intents" }

    static let home = """
        app: Home
        languages: [en, de]
        enums:
          Domain:
            cases:
              light: { title: Light, synonyms: [lamp, lampe] }
              fan: Fan
              window: Window
        entities:
          Area: { properties: { name: string }, matchBy: [name] }
          Device: { properties: { name: string }, matchBy: [name] }
        intents:
          TurnOn:
            parameters:
              domain: Domain
              area: { type: Area, context: area }
            phrases:
              - { text: "turn on the lights", set: { domain: light } }
              - { text: "turn on the lights in [the] {area}", set: { domain: light } }
              - "turn on [the] {domain} [in here]"
              - "turn on [the] {domain} in [the] {area}"
              - { lang: de, text: "schalte die {domain} ein" }
            result: { dialog: "On: ${domain} in ${area}." }
            examples: [ { say: "turn on the lights in the kitchen", expect: { domain: light, area: kitchen } } ]
          TurnOffArea:
            parameters: { area: Area }
            phrases: ["turn off [the] {area} (light|lights)"]
            result: { dialog: "Off: the lights in ${area}." }
            examples: [ { say: "turn off the kitchen light" } ]
          TurnOffDevice:
            parameters: { device: Device }
            phrases: ["turn off [the] {device}"]
            result: { dialog: "Off: ${device}." }
            examples: [ { say: "turn off the fan" } ]
          Dim:
            parameters: { level: integer }
            phrases: ["dim [the] lights to {level} percent"]
            result: { dialog: "Dimmed to ${level}%." }
            examples: [ { say: "dim the lights to 50%", expect: { level: 50 } } ]
        """

    static let seed = #"""
        {"Home.Area": [{"name": "Kitchen"}, {"name": "Living Room"}],
         "Home.Device": [{"name": "Overhead Light"}, {"name": "Fan"}]}
        """#

    func intents(_ arguments: [String], input: Data = Data()) throws -> CommandLineTests.Run {
        try ConversationCommandTests.run(arguments, store: store, input: input)
    }

    func setUp(_ yaml: String = home) throws {
        try FileManager.default.createDirectory(atPath: definitions + "/home", withIntermediateDirectories: true)
        try yaml.write(toFile: definitions + "/home/app.yaml", atomically: true, encoding: .utf8)
        try Self.seed.write(toFile: directory + "/seed.json", atomically: true, encoding: .utf8)
        let imported = try intents(["store", "import", "--intents", definitions, directory + "/seed.json"])
        try #require(imported.status == 0, "\(imported.stderr)")
    }

    @Test func aPhraseFixesAValueAndTheContextFillsTheRoom() throws {
        try setUp()
        let here = try intents(["say", "--intents", definitions, "--context", "area=Kitchen", "turn on the lights"])
        #expect(here.stdout == "On: Light in Kitchen.\n")
        // The sentence's own words win over the context.
        let named = try intents([
            "say", "--intents", definitions, "--context", "area=Kitchen", "turn on the lights in the living room",
        ])
        #expect(named.stdout == "On: Light in Living Room.\n")
        // Without a context the room is asked for.
        let asked = try intents(["say", "--intents", definitions, "turn on the lights"])
        #expect(asked.stdout.hasPrefix("What's the area?"))
        let bad = try intents(["say", "--intents", definitions, "--context", "area", "turn on the lights"])
        #expect(bad.status == 2)  // a usage error, like every malformed option
        #expect(bad.stderr.contains("a context is name=value, like area=Kitchen; not 'area'"))
    }

    @Test func pluralsAndUnitsAreUnderstood() throws {
        try setUp()
        let lamps = try intents([
            "say", "--intents", definitions, "--context", "area=Kitchen", "turn on the lamps in here",
        ])
        #expect(lamps.stdout == "On: Light in Kitchen.\n")
        let windows = try intents(["say", "--intents", definitions, "turn on the windows in the kitchen"])
        #expect(windows.stdout == "On: Window in Kitchen.\n")
        let german = try intents([
            "say", "--intents", definitions, "--context", "area=Kitchen", "schalte die Lampen ein",
        ])
        #expect(german.stdout == "On: Light in Kitchen.\n")
        let percent = try intents(["say", "--intents", definitions, "dim the lights to 50%"])
        #expect(percent.stdout == "Dimmed to 50%.\n")
        let glued = try intents(["say", "--dry-run", "start a focus block for 50min on taxes"])
        #expect(glued.stdout.hasPrefix("Ready: Focus on taxes for 50 minutes."))
    }

    @Test func theContextAtThePrompt() throws {
        try setUp()
        let input =
            ":context\n:context area=Kitchen\nturn on the lights\n:context\n:context clear\n:context\n:context area\n"
        let run = try intents(["repl", "--intents", definitions], input: Data(input.utf8))
        #expect(run.stdout.contains("› :context\nThe context is empty. Set it with :context area=Kitchen.\n"))
        #expect(
            run.stdout.contains(
                "› :context area=Kitchen\nContext: area=Kitchen\n› turn on the lights\nOn: Light in Kitchen.\n"))
        #expect(run.stdout.contains("› :context clear\nThe context is empty.\n"))
        #expect(run.stdout.contains("› :context area\na context is name=value, like area=Kitchen; not 'area'\n"))
    }

    @Test func explainSaysWhyAnUnresolvedReadingLost() throws {
        try setUp()
        let run = try intents(["explain", "--intents", definitions, "--store", store, "turn off Overhead Light"])
        #expect(run.stdout.contains("result: Home.TurnOffDevice\n"))
        #expect(run.stdout.contains(#"device = Overhead Light  ← "Overhead Light" (tokens 2–3, typed)"#))
        #expect(
            run.stdout.contains(
                #"area = Overhead  ← "Overhead" (tokens 2–2, free text, resolves to no entity: would ask)"#))
        #expect(run.stdout.contains("score: unresolved 1, unknown 0, literal 3,"))
        #expect(run.stdout.contains("lost to #1 on 'unresolved'"))
        let said = try intents(["say", "--intents", definitions, "turn off Overhead Light"])
        #expect(said.stdout == "Off: Overhead Light.\n")
        let set = try intents(["explain", "--intents", definitions, "turn on the lights"])
        #expect(set.stdout.contains("   domain = light  ← set by the phrase\n"))
    }

    @Test func checkPointsAtABadPhraseValue() throws {
        let yaml = """
            app: Home
            enums:
              Domain: { cases: { light: Light, fan: Fan } }
            intents:
              TurnOn:
                parameters: { domain: Domain }
                phrases:
                  - { text: "turn on the lights", set: { domain: lihgt } }
                  - { text: "turn on the fans", set: { domian: fan } }
                  - { text: "turn on the {domain}", set: { domain: fan } }
                result: { dialog: "${domain}" }
                examples: [ { say: "turn on the lights" } ]
            """
        try FileManager.default.createDirectory(atPath: definitions + "/home", withIntermediateDirectories: true)
        try yaml.write(toFile: definitions + "/home/app.yaml", atomically: true, encoding: .utf8)
        let run = try CommandLineTests.intents(["check", "Intents"], in: directory)
        #expect(run.status == 1)
        #expect(
            run.stderr.contains(
                "Intents/home/app.yaml:8:54: error: the value set for 'domain': 'lihgt' is not a case of Domain; did you mean 'light'?"
            ))
        #expect(
            run.stderr.contains("Intents/home/app.yaml:9:44: error: unknown parameter 'domian'; did you mean 'domain'?")
        )
        #expect(
            run.stderr.contains(
                "Intents/home/app.yaml:10:48: error: 'domain' is both a slot of the phrase and set by it; keep one"))
    }

    @Test func theSchemaAndTheGraphKnowPhraseValuesAndContext() throws {
        let schema = try intents(["schema"])
        #expect(schema.stdout.contains("Parameter values the phrase fixes when it matches"))
        #expect(schema.stdout.contains("Filled from the request's context of this name"))
        try setUp()
        let graph = try intents(["graph", "--intents", definitions, "--format", "json"])
        #expect(graph.stdout.contains(#""set": {"#) && graph.stdout.contains(#""domain": "light""#))
        #expect(graph.stdout.contains(#""context": "area""#))
        let described = try intents(["describe", "--intents", definitions, "TurnOn"])
        #expect(described.stdout.contains("[en] turn on the lights (sets domain = light)"))
        #expect(described.stdout.contains("area: Area (required) — else from the context's 'area'"))
        let json = try intents(["describe", "--intents", definitions, "TurnOn", "--json"])
        #expect(json.stdout.contains(#"{"lang":"en","set":{"domain":"light"},"text":"turn on the lights"}"#))
        #expect(json.stdout.contains(#"{"context":"area","default":null,"name":"area""#))
    }
}
