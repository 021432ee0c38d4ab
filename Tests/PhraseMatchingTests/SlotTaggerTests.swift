import Foundation
import IntentLanguage
import IntentModel
import TestSupport
import Testing
import YAML

@testable import PhraseMatching

@Suite("The slot tagger: deterministic training, its cache, values through the typed parsers")
struct SlotTaggerTests {
    static let index = PhraseIndex(graph: Bundled.graph)

    @Test("Two trainings give the same bytes")
    func deterministic() {
        let first = SlotTaggerTrainer.train(index: Self.index).encoded(definitionsHash: 7)
        let second = SlotTaggerTrainer.train(index: Self.index).encoded(definitionsHash: 7)
        #expect(first == second)
        #expect(first.count > 1_000)
    }

    @Test("The cache reads back as the same tagger; other definitions, a truncated or altered file read as nothing")
    func coding() throws {
        let bytes = SlotTaggerTrainer.train(index: Self.index).encoded(definitionsHash: 7)
        let read = try #require(SlotTagger(decoding: bytes, definitionsHash: 7))
        #expect(read.encoded(definitionsHash: 7) == bytes)
        #expect(SlotTagger(decoding: bytes, definitionsHash: 8) == nil)
        #expect(SlotTagger(decoding: Array(bytes.dropLast(9)), definitionsHash: 7) == nil)
        var altered = bytes
        altered[altered.count / 2] ^= 0x40
        #expect(SlotTagger(decoding: altered, definitionsHash: 7) == nil)
    }

    struct ValueCase: CustomTestStringConvertible, Sendable {
        var type: ValueType
        var words: String
        /// The value's description, nil when the words are no value of the type.
        var value: String?
        var testDescription: String { "\(words) as \(type)" }
    }

    static let values: [ValueCase] = [
        ValueCase(type: .integer, words: "2003", value: "2003"),
        ValueCase(type: .integer, words: "Hitomi Nabatame", value: nil),
        ValueCase(type: .integer, words: "in 2003", value: "2003"),
        ValueCase(type: .duration, words: "five minutes", value: "5m"),
        ValueCase(type: .duration, words: "five apples", value: nil),
        ValueCase(type: .string, words: "Old School Death Metal", value: "Old School Death Metal"),
        ValueCase(
            type: .enumeration(QualifiedName(app: "FocusBlox", name: "Urgency")), words: "urgent", value: "urgent"),
        ValueCase(type: .enumeration(QualifiedName(app: "FocusBlox", name: "Urgency")), words: "purple", value: nil),
    ]

    @Test("A span is a value only when it parses as its parameter's type", arguments: values)
    func parses(_ c: ValueCase) {
        let tokens = Normalizer.tokens(c.words)
        let parameter = IntentGraph.Parameter(
            name: "p", type: c.type, title: "P", isOptional: true, validations: [],
            location: SourceRange(at: Mark(file: "test", line: 1, column: 1)))
        let slot = SlotTagger.value(0..<tokens.count, of: parameter, tokens: tokens, matcher: Bundled.matcher)
        #expect(slot.map { "\($0.value)" } == c.value)
    }

    /// The tagger labelled "i need to remember to pay rent" with two titles, "remember" and "pay
    /// rent", and the first was taken ("Did you mean “Capture remember”?"). The retrained tagger no
    /// longer splits that sentence (`nlu13`'s phrase), so the rule is shown on the spans themselves.
    @Test("Of two spans a labelling gives one parameter, the longer is its value and the reading is split")
    func longerOfTwoSpans() {
        let remember = SlotTagger.oneSpanEach([("title", 3..<4), ("title", 5..<7)])
        #expect(remember.taken.map(\.span) == [5..<7])
        #expect(remember.split == ["title"])
        // As long: the first. Other parameters keep their one span, in order.
        let even = SlotTagger.oneSpanEach([("due", 0..<1), ("title", 1..<3), ("title", 4..<6)])
        #expect(even.taken.map { "\($0.slot) \($0.span)" } == ["due 0..<1", "title 1..<3"])
        #expect(even.split == ["title"])
        let whole = SlotTagger.oneSpanEach([("title", 1..<3), ("due", 3..<4)])
        #expect(whole.taken.count == 2 && whole.split.isEmpty)
    }
}
