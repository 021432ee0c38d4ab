import IntentLanguage
import IntentModel
import TestSupport
import Testing

@testable import PhraseMatching

/// Numbers glued to units read as the number and the unit's word; enum terms match their plurals.
struct UnitsAndPluralsTests {
    @Test(arguments: [
        ("dim to 50%", ["dim", "to", "50", "percent"]),
        ("set it to 20°", ["set", "it", "to", "20", "degrees"]),
        ("heat to 21°C", ["heat", "to", "21", "degrees", "celsius"]),
        ("for 5min", ["for", "5", "minutes"]),
        ("in 2h", ["in", "2", "hours"]),
        ("at 2.5x speed", ["at", "2.5", "times", "speed"]),
        // Not units: times of day, ordinals, mixed durations and plain words stay whole.
        ("at 9am on the 3rd", ["at", "9am", "on", "the", "3rd"]),
        ("in 1h30", ["in", "1h30"]),
        ("mp3 files", ["mp3", "files"]),
        ("print it on the 3d printer", ["print", "it", "on", "the", "3d", "printer"]),
    ])
    func gluedUnits(_ text: String, _ words: [String]) {
        #expect(Normalizer.tokens(text).map(\.text) == words)
    }

    @Test func aGluedValueKeepsWhatWasTyped() {
        let tokens = Normalizer.tokens("save 50% of it")
        #expect(tokens.map(\.raw) == ["save", "50", "%", "of", "it"])
        #expect(tokens.originalText(from: 1, through: 2) == "50%")
        #expect(tokens.originalText(from: 0, through: 4) == "save 50% of it")
    }

    @Test(arguments: [
        ("window", "windows"), ("switch", "switches"), ("box", "boxes"), ("battery", "batteries"), ("day", "days"),
    ])
    func englishPlurals(_ word: String, _ plural: String) {
        #expect(Plurals.english(word) == plural)
    }

    @Test(arguments: [
        ("lampe", "lampen"), ("heizung", "heizungen"), ("tisch", "tische"), ("fenster", "fenster"),
        ("steckdose", "steckdosen"), ("kissen", "kissen"),
    ])
    func germanPlurals(_ word: String, _ plural: String) {
        #expect(Plurals.german(word) == plural)
    }

    @Test func pluralsMatchTheirCaseUnlessAnotherCaseSaysThem() throws {
        let graph = try #require(
            IntentCompiler.compile(
                files: [
                    (
                        "Intents/a/app.yaml",
                        Array(
                            """
                            app: Alpha
                            languages: [en, de]
                            enums:
                              Thing:
                                cases:
                                  window: { title: Window, synonyms: [fenster] }
                                  lamp: { title: Lamp, synonyms: [lampe] }
                                  lamps_group: { title: Lamp group, synonyms: [lamps] }
                            intents:
                              Open:
                                parameters: { thing: Thing }
                                phrases: ["open [the] {thing}", { lang: de, text: "öffne die {thing}" }]
                                result: { dialog: "${thing}" }
                            """.utf8)
                    )
                ], root: "Intents"
            ).graph)
        let matcher = Matcher(index: PhraseIndex(graph: graph), clock: Bundled.clock)
        for (sentence, value) in [
            ("open the windows", "window"), ("öffne die Fenster", "window"), ("öffne die Lampen", "lamp"),
            ("open the lamps", "lamps_group"),
        ] {
            guard case .match(let candidate) = matcher.recognize(sentence).outcome else {
                Issue.record("\(sentence): no match")
                continue
            }
            #expect(candidate.values["thing"] == .enumCase(value), "\(sentence)")
            #expect(candidate.score.corrections == 0, "\(sentence)")
        }
    }
}
