import IntentLanguage
import IntentModel
import Testing

@testable import PhraseMatching

/// One folding for the compiler, the tokenizer and replies. (It lives in IntentModel, which has no
/// test target yet; the matcher is the first place it is exercised.)
struct TextFoldingTests {
    @Test(arguments: [
        ("Straße", "strasse"), ("STRASSE", "strasse"), ("Ünïcödé", "unicode"), ("ẞ", "ss"),
        ("Crème", "creme"), ("plain", "plain"), ("MiXeD", "mixed"), ("", ""),
    ])
    func foldsAWord(_ word: String, _ folded: String) {
        #expect(TextFolding.fold(word) == folded)
    }

    @Test(arguments: [
        ("  A  b ", "a b"), ("Crème  Brûlée", "creme brulee"), ("ﬁle\tSTRAẞE", "file strasse"),
        ("ｆｕｌｌｗｉｄｔｈ", "fullwidth"), ("", ""), ("   ", ""),
        // ASCII is folded over its bytes: every kind of space, ends dropped, runs as one.
        ("\tAdd\r\nTHE \u{0B}\u{0C} milk\n", "add the milk"), ("verb0x1", "verb0x1"), ("a_b-C.d", "a_b-c.d"),
    ])
    func foldsAPhrase(_ phrase: String, _ folded: String) {
        #expect(TextFolding.foldPhrase(phrase) == folded)
    }

    /// Without punctuation or contractions, the tokenizer's words are the phrase folding's.
    @Test(arguments: [
        "Straße", "Ünïcödé", "  A  b ", "Fokus auf Präsentation", "ﬁle", "Éclair au café", "zurückgeben",
    ])
    func tokensAgreeWithThePhraseFolding(_ text: String) {
        #expect(Normalizer.foldedWords(text) == TextFolding.foldPhrase(text))
    }

    /// Enum terms the compiler calls a clash are the ones matching cannot tell apart, and a term it
    /// accepts matches however it is spelled.
    @Test func compilerClashesAreWhatMatchingConfuses() throws {
        let clashing = IntentCompiler.compile(
            files: [
                (
                    "Intents/t/app.yaml",
                    Array(
                        """
                        app: Roads
                        enums:
                          Kind:
                            cases:
                              street: { title: Straße }
                              lane: { synonyms: [STRASSE] }
                        """.utf8)
                )
            ], root: "Intents")
        #expect(clashing.diagnostics.map(\.message.text) == ["'STRASSE' would mean both 'street' and 'lane' of Kind"])

        let accepted = IntentCompiler.compile(
            files: [
                (
                    "Intents/t/app.yaml",
                    Array(
                        """
                        app: Roads
                        enums:
                          Kind:
                            cases:
                              street: { title: Straße, synonyms: [Crème] }
                              lane: {}
                        intents:
                          Find:
                            parameters: { kind: Kind }
                            phrases: ["find a {kind}"]
                            result: { dialog: "${kind}" }
                        """.utf8)
                )
            ], root: "Intents")
        let graph = try #require(accepted.graph)
        let matcher = Matcher(index: PhraseIndex(graph: graph), clock: Clock())
        for said in ["find a strasse", "find a STRASSE", "find a creme", "find a lane"] {
            guard case .match(let candidate) = matcher.recognize(said, language: nil).outcome else {
                Issue.record("no match for “\(said)”")
                continue
            }
            #expect(candidate.values["kind"] == .enumCase(said.hasSuffix("lane") ? "lane" : "street"), "\(said)")
        }
    }
}
