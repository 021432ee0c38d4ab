import IntentModel
import Testing

@testable import IntentRuntime

/// The reply words per language: data the conversation reads yes, no, cancel and choices from.
struct ConversationWordsTests {
    struct Choice: CustomTestStringConvertible, Sendable {
        var reply: String
        var count: Int
        var index: Int?
        var testDescription: String { "“\(reply)” of \(count)" }
    }

    static let choices: [Choice] = [
        Choice(reply: "2", count: 3, index: 1), Choice(reply: "#2", count: 3, index: 1),
        Choice(reply: "2.", count: 3, index: 1), Choice(reply: "number 2", count: 3, index: 1),
        Choice(reply: "two", count: 3, index: 1), Choice(reply: "the second", count: 3, index: 1),
        Choice(reply: "Third", count: 3, index: 2), Choice(reply: "zwei", count: 3, index: 1),
        Choice(reply: "die Nummer 3", count: 3, index: 2), Choice(reply: "fünf", count: 9, index: 4),
        Choice(reply: "nine", count: 9, index: 8), Choice(reply: "four", count: 3, index: nil),
        Choice(reply: "0", count: 3, index: nil), Choice(reply: "two three", count: 3, index: nil),
        Choice(reply: "milk", count: 3, index: nil), Choice(reply: "", count: 3, index: nil),
        Choice(reply: "one", count: 0, index: nil),
    ]

    @Test(arguments: choices)
    func readsAChoice(_ c: Choice) {
        #expect(Conversation.choice(c.reply, count: c.count) == c.index)
    }

    @Test func tablesHoldEnglishAndGerman() throws {
        #expect(Set(ConversationWords.byLanguage.keys) == ["en", "de"])
        let german = try #require(ConversationWords.byLanguage["de"])
        #expect(german.yes.contains("ja") && german.no.contains("nein") && german.cancel.contains("abbrechen"))
        #expect(german.numbers["funf"] == 5)
        let english = try #require(ConversationWords.byLanguage["en"])
        #expect(english.numbers["first"] == 1 && english.numbers["nine"] == 9)
    }

    @Test func repliesAreUnderstoodInEveryLanguage() {
        let all = ConversationWords.understood
        for words in ConversationWords.byLanguage.values {
            #expect(words.yes.isSubset(of: all.yes) && words.no.isSubset(of: all.no))
            #expect(words.cancel.isSubset(of: all.cancel) && words.fillers.isSubset(of: all.fillers))
            #expect(words.numbers.allSatisfy { all.numbers[$0.key] == $0.value })
        }
        #expect(all.yes.isDisjoint(with: all.no) && all.yes.isDisjoint(with: all.cancel))
        #expect(all.no.isDisjoint(with: all.cancel))
    }

    /// Replies are folded before they are looked up, so a word not in folded form is never found.
    @Test func wordsAreWrittenFolded() {
        for (code, words) in ConversationWords.byLanguage {
            let all = words.yes.union(words.no).union(words.cancel).union(words.fillers).union(words.numbers.keys)
            for word in all.sorted() {
                #expect(Normalizer.foldedWords(word) == word, "\(code): \(word)")
            }
        }
    }
}
